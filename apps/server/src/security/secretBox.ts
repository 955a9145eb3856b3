// Secrets at rest (TOTP secrets, device-network credentials, …): sealed with AES-256-GCM (node:crypto) under one
// server key, so a copy of the database alone (a dump, a backup, a leaked export of a table) does not reveal them.
//
//   sealSecret('JBSWY3DP…')  → 'sb1:<base64url of iv(12) | tag(16) | ciphertext>'
//   openSecret(sealed)       → 'JBSWY3DP…'   (throws on a wrong key or a tampered value: GCM authenticates)
//
// Where the key comes from (loadSecretKey, called once at start by main.ts, so the functions above are synchronous):
// 1. SECRET_KEY (environment): 32 bytes as 64 hex digits or base64. The safe choice for production: the key then
//    lives outside the database and its backups. Several API processes must be given the same value.
// 2. Embedded PGlite (the default `npm start`): a key generated once and kept in DATA_DIR/secret.key, created with
//    mode 0600 and exclusively (O_EXCL), so two processes starting together cannot write two keys. It sits beside
//    the database files; it protects secrets in anything copied out of the database (dumps, exports, logs).
// 3. PostgreSQL without SECRET_KEY: several processes on several machines must share the key, and the database is
//    the one thing they share, so it is generated once into its own table `secret_keys` (never the `settings`
//    table, which screens read and write), inserted with ON CONFLICT DO NOTHING and read back, so concurrent first
//    starts agree. This protects against leaks of the sealed columns (exports, logs, a copied table) but not
//    against a dump of the whole database; the server warns at start and SECRET_KEY is recommended.
// 4. An in-memory database (tests): the key lives as long as the process, like the data it protects.
//
// The key is never rotated (not needed yet); the 'sb1:' prefix leaves room for a second version. A value without
// the prefix is not sealed (isSealed), which is how clear secrets written before this module are found and sealed.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

const PREFIX = 'sb1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ROW = 'secretBox';

let installed: Buffer | null = null;

/** 64 hex digits or base64 of 32 bytes → the key; anything else is refused (a typo must not become a weak key). */
export function parseSecretKey(text: string): Buffer {
  const v = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(v)) key = Buffer.from(v, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) key = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== KEY_BYTES) {
    throw new Error('SECRET_KEY must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -hex 32`)');
  }
  return key;
}

/** Installs the key the functions below use. A second, different key in the same process is refused. */
export function useSecretKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error('secret key must be 32 bytes');
  if (installed && !installed.equals(key)) {
    throw new Error('a different secret key is already in use by this process');
  }
  installed = Buffer.from(key);
}

function currentKey(): Buffer {
  if (!installed) throw new Error('secretBox: no key loaded (loadSecretKey runs at server start)');
  return installed;
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** Seals a text with AES-256-GCM under `key` and a fresh random 96-bit IV. */
export function sealWith(key: Buffer, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Opens a text sealed under `key`; throws if it is not sealed, was sealed under another key, or was altered. */
export function openWith(key: Buffer, sealed: string): string {
  if (!isSealed(sealed)) throw new Error('secretBox: value is not sealed');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('secretBox: sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** Seals a text under the server key (see the top of this file). */
export function sealSecret(text: string): string {
  return sealWith(currentKey(), text);
}

/** Opens a text sealed by sealSecret; throws if it is not sealed, was sealed under another key, or was altered. */
export function openSecret(sealed: string): string {
  return openWith(currentKey(), sealed);
}

export interface SecretKeySource {
  /** SECRET_KEY from the environment, if set. */
  secretKey?: string;
  /** DATA_DIR of embedded PGlite ('memory://…' for an in-memory database). */
  dataDir: string;
  kind: 'pglite' | 'postgres';
  pool: pg.Pool;
  warn?: (message: string) => void;
}

/** Reads DATA_DIR/secret.key, or creates it (0600, exclusively) with `candidate` (a new random key). */
function keyFile(dataDir: string, candidate: Buffer): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secret.key');
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${candidate.toString('hex')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseSecretKey(readFileSync(file, 'utf8'));
}

async function keyRow(pool: pg.Pool, candidate: Buffer): Promise<Buffer> {
  await pool.query('INSERT INTO secret_keys (id, key) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    KEY_ROW,
    candidate.toString('hex'),
  ]);
  const { rows } = await pool.query<{ key: string }>('SELECT key FROM secret_keys WHERE id = $1', [KEY_ROW]);
  return parseSecretKey(rows[0].key);
}

/**
 * Finds (or creates) the key as described at the top of this file. `current` is a key this process already holds
 * (tests start several servers in one process): it is offered instead of a new one where a new one would be made.
 */
export async function resolveSecretKey(source: SecretKeySource, current: Buffer | null = null): Promise<Buffer> {
  if (source.secretKey) return parseSecretKey(source.secretKey);
  if (source.kind === 'postgres') {
    source.warn?.(
      'SECRET_KEY is not set: secrets are sealed with a key kept in the database (table secret_keys); set SECRET_KEY to keep the key outside it',
    );
    return keyRow(source.pool, current ?? randomBytes(KEY_BYTES));
  }
  if (source.dataDir.startsWith('memory:')) return current ?? randomBytes(KEY_BYTES);
  return keyFile(source.dataDir, current ?? randomBytes(KEY_BYTES));
}

/** Resolves the server key and installs it for sealSecret / openSecret (main.ts, once at start). */
export async function loadSecretKey(source: SecretKeySource): Promise<void> {
  useSecretKey(await resolveSecretKey(source, installed));
}
