// Role → permission decisions for the server. The rules themselves live in @carhere/domain (spec §6):
// the same tables decide what the web shows and what the server allows.
import { hasPermission, permissionsFor, withGrants } from '@carhere/domain';
import type { AppEnv } from '../config.ts';

/** Permissions of a role in an environment (admin: '*:*:*'; unknown roles: none). */
export function permissionsOf(role: number, env: AppEnv, grants?: readonly string[] | null): string[] {
  return withGrants(permissionsFor(role, env), role, grants);
}

/** True when no permission is needed, or '*:*:*' or one of the needed permissions is held. */
export function holdsPermission(held: readonly string[], needed: readonly string[]): boolean {
  if (needed.length === 0) return true;
  return hasPermission(held, needed);
}
