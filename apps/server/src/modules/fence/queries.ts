// Database reads and writes of fences, each limited to what the caller reaches in the hierarchy.
import { displayName } from '@carhere/domain';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { FencesTable } from '../../db/tables/web.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { SessionUser } from '../../http/session.ts';
import { localizedError } from './localized.ts';
import type { FenceDto } from './schema.ts';
import { FENCE_TEXTS } from './texts.ts';

type Caller = Pick<SessionUser, 'id' | 'role' | 'path'>;

export interface FenceRow {
  id: string;
  user_id: string;
  name: string;
  shape: FencesTable['shape'];
  lat: number | null;
  lon: number | null;
  radius: number | null;
  min_lat: number | null;
  min_lon: number | null;
  max_lat: number | null;
  max_lon: number | null;
  points: [number, number][] | null;
  alarm_type: FencesTable['alarm_type'];
  state: 'opened' | 'closed';
  created_at: Date;
  updated_at: Date;
  owner_path: string;
  owner_role: number;
  owner_username: string;
}

export interface DeviceRef {
  id: string;
  terminal_id: string;
  nickname: string;
  car_number: string;
  owner_path: string | null;
}

/** Escapes LIKE wildcards so a searched name matches literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function fenceQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('fences as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select([
      'f.id',
      'f.user_id',
      'f.name',
      'f.shape',
      'f.lat',
      'f.lon',
      'f.radius',
      'f.min_lat',
      'f.min_lon',
      'f.max_lat',
      'f.max_lon',
      'f.points',
      'f.alarm_type',
      'f.state',
      'f.created_at',
      'f.updated_at',
      'u.path as owner_path',
      'u.role as owner_role',
      'u.username as owner_username',
    ]);
}

/** The fence, or 404 when it does not exist, 403 when it lies outside the caller's hierarchy. */
export async function loadReachableFence(ctx: AppContext, req: FastifyRequest, id: string): Promise<FenceRow> {
  const row = await fenceQuery(ctx).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw localizedError(req, FENCE_TEXTS, 'notFound', 404);
  if (!reachesPath(caller(req), row.owner_path)) throw localizedError(req, FENCE_TEXTS, 'permission.denied', 403);
  return row;
}

export function caller(req: FastifyRequest): Caller {
  const user = req.user;
  if (!user) throw new Error('caller() on a route without a session');
  return user;
}

/** The owner for a new fence: the caller, or a user inside the caller's hierarchy. */
export async function loadOwner(
  ctx: AppContext,
  req: FastifyRequest,
  userId: string | undefined,
): Promise<{ id: string; path: string; role: number; username: string }> {
  const me = caller(req);
  const id = userId ?? me.id;
  const row = await ctx.db
    .selectFrom('users')
    .select(['id', 'path', 'role', 'username'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw localizedError(req, FENCE_TEXTS, 'ownerNotReachable', 404);
  if (!reachesPath(me, row.path)) throw localizedError(req, FENCE_TEXTS, 'permission.denied', 403);
  return row;
}

export async function deviceCounts(ctx: AppContext, fenceIds: string[]): Promise<Map<string, number>> {
  if (fenceIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('fence_devices')
    .select(['fence_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('fence_id', 'in', fenceIds)
    .groupBy('fence_id')
    .execute();
  return new Map(rows.map((r) => [r.fence_id, Number(r.n)]));
}

export function presentFence(row: FenceRow, deviceCount: number): FenceDto {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.owner_username,
    name: row.name,
    shape: row.shape,
    lat: row.lat,
    lon: row.lon,
    radius: row.radius,
    minLat: row.min_lat,
    minLon: row.min_lon,
    maxLat: row.max_lat,
    maxLon: row.max_lon,
    points: row.shape === 'polygon' ? row.points : null,
    alarmType: row.alarm_type,
    state: row.state,
    deviceCount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function presentFences(ctx: AppContext, rows: FenceRow[]): Promise<FenceDto[]> {
  const counts = await deviceCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentFence(r, counts.get(r.id) ?? 0));
}

/**
 * Devices by IMEI or id that the fence owner reaches (and so the caller, who reaches the owner).
 * Any device that does not exist or lies outside the owner's hierarchy refuses the whole call.
 */
export async function resolveDevices(
  ctx: AppContext,
  req: FastifyRequest,
  owner: { role: number; path: string },
  terminalIDs: readonly string[] = [],
  deviceIds: readonly string[] = [],
): Promise<DeviceRef[]> {
  const wantedImeis = [...new Set(terminalIDs)];
  const wantedIds = [...new Set(deviceIds)];
  if (wantedImeis.length + wantedIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number', 'u.path as owner_path'])
    .where((eb) =>
      eb.or([
        ...(wantedImeis.length > 0 ? [eb('d.terminal_id', 'in', wantedImeis)] : []),
        ...(wantedIds.length > 0 ? [eb('d.id', 'in', wantedIds)] : []),
      ]),
    )
    .execute();
  const byImei = new Map(rows.map((r) => [r.terminal_id, r]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const found: DeviceRef[] = [];
  for (const imei of wantedImeis) {
    const row = byImei.get(imei);
    if (!row || !reachesPath(owner, row.owner_path ?? '')) {
      throw localizedError(req, FENCE_TEXTS, 'deviceNotReachable', 403, { terminalID: imei });
    }
    found.push(row);
  }
  for (const id of wantedIds) {
    const row = byId.get(id);
    if (!row || !reachesPath(owner, row.owner_path ?? '')) {
      throw localizedError(req, FENCE_TEXTS, 'deviceNotReachable', 403, { terminalID: id });
    }
    found.push(row);
  }
  return [...new Map(found.map((d) => [d.id, d])).values()];
}

export async function linkDevices(ctx: AppContext, fenceId: string, devices: DeviceRef[]): Promise<number> {
  if (devices.length === 0) return 0;
  const inserted = await ctx.db
    .insertInto('fence_devices')
    .values(devices.map((d) => ({ fence_id: fenceId, device_id: d.id, inside: null, changed_at: null })))
    .onConflict((oc) => oc.columns(['fence_id', 'device_id']).doNothing())
    .returning('device_id')
    .execute();
  return inserted.length;
}

export async function linkedDevicesPage(ctx: AppContext, fenceId: string, pageNum: number, pageSize: number) {
  const base = ctx.db
    .selectFrom('fence_devices as fd')
    .innerJoin('devices as d', 'd.id', 'fd.device_id')
    .where('fd.fence_id', '=', fenceId);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number', 'fd.inside', 'fd.changed_at', 'fd.created_at'])
    .orderBy('d.terminal_id')
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize)
    .execute();
  return {
    total: Number(total.n),
    list: rows.map((r) => ({
      deviceId: r.id,
      terminalID: r.terminal_id,
      displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
      inside: r.inside,
      changedAt: r.changed_at ? r.changed_at.toISOString() : null,
      linkedAt: r.created_at.toISOString(),
    })),
  };
}

/** Subtree filter on the fence owner's path (admin: no filter). */
export function ownerInSubtree(me: Caller) {
  return me.role === 1
    ? sql<boolean>`true`
    : sql<boolean>`u.path LIKE ${`${me.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
}
