// Hierarchy checks: a caller reaches itself and everything below it in the user tree; admin reaches all.
import type { SessionUser } from './session.ts';

const ADMIN_ROLE = 1;

export function reachesPath(caller: Pick<SessionUser, 'role' | 'path'>, targetPath: string): boolean {
  if (caller.role === ADMIN_ROLE) return true;
  return caller.path !== '' && targetPath.startsWith(caller.path);
}
