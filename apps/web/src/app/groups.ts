// Groups of the customer site's route table (/index/count, /index/device, /index/help …): spec routes with
// screens below them but none of their own. Opening one goes on to its first screen the user may open.
import { canAccessRoute, ROUTES } from '@carhere/domain';
import { featureRoutes } from './routes.tsx';

const served = new Set(featureRoutes.map((r) => `/index/${r.path}`));

/** /index groups: routes of the domain's table that are some route's parent, below /index. */
export const INDEX_GROUPS: readonly string[] = [
  ...new Set(ROUTES.map((r) => r.parent).filter((p): p is string => !!p && p.startsWith('/index/'))),
];

/** The first screen of `group`, in menu order, that the web serves and `permissions` open; undefined if none. */
export function groupTarget(group: string, permissions: readonly string[]): string | undefined {
  return ROUTES.find((r) => r.parent === group && served.has(r.path) && canAccessRoute(r.path, permissions))?.path;
}
