// Reads of the user tree: subtrees, children, searches, and the per-account device counts of the lists.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { pathIds, subtreePattern, type UserRow, userColumns } from '../agent/scope.ts';
import { presentUserRow, type UserCounts, type UserListRow } from './presenter.ts';

/** Settings key: { [username]: deviceCount } shown instead of the counted number (spec §3's special users). */
export const DEVICE_COUNT_OVERRIDES = 'device_count_overrides';

/** Every account in the subtree of `path` (the root included), parents before children. */
export async function subtreeUsers(ctx: AppContext, path: string, roles?: readonly number[]): Promise<UserRow[]> {
  let q = ctx.db.selectFrom('users').select(userColumns).where('path', 'like', subtreePattern(path));
  if (roles && roles.length > 0) q = q.where('role', 'in', roles);
  return q.orderBy('path').execute();
}

export async function childUsers(ctx: AppContext, parentId: string): Promise<UserRow[]> {
  return ctx.db.selectFrom('users').select(userColumns).where('parent_id', '=', parentId).orderBy('id').execute();
}

/**
 * Device counts for list rows: devices owned, devices in the whole subtree, direct children. One grouped
 * count over the subtree of `rootPath`, rolled up along each account's path.
 */
export async function countsForSubtree(ctx: AppContext, rootPath: string): Promise<Map<string, UserCounts>> {
  const pattern = subtreePattern(rootPath);
  const [owned, users] = await Promise.all([
    ctx.db
      .selectFrom('devices as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['u.id', 'u.path', sql<number>`count(*)::int`.as('n')])
      .where('u.path', 'like', pattern)
      .groupBy(['u.id', 'u.path'])
      .execute(),
    ctx.db.selectFrom('users').select(['id', 'parent_id']).where('path', 'like', pattern).execute(),
  ]);
  const counts = new Map<string, UserCounts>();
  const entry = (id: string) => {
    let c = counts.get(id);
    if (!c) {
      c = { deviceNum: 0, totalDeviceNum: 0, childCount: 0 };
      counts.set(id, c);
    }
    return c;
  };
  for (const u of users) {
    entry(u.id);
    if (u.parent_id) entry(u.parent_id).childCount++;
  }
  const rootDepth = pathIds(rootPath).length;
  for (const row of owned) {
    entry(row.id).deviceNum = row.n;
    const ids = pathIds(row.path);
    for (let i = rootDepth - 1; i < ids.length; i++) entry(ids[i]).totalDeviceNum += row.n;
  }
  return counts;
}

export async function deviceCountOverrides(ctx: AppContext): Promise<Record<string, number>> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', DEVICE_COUNT_OVERRIDES)
    .executeTakeFirst();
  const value = row?.value;
  if (!value || typeof value !== 'object') return {};
  const out: Record<string, number> = {};
  for (const [name, n] of Object.entries(value as Record<string, unknown>)) {
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) out[name] = n;
  }
  return out;
}

/** List rows for accounts that all lie in the subtree of `countRootPath`. */
export async function presentRows(ctx: AppContext, rows: UserRow[], countRootPath: string): Promise<UserListRow[]> {
  if (rows.length === 0) return [];
  const [counts, overrides] = await Promise.all([countsForSubtree(ctx, countRootPath), deviceCountOverrides(ctx)]);
  return rows.map((u) => {
    const c = counts.get(u.id) ?? { deviceNum: 0, totalDeviceNum: 0, childCount: 0 };
    const override = overrides[u.username];
    return presentUserRow(u, override === undefined ? c : { ...c, deviceNum: override });
  });
}

/** Accounts in the subtree whose username, nickname or telephone contains the text (case-insensitive). */
export async function searchSubtree(ctx: AppContext, path: string, text: string, limit: number): Promise<UserRow[]> {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return ctx.db
    .selectFrom('users')
    .select(userColumns)
    .where('path', 'like', subtreePattern(path))
    .where((eb) => eb.or([eb('username', 'ilike', like), eb('nickname', 'ilike', like), eb('telephone', 'like', like)]))
    .orderBy('path')
    .limit(limit)
    .execute();
}

/** True when an account with this name exists (names are unique without regard to case). */
export async function usernameTaken(ctx: AppContext, username: string, exceptId?: string): Promise<boolean> {
  let q = ctx.db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.trim().toLowerCase()));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}
