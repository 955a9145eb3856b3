// The caller's reach in the user tree. Every read and write of the accounts area goes through these:
// a caller reaches itself and everything below it (admin reaches everyone). A target outside the reach
// answers "no permission", the same as a target that does not exist, so ids cannot be probed.
import { isAdmin, isAgent, ROLES } from '@carhere/domain';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';

export type Caller = Pick<SessionUser, 'id' | 'role' | 'path' | 'username'>;

export const userColumns = [
  'id',
  'username',
  'nickname',
  'role',
  'parent_id',
  'path',
  'telephone',
  'email',
  'address',
  'mark',
  'provider_name',
  'provider_linkman',
  'provider_telephone',
  'lang',
  'time_zone',
  'expire_at',
  'import_quota',
  'device_num',
  'sale_num',
  'created_at',
] as const;

export interface UserRow {
  id: string;
  username: string;
  nickname: string;
  role: number;
  parent_id: string | null;
  path: string;
  telephone: string;
  email: string;
  address: string;
  mark: string;
  provider_name: string;
  provider_linkman: string;
  provider_telephone: string;
  lang: string;
  time_zone: string;
  expire_at: Date | null;
  import_quota: number;
  device_num: number;
  sale_num: number;
  created_at: Date;
}

/** Admin (role 1) reaches every account. */
export function callerIsAdmin(caller: Pick<Caller, 'role'>): boolean {
  return caller.role === ROLES.admin;
}

/** The LIKE pattern of a subtree: '/1/5/' → '/1/5/%'. Paths hold only digits and slashes. */
export function subtreePattern(path: string): string {
  if (!/^(\/\d+)+\/$/.test(path)) throw new Error(`not a hierarchy path: ${path}`);
  return `${path}%`;
}

/** True when the caller may see or act on the account with this path (itself or below; admin: all). */
export function reaches(caller: Pick<Caller, 'role' | 'path'>, targetPath: string): boolean {
  if (callerIsAdmin(caller)) return true;
  return caller.path !== '' && targetPath.startsWith(caller.path);
}

export async function findUser(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

/** The account with this id if the caller reaches it; otherwise "no permission" (missing or outside). */
export async function loadReachableUser(ctx: AppContext, caller: Caller, id: string): Promise<UserRow> {
  const user = await findUser(ctx.db, id);
  if (!user) {
    if (callerIsAdmin(caller)) throw new ApiError(404, 'account.notFound', 404);
    throw noPermission();
  }
  if (!reaches(caller, user.path)) throw noPermission();
  return user;
}

/** An account strictly below the caller: management actions never target oneself or anyone above. */
export async function loadSubordinate(ctx: AppContext, caller: Caller, id: string): Promise<UserRow> {
  const user = await loadReachableUser(ctx, caller, id);
  if (user.id === caller.id) throw new ApiError(400, 'account.notSelf', 400);
  return user;
}

/** Roles an account may give to the accounts it creates or edits (spec §3, §6). */
export function assignableRoles(callerRole: number): number[] {
  if (isAdmin(callerRole)) return Object.values(ROLES);
  if (isAgent(callerRole)) return [ROLES.agent, ROLES.user, ROLES.superUser];
  return [];
}

/** Ids on the path, outermost first: '/1/5/12/' → ['1', '5', '12']. */
export function pathIds(path: string): string[] {
  return path.split('/').filter(Boolean);
}
