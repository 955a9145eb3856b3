// Passwords are stored as scrypt hashes: 'scrypt$N$r$p$salt$hash' (base64). Never the password itself.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readablePassword } from '@carhere/domain';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A readable random password for generated accounts (printed once at first start). */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * A new password someone else sets for an account (reset, import, sale): 12 readable characters without
 * look-alikes, shown once to the person who made it; the account must change it at first sign-in.
 */
export function generateAccountPassword(): string {
  return readablePassword((n) => randomBytes(n));
}
