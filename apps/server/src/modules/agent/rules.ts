// Turning the domain's rule results into API errors, and the few account checks that need the database.
import type { RuleResult } from '@carhere/domain';
import { ApiError } from '../../http/errors.ts';

/** Throws the refusal's message (translated by the error handler) when a domain rule says no. */
export function enforce(result: RuleResult, status = 400): void {
  if (!result.ok) throw new ApiError(status, result.message, status, { ...(result.params ?? {}) });
}

/** Shortest password accepted for a new or changed password. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 64;

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new ApiError(400, 'account.passwordTooShort', 400, { min: PASSWORD_MIN_LENGTH });
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new ApiError(400, 'validation.maxLength', 400, { max: PASSWORD_MAX_LENGTH });
  }
}

/** Usernames: 2 to 50 visible characters without spaces (letters, digits, '_', '-', '.', '@', CJK). */
const USERNAME = /^[\p{L}\p{N}_.@-]{2,50}$/u;

export function normalizeUsername(value: string): string {
  const name = value.trim();
  if (!USERNAME.test(name)) throw new ApiError(400, 'account.usernameInvalid', 400);
  return name;
}

/** Postgres error codes the accounts area turns into clear answers. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}
