import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { isSealed, openSecret, openWith, parseSecretKey, resolveSecretKey, sealSecret, sealWith } from './secretBox.ts';

describe('secretBox', () => {
  const key = randomBytes(32);

  it('seals with a fresh IV each time and opens back to the text', () => {
    const a = sealWith(key, 'JBSWY3DPEHPK3PXP');
    const b = sealWith(key, 'JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(openWith(key, a)).toBe('JBSWY3DPEHPK3PXP');
    expect(openWith(key, sealWith(key, 'ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('refuses another key, an altered value and a clear value', () => {
    const sealed = sealWith(key, 'secret');
    expect(() => openWith(randomBytes(32), sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(4), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => openWith(key, `sb1:${raw.toString('base64url')}`)).toThrow();
    expect(() => openWith(key, 'secret')).toThrow(/not sealed/);
    expect(isSealed('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('takes SECRET_KEY as 64 hex digits or base64 of 32 bytes, nothing weaker', () => {
    const hex = key.toString('hex');
    expect(parseSecretKey(hex).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64url')).equals(key)).toBe(true);
    expect(() => parseSecretKey('password')).toThrow(/SECRET_KEY/);
    expect(() => parseSecretKey(hex.slice(2))).toThrow(/SECRET_KEY/);
  });

  it('keeps a key generated on PGlite in DATA_DIR/secret.key, mode 0600, and finds the same key next time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secretbox-'));
    try {
      const source = { dataDir: dir, kind: 'pglite' as const, pool: undefined as never };
      const first = await resolveSecretKey(source);
      const file = join(dir, 'secret.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
      const again = await resolveSecretKey(source, randomBytes(32));
      expect(again.equals(first)).toBe(true);
      // SECRET_KEY wins over the file.
      const fromEnv = await resolveSecretKey({ ...source, secretKey: key.toString('hex') });
      expect(fromEnv.equals(key)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('secretBox in a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ secretKey: undefined }); // the key from the database, as in production
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has a key loaded at start; on PostgreSQL it is one row that every process reads back', async () => {
    expect(openSecret(sealSecret('credential'))).toBe('credential');
    if (server.ctx.dbHandle.kind !== 'postgres') return;
    const source = { dataDir: 'memory://', kind: 'postgres' as const, pool: server.ctx.dbHandle.pool };
    const a = await resolveSecretKey(source);
    const b = await resolveSecretKey(source, randomBytes(32));
    expect(a.equals(b)).toBe(true);
    expect(openWith(a, sealSecret('shared'))).toBe('shared');
  });
});
