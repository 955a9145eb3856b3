// Real receivers for the notification tests and the benchmark: an SMTP server (smtp-server) that keeps the mails
// it is given, an HTTP server that checks webhook signatures, and a push service that decrypts Web Push messages
// with the browser's keys (RFC 8291) and checks the VAPID signature (RFC 8292).
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a MIME part body in quoted-printable (soft line breaks joined, =XX decoded as UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface ReceivedHook {
  path: string;
  raw: string;
  body: Record<string, unknown>;
  signatureValid: boolean;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  hooks: ReceivedHook[];
  /** Every correctly signed request, the refused (500) ones included. */
  attempts: ReceivedHook[];
  /** Answer 500 to the next n requests (to drive retries). */
  failNext(n: number): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Checks `X-Carhere-Signature: sha256=<hex>` over the raw body with the secret; refuses a bad one with 401. */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const hooks: ReceivedHook[] = [];
  const attempts: ReceivedHook[] = [];
  let failing = 0;
  const server = createServer(async (req, res) => {
    const raw = (await readBody(req)).toString('utf8');
    const header = String(req.headers['x-carhere-signature'] ?? '');
    const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    const signatureValid =
      header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
    if (!signatureValid) {
      res.writeHead(401).end('bad signature');
      return;
    }
    const hook = { path: req.url ?? '', raw, body: JSON.parse(raw), signatureValid, at: Date.now() };
    attempts.push(hook);
    if (failing > 0) {
      failing--;
      res.writeHead(500).end('try later');
      return;
    }
    hooks.push(hook);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks');
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    hooks,
    attempts,
    failNext(n) {
      failing = n;
    },
    close: () => close(server),
  };
}

export interface BrowserKeys {
  p256dh: string;
  auth: string;
  privateKey: ReturnType<typeof createECDH>;
}

/** A browser's subscription keys: a P-256 key pair and a 16-byte auth secret. */
export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  const pub = ecdh.generateKeys();
  return { p256dh: pub.toString('base64url'), auth: randomBytes(16).toString('base64url'), privateKey: ecdh };
}

export interface ReceivedPush {
  message: Record<string, unknown>;
  vapidValid: boolean;
  vapidKey: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface PushService {
  url: string;
  pushes: ReceivedPush[];
  close(): Promise<void>;
}

/** Decrypts an aes128gcm body with the browser's keys (RFC 8291 from the receiving side). */
function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const idLen = body[20];
  const asPublic = body.subarray(21, 21 + idLen);
  const cipherText = body.subarray(21 + idLen);
  const uaPublic = Buffer.from(keys.p256dh, 'base64url');
  const ecdhSecret = keys.privateKey.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, Buffer.from(keys.auth, 'base64url'), keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const plain = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  // Strip the padding delimiter 0x02 (and any zero padding after it).
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

function vapidValid(authorization: string, audience: string): { valid: boolean; key: string } {
  const m = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!m) return { valid: false, key: '' };
  const [header, claims, signature] = m[1].split('.');
  const point = Buffer.from(m[2], 'base64url');
  const key = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number };
  return { valid: ok && c.aud === audience && c.exp > Date.now() / 1000, key: m[2] };
}

/** A push service endpoint for one browser: answers 201 to messages it can decrypt and authenticate. */
export async function startPushService(keys: BrowserKeys): Promise<PushService> {
  const pushes: ReceivedPush[] = [];
  let origin = '';
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    try {
      const v = vapidValid(String(req.headers.authorization ?? ''), origin);
      const message = JSON.parse(decryptPush(body, keys)) as Record<string, unknown>;
      pushes.push({ message, vapidValid: v.valid, vapidKey: v.key, headers: req.headers });
      res.writeHead(v.valid ? 201 : 403).end();
    } catch (err) {
      res.writeHead(400).end(String(err));
    }
  });
  const port = await listen(server);
  origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}/push/abc`, pushes, close: () => close(server) };
}
