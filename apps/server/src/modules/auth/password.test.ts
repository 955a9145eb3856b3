import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('Secret-1');
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(stored).not.toContain('Secret-1');
    expect(await verifyPassword('Secret-1', stored)).toBe(true);
    expect(await verifyPassword('secret-1', stored)).toBe(false);
  });

  it('salts each hash and rejects malformed stored values', async () => {
    expect(await hashPassword('x')).not.toBe(await hashPassword('x'));
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });

  it('generates distinct passwords of useful length', () => {
    const a = generatePassword();
    expect(a.length).toBeGreaterThanOrEqual(16);
    expect(a).not.toBe(generatePassword());
  });
});
