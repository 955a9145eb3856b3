// Done-when of issue 16: no spec route of the customer site leads to /notFound for a role that holds its
// permission. For every role in every environment (agents also with every grantable permission), every /index
// route the navigation guard lets through must reach a screen of the web's route table: a page, the 404
// screen, or a group that goes on to a page the role may open — never the catch-all that sends to /notFound.
import {
  type Environment,
  GRANTABLE_PERMISSIONS,
  guardDecision,
  permissionsFor,
  ROLES,
  ROUTES,
  type RoleId,
  withGrants,
} from '@carhere/domain';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';

const ENVIRONMENTS: readonly Environment[] = ['live', 'test', 'local'];
const ROLE_IDS = Object.values(ROLES) as RoleId[];

import { groupTarget, INDEX_GROUPS } from './groups.ts';
import { indexChildRoutes } from './indexRoutes.tsx';

const tree: RouteObject[] = [{ path: '/index', children: indexChildRoutes((page) => page, null) }];

/** The path pattern of the deepest route react-router picks for `path`. */
function servedBy(path: string): string | undefined {
  const matches = matchRoutes(tree, path);
  return matches?.at(-1)?.route.path;
}

const INDEX_ROUTES = ROUTES.filter((r) => r.path.startsWith('/index/'));

const cases = ROLE_IDS.flatMap((role) =>
  ENVIRONMENTS.map((env) => ({
    role,
    env,
    permissions: withGrants(permissionsFor(role, env), role, [...GRANTABLE_PERMISSIONS]) as string[],
  })),
);

describe('every /index route for each role', () => {
  it('the check can fail: an unknown path falls to the catch-all', () => {
    expect(servedBy('/index/noSuchScreen')).toBe('*');
    expect(servedBy('/index/count/countMileage')).toBe('count/countMileage');
  });

  it.each(cases)('role $role ($env): each route the guard allows reaches a screen', ({ role, permissions }) => {
    const user = { role };
    let allowed = 0;
    for (const route of INDEX_ROUTES) {
      if (guardDecision({ path: route.path, user, permissions }) !== 'allow') continue;
      allowed++;
      const pattern = servedBy(route.path);
      expect(pattern, `${route.path} falls through to /notFound for role ${role}`).not.toBe('*');
      if (INDEX_GROUPS.includes(route.path)) {
        const target = groupTarget(route.path, permissions);
        expect(target, `group ${route.path} has no screen for role ${role}`).toBeDefined();
        expect(guardDecision({ path: target ?? '', user, permissions })).toBe('allow');
        expect(servedBy(target ?? '')).not.toBe('*');
      }
    }
    // Every role reaches at least the help screens, the 404 screen and "my account".
    expect(allowed).toBeGreaterThanOrEqual(5);
  });

  it('the administrator may open every /index route, and each reaches a screen', () => {
    for (const route of INDEX_ROUTES) {
      expect(guardDecision({ path: route.path, user: { role: 1 }, permissions: ['*:*:*'] }), route.path).toBe('allow');
      expect(servedBy(route.path), route.path).not.toBe('*');
    }
  });
});
