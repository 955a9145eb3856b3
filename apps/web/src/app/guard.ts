// The web's side of spec §2's navigation guard. The decision itself is @carhere/domain's, shared with the server.
import { canAccessRoute, guardDecision, homePath, roleRootArea } from '@carhere/domain';
import type { LoginData } from '../api/types.ts';
import { landingIsDashboard } from '../features/dashboard/landing.ts';

export function decide(pathname: string, auth: LoginData | null) {
  return guardDecision({ path: pathname, user: auth?.userInfo ?? null, permissions: auth?.permissions ?? [] });
}

/** Whether the side menu shows a route under /index. */
export function mayOpen(path: string, auth: LoginData | null): boolean {
  return canAccessRoute(path, auth?.permissions ?? []);
}

/** Page of a signed-in account that has no functions (spec §6 superAgent): says whom to ask. */
export const NO_FUNCTION_PATH = '/noFunction';

/** Where "home" is for this user (the role's root area and first screen it may open). */
export function homeOf(auth: LoginData | null): string {
  if (!auth) return '/login';
  // Users who chose the dashboard as their landing page (issue 17) get it when they may open it.
  if (landingIsDashboard() && canAccessRoute(DASHBOARD_PATH, auth.permissions)) return DASHBOARD_PATH;
  return homePath(auth.permissions, roleRootArea(auth.userInfo.role)) ?? NO_FUNCTION_PATH;
}

export const DASHBOARD_PATH = '/index/dashboard';
