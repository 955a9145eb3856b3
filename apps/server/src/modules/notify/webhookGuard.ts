// Server-side request forgery guard of the webhook and browser push channels: a rule's webhook URL and a browser
// push subscription's endpoint (posted by the browser, so by anyone with the alarm permission) may only reach the
// public internet over http(s). Checked when saved (every address the host resolves to) and again when a delivery
// connects: the connection's own DNS lookup refuses non-public answers, so a name that resolved to a public address
// at save time and to 127.0.0.1 or 169.254.169.254 later (DNS rebinding) is refused at the socket. Tests and the
// benchmark, whose receivers listen on 127.0.0.1, open the private ranges with NOTIFY_ALLOW_PRIVATE_WEBHOOKS=1
// (webhooks) and NOTIFY_ALLOW_PRIVATE_PUSH=1 (push endpoints).
import dns, { type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 127], // unspecified and loopback
  ['::', 96], // IPv4-compatible (deprecated); IPv4-mapped addresses meet the IPv4 ranges above
  ['64:ff9b::', 96], // NAT64 (would reach any IPv4 address, private ones included)
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  refused.addSubnet(net, bits, 'ipv6');
}

/** True for an address a webhook must not reach (loopback, private, link-local, unique-local, unspecified, multicast…). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family === 6) return refused.check(address, 'ipv6');
  return true;
}

/** The host of a URL as an address or name (IPv6 brackets removed). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * What is wrong with a webhook URL without asking DNS: not a URL, not http(s), credentials in it, or an IP literal
 * that is not a public address (`allowPrivate` skips the address check). Null: its name still has to be resolved.
 */
export function webhookUrlShapeProblem(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `scheme ${url.protocol} is not http(s)`;
  if (url.username || url.password) return 'credentials in the URL';
  const host = hostOf(url);
  if (!allowPrivate && isIP(host) && isRefusedAddress(host)) return `${host} is not a public address`;
  return null;
}

/**
 * Why a webhook URL (when a rule is saved) or a push subscription endpoint (when a browser subscribes) is refused,
 * or null: its shape (above), or a host name that does not resolve or resolves (any of its addresses) to a
 * non-public address.
 */
export async function webhookUrlProblem(text: string, allowPrivate: boolean): Promise<string | null> {
  const shape = webhookUrlShapeProblem(text, allowPrivate);
  if (shape || allowPrivate) return shape;
  const host = hostOf(new URL(text));
  if (isIP(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    return `${host} does not resolve`;
  }
  if (addresses.length === 0) return `${host} does not resolve`;
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  return bad ? `${host} resolves to ${bad.address}, not a public address` : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` of a delivery's connection: resolves like dns.lookup, then refuses the connection when any answer is
 * not a public address. IP literals never reach a lookup: webhookUrlProblem checks them before connecting.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const bad = addresses.find((a) => isRefusedAddress(a.address));
    if (bad || addresses.length === 0) {
      const e: NodeJS.ErrnoException = new Error(
        `refused: ${hostname} resolves to ${bad?.address ?? 'nothing'}, not a public address`,
      );
      e.code = 'EADDRREFUSED';
      return callback(e, '');
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/**
 * POSTs the body and answers the status and the first kilobyte of the answer. Connections to names go through the
 * guarded lookup unless private addresses are allowed; the caller checks the URL's shape (IP literals) first.
 * Redirects are not followed.
 */
export function guardedPost(
  url: URL,
  headers: Record<string, string>,
  body: string | Buffer,
  allowPrivate: boolean,
  timeoutMs = 15_000,
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: allowPrivate ? undefined : guardedLookup,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 1024) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
