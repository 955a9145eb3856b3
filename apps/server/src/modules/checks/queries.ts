// Vehicle-check reads: fixes of a time window inside a box, through the (cell, time) index, limited to the
// devices of one account's subtree. Callers check the hierarchy (reachableUserPath) before calling.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { type Box, cellRanges, positionCellSql } from './grid.ts';

export interface WindowFix {
  device_id: string;
  time: Date;
  lat: number;
  lon: number;
}

/** Most fixes one check reads; a busier place answers with the first ones and says it was cut. */
export const MAX_FIXES = 200_000;

/**
 * Valid fixes of devices under `ownerPath` inside the box during [start, end], through the grid index: one
 * index range per latitude band of the box (cells of a band are consecutive numbers), each for the window.
 */
export async function fixesInBox(
  ctx: AppContext,
  ownerPath: string,
  box: Box,
  start: Date,
  end: Date,
): Promise<{ rows: WindowFix[]; cut: boolean }> {
  const { lo, hi } = cellRanges(box);
  // The grid ranges first (materialized, so the planner cannot start from the subtree's devices and read each
  // one's whole day), then the subtree filter on the few fixes found.
  const res = await sql<WindowFix>`
    WITH f AS MATERIALIZED (
      SELECT p.device_id, p.time, p.lat, p.lon
        FROM unnest(${lo}::integer[], ${hi}::integer[]) AS r(lo, hi)
        JOIN positions p ON ${sql.raw(positionCellSql('p'))} BETWEEN r.lo AND r.hi
       WHERE p.time >= ${start} AND p.time <= ${end}
         AND p.valid
         AND p.lat BETWEEN ${box.minLat} AND ${box.maxLat}
         AND p.lon BETWEEN ${box.minLon} AND ${box.maxLon}
    )
    SELECT f.device_id, f.time, f.lat, f.lon
      FROM f
      JOIN devices d ON d.id = f.device_id
      JOIN users u ON u.id = d.user_id
     WHERE u.path LIKE ${`${ownerPath}%`}
     LIMIT ${MAX_FIXES + 1}`.execute(ctx.db);
  const rows = res.rows.map((r) => ({ ...r, device_id: String(r.device_id) }));
  const cut = rows.length > MAX_FIXES;
  return { rows: cut ? rows.slice(0, MAX_FIXES) : rows, cut };
}

/** The same answer without the grid index: every fix of the window, filtered by the box (the baseline). */
export async function fixesInBoxByScan(
  ctx: AppContext,
  ownerPath: string,
  box: Box,
  start: Date,
  end: Date,
): Promise<WindowFix[]> {
  const res = await sql<WindowFix>`
    SELECT p.device_id, p.time, p.lat, p.lon
      FROM positions p
     WHERE p.time >= ${start} AND p.time <= ${end}
       AND p.valid
       AND p.lat BETWEEN ${box.minLat} AND ${box.maxLat}
       AND p.lon BETWEEN ${box.minLon} AND ${box.maxLon}
       AND p.device_id IN (
         SELECT d.id FROM devices d JOIN users u ON u.id = d.user_id WHERE u.path LIKE ${`${ownerPath}%`}
       )`.execute(ctx.db);
  return res.rows;
}

export interface DeviceName {
  id: string;
  terminal_id: string;
  nickname: string;
  car_number: string;
}

export async function deviceNames(ctx: AppContext, ids: string[]): Promise<Map<string, DeviceName>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('devices')
    .select(['id', 'terminal_id', 'nickname', 'car_number'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [String(r.id), { ...r, id: String(r.id) }]));
}

/** Last known positions of the devices under `ownerPath` inside the box (the "now" of an area check). */
export async function devicesInBoxNow(ctx: AppContext, ownerPath: string, box: Box) {
  return ctx.db
    .selectFrom('devices as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .innerJoin('device_state as s', 's.device_id', 'd.id')
    .where('u.path', 'like', `${ownerPath}%`)
    .where('s.lat', '>=', box.minLat)
    .where('s.lat', '<=', box.maxLat)
    .where('s.lon', '>=', box.minLon)
    .where('s.lon', '<=', box.maxLon)
    .select(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number', 's.pos_time', 's.lat', 's.lon'])
    .orderBy('d.id')
    .limit(10_000)
    .execute();
}
