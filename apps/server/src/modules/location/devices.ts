// Devices as the gateway's API areas (location, track, alarms, commands, tire, battery) see them: looked up
// by terminalID or id, and always within the caller's subtree. A device outside it answers the same as a
// missing one for a non-admin (no permission), so its existence does not leak.
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { SessionUser } from '../../http/session.ts';

const ADMIN_ROLE = 1;

export type Caller = Pick<SessionUser, 'id' | 'role' | 'path'>;

export interface ReachableDevice {
  id: string;
  terminalId: string;
  userId: string | null;
  /** Owner's hierarchy path ('' without an owner). */
  path: string;
  protocol: number;
  deviceType: number;
  nbDeviceId: string | null;
  nickname: string;
  carNumber: string;
}

/** `devices as d` left-joined to `users as u`, restricted to the caller's subtree (admin: everything). */
export function withinSubtree(caller: Caller): RawBuilder<boolean> {
  return caller.role === ADMIN_ROLE ? sql<boolean>`true` : sql<boolean>`u.path LIKE ${`${caller.path}%`}`;
}

/** Devices owned by a user, or by anyone in its subtree with `children` (over `devices as d` / `users as u`). */
export function ownedBy(user: { id: string; path: string }, children: boolean): RawBuilder<boolean> {
  return children ? sql<boolean>`u.path LIKE ${`${user.path}%`}` : sql<boolean>`d.user_id = ${user.id}`;
}

export function devicesQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select([
      'd.id',
      'd.terminal_id',
      'd.user_id',
      'u.path',
      'd.protocol',
      'd.device_type',
      'd.nb_device_id',
      'd.nickname',
      'd.car_number',
    ]);
}

type Row = {
  id: string;
  terminal_id: string;
  user_id: string | null;
  path: string | null;
  protocol: number;
  device_type: number;
  nb_device_id: string | null;
  nickname: string;
  car_number: string;
};

function toDevice(r: Row): ReachableDevice {
  return {
    id: String(r.id),
    terminalId: r.terminal_id,
    userId: r.user_id === null ? null : String(r.user_id),
    path: r.path ?? '',
    protocol: r.protocol,
    deviceType: r.device_type,
    nbDeviceId: r.nb_device_id,
    nickname: r.nickname,
    carNumber: r.car_number,
  };
}

/** The devices named by terminal IDs, in the order asked; all must exist and be within reach. */
export async function devicesByTerminalIds(
  ctx: AppContext,
  caller: Caller,
  terminalIds: string[],
): Promise<ReachableDevice[]> {
  const unique = [...new Set(terminalIds)];
  if (unique.length === 0) return [];
  const rows = (await devicesQuery(ctx).where('d.terminal_id', 'in', unique).execute()).map(toDevice);
  const byTerminal = new Map(rows.map((d) => [d.terminalId, d]));
  return unique.map((t) => {
    const d = byTerminal.get(t);
    if (!d) throw caller.role === ADMIN_ROLE ? notFound() : noPermission();
    if (!reachesPath(caller, d.path)) throw noPermission();
    return d;
  });
}

export async function devicesByIds(ctx: AppContext, caller: Caller, ids: string[]): Promise<ReachableDevice[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = (await devicesQuery(ctx).where('d.id', 'in', unique).execute()).map(toDevice);
  const byId = new Map(rows.map((d) => [d.id, d]));
  return unique.map((id) => {
    const d = byId.get(id);
    if (!d) throw caller.role === ADMIN_ROLE ? notFound() : noPermission();
    if (!reachesPath(caller, d.path)) throw noPermission();
    return d;
  });
}

/** One device from `{terminalID}` or `{deviceId}`. */
export async function deviceByRef(
  ctx: AppContext,
  caller: Caller,
  ref: { terminalID?: string; deviceId?: string },
): Promise<ReachableDevice> {
  if (ref.terminalID) return (await devicesByTerminalIds(ctx, caller, [ref.terminalID]))[0];
  if (ref.deviceId) return (await devicesByIds(ctx, caller, [ref.deviceId]))[0];
  throw badRequest('invalidParam', { field: 'terminalID' });
}

/** A user inside the caller's subtree (the caller itself by default); returns its path. */
export async function reachableUserPath(
  ctx: AppContext,
  caller: Caller,
  userId: string | undefined,
): Promise<{ id: string; path: string }> {
  if (!userId || userId === caller.id) return { id: caller.id, path: caller.path };
  const user = await ctx.db.selectFrom('users').select(['id', 'path']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw caller.role === ADMIN_ROLE ? notFound() : noPermission();
  if (!reachesPath(caller, user.path)) throw noPermission();
  return { id: String(user.id), path: user.path };
}
