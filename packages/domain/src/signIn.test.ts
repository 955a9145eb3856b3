import { describe, expect, it } from 'vitest';
import { ROLES } from './roles.ts';
import { READABLE_PASSWORD_ALPHABET, readablePassword, signInRestriction, totpRequiredFor } from './signIn.ts';

describe('sign-in restrictions', () => {
  const base = { role: ROLES.agent, mustChangePassword: false, totpEnabled: false, requireTotpForStaff: false };
  it('a password set by someone else comes first, then two-factor enrolment when required', () => {
    expect(signInRestriction(base)).toBeNull();
    expect(signInRestriction({ ...base, mustChangePassword: true, requireTotpForStaff: true })).toBe('changePassword');
    expect(signInRestriction({ ...base, requireTotpForStaff: true })).toBe('enrolTotp');
    expect(signInRestriction({ ...base, requireTotpForStaff: true, totpEnabled: true })).toBeNull();
    expect(signInRestriction({ ...base, role: ROLES.user, requireTotpForStaff: true })).toBeNull();
  });
  it('the setting applies to administrators and agents only', () => {
    expect(totpRequiredFor(ROLES.admin, true)).toBe(true);
    expect(totpRequiredFor(ROLES.superAgent, true)).toBe(true);
    expect(totpRequiredFor(ROLES.user, true)).toBe(false);
    expect(totpRequiredFor(ROLES.admin, false)).toBe(false);
  });
});

describe('readable passwords', () => {
  it('are 12 characters of the unambiguous alphabet and differ', () => {
    let seed = 1;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed >> 8) & 255;
    };
    const bytes = (n: number) => Uint8Array.from({ length: n }, next);
    const a = readablePassword(bytes);
    expect(a).toHaveLength(12);
    for (const ch of a) expect(READABLE_PASSWORD_ALPHABET).toContain(ch);
    expect(readablePassword(bytes)).not.toBe(a);
    for (const ch of '0O1lI') expect(READABLE_PASSWORD_ALPHABET).not.toContain(ch);
  });
});
