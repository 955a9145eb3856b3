// The daily roll-up (issue 13): per device and day (in the owning account's time zone) the figures of
// `summariseDay` plus alarm counts by code, stored in stat_daily. The ingest marks the devices whose fixes or
// alarms it stored (stat_dirty, with the span they touched); the roll-up job takes those marks and recomputes
// every day the span overlaps — late and out-of-order fixes recompute their own day the same way.
import {
  DEFAULT_SPEED_LIMIT_KMH,
  type DrivingFix,
  dayBounds,
  daysOverlapping,
  isValidTimeZone,
  STATISTICS_DEFAULT_ZONE,
  summariseDay,
  type TimeZone,
} from '@carhere/domain';
import type pg from 'pg';
import { rowTailSql, sqlZone } from './daily.ts';
import { loadFixes } from './fixes.ts';

/** Devices a roll-up round takes from stat_dirty. */
export const ROLLUP_ROUND = 100;

export interface DeviceStatInfo {
  id: string;
  zone: TimeZone;
  speedLimit: number;
}

export function zoneOf(timeZone: string | null | undefined): TimeZone {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : STATISTICS_DEFAULT_ZONE;
}

export async function deviceStatInfo(pool: pg.Pool, ids: string[]): Promise<Map<string, DeviceStatInfo>> {
  const res = await pool.query<{ id: string; time_zone: string | null; speed_limit: number }>(
    `SELECT d.id, u.time_zone, d.speed_limit FROM devices d LEFT JOIN users u ON u.id = d.user_id WHERE d.id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    res.rows.map((r) => [
      String(r.id),
      { id: String(r.id), zone: zoneOf(r.time_zone), speedLimit: r.speed_limit ?? DEFAULT_SPEED_LIMIT_KMH },
    ]),
  );
}

/** A column of the row being written, for its stored /stat/find text (daily.ts rowTailSql). */
const upsertColumn = (name: string) =>
  name === 'day' ? '(x.day::date)' : name === 'computed_at' ? 'now()' : `x.${name}`;

/** $1 device id, $2 the days as JSON, $3 the owner's zone. */
const UPSERT_DAY = `INSERT INTO stat_daily (device_id, day, mileage, mileage_source, run_seconds, stop_count, stop_seconds,
    engine_seconds, idle_seconds, max_speed, overspeed_count, alarm_count, alarms, fix_count, computed_at, row_json)
  SELECT $1, x.day::date, x.mileage, x.mileage_source, x.run_seconds, x.stop_count, x.stop_seconds, x.engine_seconds,
    x.idle_seconds, x.max_speed, x.overspeed_count, x.alarm_count, x.alarms, x.fix_count, now(),
    ${rowTailSql(upsertColumn, '$3::text')}
  FROM jsonb_to_recordset($2::jsonb) AS x(day text, mileage float8, mileage_source text, run_seconds int, stop_count int,
    stop_seconds int, engine_seconds int, idle_seconds int, max_speed real, overspeed_count int, alarm_count int,
    alarms jsonb, fix_count int)
  ON CONFLICT (device_id, day) DO UPDATE SET mileage = EXCLUDED.mileage, mileage_source = EXCLUDED.mileage_source,
    run_seconds = EXCLUDED.run_seconds, stop_count = EXCLUDED.stop_count, stop_seconds = EXCLUDED.stop_seconds,
    engine_seconds = EXCLUDED.engine_seconds, idle_seconds = EXCLUDED.idle_seconds, max_speed = EXCLUDED.max_speed,
    overspeed_count = EXCLUDED.overspeed_count, alarm_count = EXCLUDED.alarm_count, alarms = EXCLUDED.alarms,
    fix_count = EXCLUDED.fix_count, computed_at = now(), row_json = EXCLUDED.row_json`;

/** The daily rows of one device for the days overlapping [from, to], from its fixes and alarms. */
export async function computeDays(
  pool: pg.Pool,
  device: DeviceStatInfo,
  from: number,
  to: number,
): Promise<{ day: string; row: Record<string, unknown> | null }[]> {
  const days = daysOverlapping(from, to, device.zone);
  if (days.length === 0) return [];
  const start = dayBounds(days[0], device.zone).start;
  const end = dayBounds(days[days.length - 1], device.zone).end;
  const fixes = await loadFixes(pool, device.id, start, end);
  const alarms = await pool.query<{ type: number; t: number }>(
    `SELECT type, (extract(epoch FROM time) * 1000)::float8 AS t FROM alarms WHERE device_id = $1 AND time >= $2 AND time < $3`,
    [device.id, new Date(start), new Date(end)],
  );
  const out: { day: string; row: Record<string, unknown> | null }[] = [];
  let k = 0;
  for (const day of days) {
    const b = dayBounds(day, device.zone);
    const dayFixes: DrivingFix[] = [];
    while (k < fixes.length && fixes[k].time < b.start) k++;
    while (k < fixes.length && fixes[k].time < b.end) dayFixes.push(fixes[k++]);
    const counts: Record<string, number> = {};
    let alarmCount = 0;
    for (const a of alarms.rows) {
      if (a.t < b.start || a.t >= b.end) continue;
      counts[a.type] = (counts[a.type] ?? 0) + 1;
      alarmCount++;
    }
    if (dayFixes.length === 0 && alarmCount === 0) {
      out.push({ day, row: null });
      continue;
    }
    const s = summariseDay(dayFixes, { speedLimit: device.speedLimit });
    out.push({
      day,
      row: {
        day,
        mileage: s.mileage,
        mileage_source: s.mileageSource,
        run_seconds: s.runSeconds,
        stop_count: s.stopCount,
        stop_seconds: s.stopSeconds,
        engine_seconds: s.engineSeconds,
        idle_seconds: s.idleSeconds,
        max_speed: s.maxSpeed,
        overspeed_count: s.overspeedCount,
        alarm_count: alarmCount,
        alarms: counts,
        fix_count: dayFixes.length,
      },
    });
  }
  return out;
}

/** Recomputes and stores the daily rows of one device for the days overlapping [from, to]. */
export async function rollupDevice(pool: pg.Pool, device: DeviceStatInfo, from: number, to: number): Promise<number> {
  const days = await computeDays(pool, device, from, to);
  const rows = days.flatMap((d) => (d.row ? [d.row] : []));
  const empty = days.filter((d) => !d.row).map((d) => d.day);
  if (rows.length > 0) await pool.query(UPSERT_DAY, [device.id, JSON.stringify(rows), sqlZone(device.zone)]);
  if (empty.length > 0) {
    await pool.query('DELETE FROM stat_daily WHERE device_id = $1 AND day = ANY($2::date[])', [device.id, empty]);
  }
  return rows.length;
}

export interface RollupResult {
  devices: number;
  days: number;
  /** Marks younger than the delay, left for a later run. */
  waiting: number;
}

/**
 * Takes the marks of stat_dirty at least `delaySeconds` old, round by round, and recomputes their days. A mark
 * is removed in the same statement that takes it (`FOR UPDATE SKIP LOCKED`: two processes never take the same
 * device); if the recompute fails the span is marked again.
 */
export async function runRollup(
  pool: pg.Pool,
  opts: { delaySeconds?: number; onProgress?: (done: number) => Promise<void> | void } = {},
): Promise<RollupResult> {
  const result: RollupResult = { devices: 0, days: 0, waiting: 0 };
  for (;;) {
    const taken = await pool.query<{ device_id: string; f: number; t: number }>(
      `DELETE FROM stat_dirty WHERE device_id IN (
         SELECT device_id FROM stat_dirty WHERE marked_at <= now() - make_interval(secs => $1)
         ORDER BY device_id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING device_id, (extract(epoch FROM from_time) * 1000)::float8 AS f, (extract(epoch FROM to_time) * 1000)::float8 AS t`,
      [opts.delaySeconds ?? 0, ROLLUP_ROUND],
    );
    if (taken.rows.length === 0) break;
    const info = await deviceStatInfo(
      pool,
      taken.rows.map((r) => String(r.device_id)),
    );
    for (const mark of taken.rows) {
      const device = info.get(String(mark.device_id));
      if (!device) continue; // deleted since
      try {
        result.days += await rollupDevice(pool, device, mark.f, mark.t);
        result.devices++;
      } catch (err) {
        await pool.query(
          `INSERT INTO stat_dirty (device_id, from_time, to_time) VALUES ($1, to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0))
           ON CONFLICT (device_id) DO UPDATE SET from_time = LEAST(stat_dirty.from_time, EXCLUDED.from_time),
             to_time = GREATEST(stat_dirty.to_time, EXCLUDED.to_time)`,
          [mark.device_id, mark.f, mark.t],
        );
        throw err;
      }
    }
    await opts.onProgress?.(result.devices);
    if (taken.rows.length < ROLLUP_ROUND) break;
  }
  const left = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM stat_dirty');
  result.waiting = left.rows[0].n;
  return result;
}

/**
 * Marks every device with fixes or alarms in [from, to] (all time when absent) dirty over that span, for
 * `carhere stats rebuild`. Returns how many devices were marked.
 */
export async function markForRebuild(pool: pg.Pool, from?: number, to?: number): Promise<number> {
  const lo = from === undefined ? null : new Date(from);
  const hi = to === undefined ? null : new Date(to);
  const res = await pool.query(
    `INSERT INTO stat_dirty (device_id, from_time, to_time, marked_at)
     SELECT device_id, min(time), max(time), now() - interval '1 day' FROM (
       SELECT device_id, time FROM positions WHERE ($1::timestamptz IS NULL OR time >= $1) AND ($2::timestamptz IS NULL OR time <= $2)
       UNION ALL
       SELECT device_id, time FROM alarms WHERE ($1::timestamptz IS NULL OR time >= $1) AND ($2::timestamptz IS NULL OR time <= $2)
     ) x WHERE EXISTS (SELECT 1 FROM devices d WHERE d.id = x.device_id) GROUP BY device_id
     ON CONFLICT (device_id) DO UPDATE SET from_time = LEAST(stat_dirty.from_time, EXCLUDED.from_time),
       to_time = GREATEST(stat_dirty.to_time, EXCLUDED.to_time), marked_at = EXCLUDED.marked_at`,
    [lo, hi],
  );
  return res.rowCount ?? 0;
}
