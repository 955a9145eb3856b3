// Web Push by hand with node:crypto: the payload encryption of RFC 8291 (aes128gcm content coding, RFC 8188,
// one record) and the VAPID authorisation of RFC 8292 (an ES256 JWT signed with the server's key pair).
import {
  createCipheriv,
  createECDH,
  createPrivateKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
} from 'node:crypto';
import { guardedPost, webhookUrlShapeProblem } from './webhookGuard.ts';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
}

export interface PushSubscriptionKeys {
  endpoint: string;
  /** base64url of the browser's uncompressed P-256 public key. */
  p256dh: string;
  /** base64url of the 16-byte authentication secret. */
  auth: string;
}

const b64u = (b: Buffer) => b.toString('base64url');
const fromB64u = (s: string) => Buffer.from(s, 'base64url');

export function generateVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), fromB64u(jwk.x as string), fromB64u(jwk.y as string)]);
  return { publicKey: b64u(point), privateKey: jwk.d as string };
}

function vapidJwt(audience: string, subject: string, keys: VapidKeys, nowSeconds: number): string {
  const header = b64u(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })));
  const claims = b64u(Buffer.from(JSON.stringify({ aud: audience, exp: nowSeconds + 12 * 3600, sub: subject })));
  const point = fromB64u(keys.publicKey);
  const key = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64u(point.subarray(1, 33)),
      y: b64u(point.subarray(33, 65)),
      d: keys.privateKey,
    },
  });
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${header}.${claims}.${b64u(signature)}`;
}

/** The aes128gcm body for one subscription (RFC 8291 §3.4; record size 4096, one record). */
export function encryptPushPayload(sub: Pick<PushSubscriptionKeys, 'p256dh' | 'auth'>, payload: Buffer): Buffer {
  const uaPublic = fromB64u(sub.p256dh);
  const authSecret = fromB64u(sub.auth);
  const ecdh = createECDH('prime256v1');
  const asPublic = ecdh.generateKeys();
  const ecdhSecret = ecdh.computeSecret(uaPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const salt = randomBytes(16);
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  // The last (only) record ends with the delimiter 0x02.
  const body = Buffer.concat([
    cipher.update(Buffer.concat([payload, Buffer.from([2])])),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  const rs = Buffer.alloc(4);
  rs.writeUInt32BE(4096);
  return Buffer.concat([salt, rs, Buffer.from([asPublic.length]), asPublic, body]);
}

export interface PushResult {
  ok: boolean;
  status: number;
  answer: string;
  /** 404/410: the subscription is gone; remove it. */
  gone: boolean;
  /** The endpoint is not a public http(s) address (SSRF guard): nothing was sent. */
  refused?: boolean;
}

/**
 * Sends one encrypted message to a push service endpoint with VAPID authorisation. The endpoint came from a
 * browser, so it goes through the SSRF guard like a webhook (webhookGuard.ts): a non-http(s) URL or a non-public
 * IP literal is refused before connecting, and a name is refused at the socket when it resolves to a non-public
 * address (`allowPrivate`, NOTIFY_ALLOW_PRIVATE_PUSH, opens them for tests with a local push service).
 */
export async function sendWebPush(
  sub: PushSubscriptionKeys,
  payload: object,
  keys: VapidKeys,
  opts: { subject: string; ttlSeconds?: number; timeoutMs?: number; allowPrivate?: boolean },
): Promise<PushResult> {
  const allowPrivate = opts.allowPrivate ?? false;
  const problem = webhookUrlShapeProblem(sub.endpoint, allowPrivate);
  if (problem) return { ok: false, status: 0, answer: `refused: ${problem}`, gone: false, refused: true };
  const url = new URL(sub.endpoint);
  const jwt = vapidJwt(url.origin, opts.subject, keys, Math.floor(Date.now() / 1000));
  let res: { status: number; text: string };
  try {
    res = await guardedPost(
      url,
      {
        Authorization: `vapid t=${jwt}, k=${keys.publicKey}`,
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
        TTL: String(opts.ttlSeconds ?? 86_400),
        Urgency: 'high',
      },
      encryptPushPayload(sub, Buffer.from(JSON.stringify(payload))),
      allowPrivate,
      opts.timeoutMs ?? 15_000,
    );
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRREFUSED') return { ok: false, status: 0, answer: e.message, gone: false, refused: true };
    throw err;
  }
  const ok = res.status >= 200 && res.status < 300;
  return { ok, status: res.status, answer: res.text.slice(0, 500), gone: res.status === 404 || res.status === 410 };
}
