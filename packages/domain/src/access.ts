import { type Environment, type PermissionGrant, permissionsFor } from './permissions.ts';
import { type RoleId, type RoleName, type RootArea, roleName, roleRootArea, toRoleId } from './roles.ts';
import { homePath } from './routes.ts';

/** Everything the server and the web need to know about one role in one environment. */
export interface RoleProfile {
  readonly id: RoleId;
  readonly name: RoleName;
  readonly rootArea: RootArea;
  readonly permissions: readonly PermissionGrant[];
  /** Undefined when the role has no home page (superAgent). */
  readonly homePath: string | undefined;
}

/** Profile of a role (by number or name) in an environment; undefined for an unknown role. */
export function roleProfile(role: RoleId | RoleName | number, env: Environment): RoleProfile | undefined {
  const id = toRoleId(role);
  const name = roleName(id);
  if (id === undefined || name === undefined) return undefined;
  const permissions = permissionsFor(id, env);
  const rootArea = roleRootArea(id);
  return { id, name, rootArea, permissions, homePath: homePath(permissions, rootArea) };
}

/** Home page of a role (spec §6): admin and customer roles /index/home, factory roles their first screen. */
export function roleHomePath(role: RoleId | RoleName | number, env: Environment): string | undefined {
  return roleProfile(role, env)?.homePath;
}
