// The daily roll-up (issue 13): per device and day (in the owning account's time zone) the day's figures
// (packages/domain dayState.ts) plus alarm counts by code, stored in stat_daily with the day's running state.
// The ingest marks the devices whose fixes or alarms it stored (stat_dirty, with the span they touched); the
// roll-up job takes those marks and, for every day the span overlaps, advances the stored state with the
// fixes after its last fix — or, when a late or out-of-order fix landed at or before that fix, recomputes the
// day from all its fixes.
import {
  advanceDay,
  canAdvance,
  type DayState,
  DEFAULT_SPEED_LIMIT_KMH,
  type DrivingFix,
  dayBounds,
  dayStateOf,
  daySummaryOf,
  daysOverlapping,
  isValidTimeZone,
  STATISTICS_DEFAULT_ZONE,
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

/**
 * $1 the rows as JSON, each with its device, the owner's zone (as sqlZone gives it) and the day's running state:
 * the daily rows into stat_daily, the states into stat_running, one statement.
 */
const UPSERT_DAYS = `WITH x AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(device_id bigint, zone text, day text, mileage float8,
      mileage_source text, run_seconds int, stop_count int, stop_seconds int, engine_seconds int, idle_seconds int,
      max_speed real, overspeed_count int, alarm_count int, alarms jsonb, fix_count int, running jsonb)
  ), daily AS (
    INSERT INTO stat_daily (device_id, day, mileage, mileage_source, run_seconds, stop_count, stop_seconds,
      engine_seconds, idle_seconds, max_speed, overspeed_count, alarm_count, alarms, fix_count, computed_at, row_json)
    SELECT x.device_id, x.day::date, x.mileage, x.mileage_source, x.run_seconds, x.stop_count, x.stop_seconds,
      x.engine_seconds, x.idle_seconds, x.max_speed, x.overspeed_count, x.alarm_count, x.alarms, x.fix_count, now(),
      ${rowTailSql(upsertColumn, 'x.zone')}
    FROM x
    ON CONFLICT (device_id, day) DO UPDATE SET mileage = EXCLUDED.mileage, mileage_source = EXCLUDED.mileage_source,
      run_seconds = EXCLUDED.run_seconds, stop_count = EXCLUDED.stop_count, stop_seconds = EXCLUDED.stop_seconds,
      engine_seconds = EXCLUDED.engine_seconds, idle_seconds = EXCLUDED.idle_seconds, max_speed = EXCLUDED.max_speed,
      overspeed_count = EXCLUDED.overspeed_count, alarm_count = EXCLUDED.alarm_count, alarms = EXCLUDED.alarms,
      fix_count = EXCLUDED.fix_count, computed_at = now(), row_json = EXCLUDED.row_json
  )
  INSERT INTO stat_running (device_id, day, state) SELECT x.device_id, x.day::date, x.running FROM x
  ON CONFLICT (device_id, day) DO UPDATE SET state = EXCLUDED.state`;

/** The stored states of device-days: $1 device ids, $2 days (parallel). */
const STATES_SQL = `SELECT s.device_id::text, s.day::text, s.state
  FROM unnest($1::bigint[], $2::date[]) AS r(id, day) JOIN stat_running s ON s.device_id = r.id AND s.day = r.day`;

/** Fixes after each state's last fix: $1 device ids, $2 after (exclusive), $3 day ends; each row its r.k. */
const NEW_FIXES_SQL = `SELECT r.k::int, (extract(epoch FROM p.time) * 1000)::float8, p.lat, p.lon, p.speed, p.valid,
    p.location_type, p.acc, p.mileage
  FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS r(id, after, before, k)
  JOIN LATERAL (SELECT * FROM positions q WHERE q.device_id = r.id AND q.time > r.after AND q.time < r.before
    ORDER BY q.time) p ON true
  ORDER BY r.k`;

/** Alarm counts by code per device-day: $1 device ids, $2 day starts, $3 day ends; each row its r.k. */
const ALARM_COUNTS_SQL = `SELECT r.k::int, a.type, count(*)::int
  FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS r(id, lo, hi, k)
  JOIN alarms a ON a.device_id = r.id AND a.time >= r.lo AND a.time < r.hi
  GROUP BY r.k, a.type`;

type NewFixRow = [number, number, number, number, number, boolean, string | null, boolean | null, number | null];

/** One device-day a roll-up round computes: advanced from its stored state, or recomputed from all its fixes. */
interface DayWork {
  device: DeviceStatInfo;
  day: string;
  start: number;
  end: number;
  /** The stored state when the new fixes all come after its last fix; null: recompute the day. */
  state: DayState | null;
  fixes: DrivingFix[];
}

/** How a round's device-days were computed (RollupResult). */
interface RollupCounts {
  advanced: number;
  recomputed: number;
}

/**
 * Computes and stores the daily rows of the marked devices (each mark: the span its new fixes and alarms
 * touched). A day whose stored state ends before the span (fixes arriving in time order, the usual case) is
 * advanced with the fixes after its state's last fix; a day without state, or reached by a late or
 * out-of-order fix (one at or before the state's last fix), or whose device changed its speed limit, is
 * recomputed from all its fixes. Reads and writes are one statement each for the whole round, except the
 * recomputes, which read their fixes device by device.
 */
async function rollupMarks(
  pool: pg.Pool,
  marks: readonly { device: DeviceStatInfo; from: number; to: number }[],
  counts: RollupCounts = { advanced: 0, recomputed: 0 },
): Promise<number> {
  const work: DayWork[] = [];
  for (const m of marks) {
    for (const day of daysOverlapping(m.from, m.to, m.device.zone)) {
      const b = dayBounds(day, m.device.zone);
      work.push({ device: m.device, day, start: b.start, end: b.end, state: null, fixes: [] });
    }
  }
  if (work.length === 0) return 0;
  const key = (deviceId: string, day: string) => `${deviceId} ${day}`;
  const stored = await pool.query<[string, string, DayState]>({
    text: STATES_SQL,
    values: [work.map((w) => w.device.id), work.map((w) => w.day)],
    rowMode: 'array',
  });
  const states = new Map(stored.rows.map((r) => [key(r[0], r[1]), r[2]]));
  const markOf = new Map(marks.map((m) => [m.device.id, m]));
  for (const w of work) {
    const s = states.get(key(w.device.id, w.day));
    const firstNew = Math.max(markOf.get(w.device.id)?.from ?? w.start, w.start);
    if (s && canAdvance(s, { speedLimit: w.device.speedLimit }, firstNew)) w.state = s;
  }
  // Advanced days: the fixes after their state's last fix, for all of them at once.
  const advancing = work.filter((w) => w.state !== null);
  if (advancing.length > 0) {
    const res = await pool.query<NewFixRow>({
      text: NEW_FIXES_SQL,
      values: [
        advancing.map((w) => w.device.id),
        advancing.map((w) => new Date(w.state?.last?.time ?? w.start - 1)),
        advancing.map((w) => new Date(w.end)),
      ],
      rowMode: 'array',
    });
    for (const r of res.rows) {
      advancing[r[0] - 1].fixes.push({
        time: r[1],
        lat: r[2],
        lon: r[3],
        speed: r[4],
        valid: r[5],
        locationType: r[6],
        acc: r[7],
        odometer: r[8],
      });
    }
  }
  // Recomputed days: each device's fixes over its recomputed days (one read per device).
  const recomputing = new Map<string, DayWork[]>();
  for (const w of work) {
    if (w.state !== null) continue;
    const list = recomputing.get(w.device.id) ?? [];
    list.push(w);
    recomputing.set(w.device.id, list);
  }
  for (const [deviceId, list] of recomputing) {
    const fixes = await loadFixes(pool, deviceId, list[0].start, list[list.length - 1].end);
    let k = 0;
    for (const w of list) {
      while (k < fixes.length && fixes[k].time < w.start) k++;
      while (k < fixes.length && fixes[k].time < w.end) w.fixes.push(fixes[k++]);
    }
  }
  const alarms = await pool.query<[number, number, number]>({
    text: ALARM_COUNTS_SQL,
    values: [work.map((w) => w.device.id), work.map((w) => new Date(w.start)), work.map((w) => new Date(w.end))],
    rowMode: 'array',
  });
  const alarmCounts = new Map<number, Record<string, number>>();
  for (const [k, type, n] of alarms.rows) {
    const c = alarmCounts.get(k) ?? {};
    c[type] = n;
    alarmCounts.set(k, c);
  }
  const rows: Record<string, unknown>[] = [];
  const empty: DayWork[] = [];
  work.forEach((w, i) => {
    const counts_ = alarmCounts.get(i + 1) ?? {};
    let alarmCount = 0;
    for (const n of Object.values(counts_)) alarmCount += n;
    let state: DayState;
    if (w.state !== null) {
      state = advanceDay(w.state, w.fixes);
      counts.advanced++;
    } else {
      if (w.fixes.length === 0 && alarmCount === 0) {
        empty.push(w);
        return;
      }
      state = dayStateOf(w.fixes, { speedLimit: w.device.speedLimit });
      counts.recomputed++;
    }
    const s = daySummaryOf(state);
    rows.push({
      device_id: w.device.id,
      zone: sqlZone(w.device.zone),
      day: w.day,
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
      alarms: counts_,
      fix_count: state.fixCount,
      running: state,
    });
  });
  if (rows.length > 0) await pool.query(UPSERT_DAYS, [JSON.stringify(rows)]);
  if (empty.length > 0) {
    await pool.query(
      `WITH r AS (SELECT * FROM unnest($1::bigint[], $2::date[]) AS r(id, day)),
         running AS (DELETE FROM stat_running s USING r WHERE s.device_id = r.id AND s.day = r.day)
       DELETE FROM stat_daily s USING r WHERE s.device_id = r.id AND s.day = r.day`,
      [empty.map((w) => w.device.id), empty.map((w) => w.day)],
    );
  }
  return rows.length;
}

export interface RollupResult {
  devices: number;
  days: number;
  /** Days advanced from their stored state with the fixes after it. */
  advanced: number;
  /** Days recomputed from all their fixes (no state yet, or a late or out-of-order fix). */
  recomputed: number;
  /** Marks younger than the delay, left for a later run. */
  waiting: number;
}

/**
 * Days whose running state is kept (today and the days before, in any zone): fixes in time order keep coming
 * for these. An older day without its state is recomputed from its fixes when one arrives for it (as a late
 * fix would make it anyway), so stat_running stays a few rows per device instead of one per device-day.
 */
const RUNNING_STATE_DAYS = 3;
const PRUNE_EVERY_MS = 3_600_000;
let prunedAt = 0;

/** Drops the running states of days older than RUNNING_STATE_DAYS, at most once an hour per process. */
async function pruneStates(pool: pg.Pool): Promise<void> {
  if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
  prunedAt = Date.now();
  await pool.query('DELETE FROM stat_running WHERE day < current_date - $1::int', [RUNNING_STATE_DAYS]);
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
  const result: RollupResult = { devices: 0, days: 0, waiting: 0, advanced: 0, recomputed: 0 };
  await pruneStates(pool);
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
    const marks = taken.rows.flatMap((r) => {
      const device = info.get(String(r.device_id));
      return device ? [{ device, from: r.f, to: r.t }] : []; // a device deleted since has none
    });
    try {
      result.days += await rollupMarks(pool, marks, result);
      result.devices += marks.length;
    } catch (err) {
      // Marked again, so a later run takes them.
      await pool.query(
        `INSERT INTO stat_dirty (device_id, from_time, to_time)
         SELECT id, to_timestamp(f / 1000.0), to_timestamp(t / 1000.0) FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS x(id, f, t)
         ON CONFLICT (device_id) DO UPDATE SET from_time = LEAST(stat_dirty.from_time, EXCLUDED.from_time),
           to_time = GREATEST(stat_dirty.to_time, EXCLUDED.to_time)`,
        [taken.rows.map((r) => r.device_id), taken.rows.map((r) => r.f), taken.rows.map((r) => r.t)],
      );
      throw err;
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
