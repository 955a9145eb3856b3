// Alarm reads and writes, always within the caller's subtree.
import { alarmLabel, type CoordSystem, displayName, wgsTo } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { type Caller, ownedBy, withinSubtree } from '../location/devices.ts';

export interface AlarmFilters {
  terminalID?: string;
  deviceIds?: string[];
  startTime?: number;
  endTime?: number;
  type?: number;
  read?: boolean;
}

export const alarmSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  alarmType: z.number(),
  /** The alarm type's name in the caller's language. */
  alarmName: z.string(),
  /** The protocol's name for a device alarm, or the derived alarm's name. */
  name: z.string(),
  source: z.string(),
  time: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  address: z.string().nullable(),
});
export type Alarm = z.infer<typeof alarmSchema>;

/** Alarms joined to their devices and owners, filtered; `owner` narrows to one user's (sub)tree. */
export function alarmQuery(
  ctx: AppContext,
  caller: Caller,
  f: AlarmFilters,
  owner?: { id: string; path: string; children: boolean },
) {
  let q = ctx.db
    .selectFrom('alarms as a')
    .innerJoin('devices as d', 'd.id', 'a.device_id')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .where(withinSubtree(caller));
  if (owner) q = q.where(ownedBy(owner, owner.children));
  if (f.terminalID) q = q.where('d.terminal_id', '=', f.terminalID);
  if (f.deviceIds && f.deviceIds.length > 0) q = q.where('a.device_id', 'in', f.deviceIds);
  if (f.startTime !== undefined) q = q.where('a.time', '>=', new Date(f.startTime));
  if (f.endTime !== undefined) q = q.where('a.time', '<=', new Date(f.endTime));
  if (f.type !== undefined) q = q.where('a.type', '=', f.type);
  if (f.read !== undefined) q = q.where('a.read', '=', f.read);
  return q;
}

export async function findAlarms(
  ctx: AppContext,
  caller: Caller,
  f: AlarmFilters & { coordType?: CoordSystem },
  page: { pageNum: number; pageSize: number },
  lang: string,
  owner?: { id: string; path: string; children: boolean },
): Promise<{ total: number; list: Alarm[] }> {
  const q = alarmQuery(ctx, caller, f, owner);
  const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(alarmColumns)
    .orderBy('a.time', 'desc')
    .orderBy('a.id', 'desc')
    .limit(page.pageSize)
    .offset((page.pageNum - 1) * page.pageSize)
    .execute();
  const coordType = f.coordType ?? 'wgs84';
  return { total: Number(total.n), list: rows.map((r) => wgsTo(presentAlarm(r, lang), coordType)) };
}

export const alarmColumns = [
  'a.id',
  'a.device_id',
  'd.terminal_id',
  'd.nickname',
  'd.car_number',
  'a.type',
  'a.name',
  'a.source',
  'a.time',
  'a.lat',
  'a.lon',
  'a.speed',
  'a.course',
  'a.read',
  'a.read_at',
  'a.address',
] as const;

export interface AlarmRow {
  id: string;
  device_id: string;
  terminal_id: string;
  nickname: string;
  car_number: string;
  type: number;
  name: string;
  source: string;
  time: Date;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  read: boolean;
  read_at: Date | null;
  address: string | null;
}

export function presentAlarm(r: AlarmRow, lang: string): Alarm {
  return {
    id: String(r.id),
    deviceId: String(r.device_id),
    terminalID: r.terminal_id,
    displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
    alarmType: r.type,
    alarmName: alarmLabel(r.type, lang),
    name: r.name,
    source: r.source,
    time: r.time.toISOString(),
    lat: r.lat,
    lon: r.lon,
    speed: r.speed,
    course: r.course,
    read: r.read,
    readAt: r.read_at ? r.read_at.toISOString() : null,
    address: r.address,
  };
}

/** The alarm ids the caller may change; refuses the whole request if any is out of reach or missing. */
export async function reachableAlarmIds(ctx: AppContext, caller: Caller, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .selectFrom('alarms as a')
    .innerJoin('devices as d', 'd.id', 'a.device_id')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .where('a.id', 'in', unique)
    .where(withinSubtree(caller))
    .select('a.id')
    .execute();
  if (rows.length < unique.length) {
    if (caller.role !== 1) throw noPermission();
    throw notFound();
  }
  return unique;
}

export async function markRead(ctx: AppContext, caller: Caller, ids: string[], read: boolean): Promise<number> {
  const res = await ctx.db
    .updateTable('alarms')
    .set(read ? { read: true, read_at: sql`now()`, read_by: caller.id } : { read: false, read_at: null, read_by: null })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
