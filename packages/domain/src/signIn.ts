// What an account must do after signing in before it gets anything else (issue 12): change a password someone
// else set (reset, import, sale), then enrol in two-factor sign-in when the administrator requires it.
import { ROLES } from './roles.ts';

export type SignInRestriction = 'changePassword' | 'enrolTotp';

/** Roles the "require two-factor sign-in for administrators and agents" setting applies to. */
export const STAFF_ROLES: readonly number[] = [ROLES.admin, ROLES.agent, ROLES.superAgent];

export function totpRequiredFor(role: number, requireForStaff: boolean): boolean {
  return requireForStaff && STAFF_ROLES.includes(role);
}

export function signInRestriction(account: {
  role: number;
  mustChangePassword: boolean;
  totpEnabled: boolean;
  requireTotpForStaff: boolean;
}): SignInRestriction | null {
  if (account.mustChangePassword) return 'changePassword';
  if (!account.totpEnabled && totpRequiredFor(account.role, account.requireTotpForStaff)) return 'enrolTotp';
  return null;
}

/** Letters and digits of a generated password: no 0/O, 1/l/I and other look-alikes. */
export const READABLE_PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A readable password from random bytes (one byte per character; bytes beyond an even share are skipped). */
export function readablePassword(randomBytes: (n: number) => Uint8Array, length = 12): string {
  const a = READABLE_PASSWORD_ALPHABET;
  const limit = 256 - (256 % a.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += a[b % a.length];
    }
  }
  return out;
}
