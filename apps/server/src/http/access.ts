// Role → permission decisions for the server. The rules themselves live in @carhere/domain.
import type { AppEnv } from '../config.ts';

const ADMIN = 1;

/** Permissions of a role in an environment. */
export function permissionsOf(role: number, _env: AppEnv): string[] {
  if (role === ADMIN) return ['*:*:*'];
  return [];
}

export function holdsPermission(held: string[], needed: string[]): boolean {
  if (needed.length === 0) return true;
  return held.includes('*:*:*') || needed.some((p) => held.includes(p));
}
