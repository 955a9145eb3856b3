// The factory back office's menu, breadcrumb and screen lookup, all read from @carhere/domain's route table
// (spec §2 /test children, spec §6 permissions), so the shell shows exactly what the server allows.
import { findRoute, menuRoutes, type RouteDef, routeChain } from '@carhere/domain';

export const FACTORY_ROOT = '/test';

/** i18n key (namespace factory) of a /test route's label: /test/log/search → factory:menu.log_search. */
export function factoryLabelKey(path: string): string {
  return `factory:menu.${path.slice(FACTORY_ROOT.length + 1).replaceAll('/', '_')}`;
}

export interface FactoryMenuNode {
  readonly path: string;
  readonly labelKey: string;
  readonly children: FactoryMenuNode[];
}

/** The menu tree (groups with their screens) that someone holding `permissions` may open, in spec order. */
export function factoryMenu(permissions: readonly string[]): FactoryMenuNode[] {
  const routes = menuRoutes(permissions, 'factory');
  const byParent = new Map<string, RouteDef[]>();
  for (const r of routes) {
    const list = byParent.get(r.parent ?? '') ?? [];
    list.push(r);
    byParent.set(r.parent ?? '', list);
  }
  const build = (parent: string): FactoryMenuNode[] =>
    (byParent.get(parent) ?? []).map((r) => ({
      path: r.path,
      labelKey: factoryLabelKey(r.path),
      children: build(r.path),
    }));
  // A group is only useful with at least one screen inside.
  const prune = (nodes: FactoryMenuNode[]): FactoryMenuNode[] =>
    nodes
      .map((n) => ({ ...n, children: prune(n.children) }))
      .filter((n) => n.children.length > 0 || !hasChildScreens(n.path));
  return prune(build(FACTORY_ROOT));
}

const GROUPS = new Set(
  menuRoutes(['*:*:*'], 'factory')
    .map((r) => r.parent)
    .filter((p): p is string => p !== undefined && p !== FACTORY_ROOT),
);

/** True for a /test route that is a menu group (it has screens below it). */
export function hasChildScreens(path: string): boolean {
  return GROUPS.has(path);
}

/** The screens (leaves) of the menu, flattened, in menu order. */
export function factoryScreens(permissions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (nodes: FactoryMenuNode[]) => {
    for (const n of nodes) {
      if (n.children.length === 0) out.push(n.path);
      walk(n.children);
    }
  };
  walk(factoryMenu(permissions));
  return out;
}

/** Breadcrumb of a /test path: its route chain below /test (empty for an unknown path). */
export function factoryBreadcrumb(path: string): { path: string; labelKey: string }[] {
  const route = findRoute(path);
  if (route?.area !== 'factory') return [];
  return routeChain(route)
    .filter((r) => r.path.startsWith(`${FACTORY_ROOT}/`))
    .map((r) => ({ path: r.path, labelKey: factoryLabelKey(r.path) }));
}

/** Every /test route below the root (groups and screens), for catalogues and tests. */
export function allFactoryPaths(): string[] {
  return menuRoutes(['*:*:*'], 'factory').map((r) => r.path);
}
