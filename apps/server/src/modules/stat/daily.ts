// Reading the daily statistics rows (stat_daily) of selected devices over the days a range overlaps, in each
// device's own statistics zone. Statistics queries read these rows, never the positions.
import { dayBounds, daysOverlapping } from '@carhere/domain';
import type pg from 'pg';
import type { StatDevice } from './select.ts';

export type DailyRow = {
  /** Row id (spec §3): device id and day, `deviceId-YYYY-MM-DD`. */
  id: string;
  terminalID: string;
  displayName: string;
  /** 'YYYY-MM-DD' in the owning account's zone */
  statsticDate: string;
  statsticState: StatisticState;
  /** metres */
  mileage: number;
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  /** km/h */
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
};

export type DailyRecord = DailyRow & {
  deviceId: string;
  alarms: Record<string, number>;
};

/**
 * The daily rows of chosen devices, each over its own first and last day (devices of different zones have
 * different days), ordered in SQL by day then terminalID (code-unit order, as the domain's sumStatisticsPerDay
 * orders). stat_daily has one row per device and day (its primary key), so there is nothing to merge.
 * $1 device ids, $2 first days, $3 last days (parallel arrays), $4 offset, $5 limit.
 */
export const DAILY_SQL = `SELECT s.device_id::text, s.day::text, s.mileage, s.run_seconds, s.stop_count, s.stop_seconds,
    s.engine_seconds, s.idle_seconds, s.max_speed, s.overspeed_count, s.alarm_count,
    (extract(epoch FROM s.computed_at) * 1000)::float8, count(*) OVER ()::int
  FROM unnest($1::bigint[], $2::date[], $3::date[]) AS r(id, first_day, last_day)
  JOIN stat_daily s ON s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day
  JOIN devices d ON d.id = r.id
  ORDER BY s.day, d.terminal_id COLLATE "C"
  OFFSET $4 LIMIT $5`;

/** The alarm counts by code of the same rows (only where a page of records needs them). */
const DAILY_ALARMS_SQL = `SELECT s.device_id::text, s.day::text, s.alarms
  FROM unnest($1::bigint[], $2::date[], $3::date[]) AS r(id, first_day, last_day)
  JOIN stat_daily s ON s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day
  WHERE s.alarm_count > 0`;

type RawDaily = [
  string, // device id
  string, // day
  number, // mileage
  number, // run_seconds
  number, // stop_count
  number, // stop_seconds
  number, // engine_seconds
  number, // idle_seconds
  number, // max_speed
  number, // overspeed_count
  number, // alarm_count
  number, // computed_at (epoch ms)
  number, // total rows
];

/** Devices grouped by zone with the first and last day of the range in that zone. */
export function zoneGroups(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const groups = new Map<string, { first: string; last: string; devices: StatDevice[] }>();
  for (const d of devices) {
    let g = groups.get(d.zone);
    if (!g) {
      const days = daysOverlapping(startTime, endTime, d.zone);
      g = { first: days[0], last: days[days.length - 1], devices: [] };
      groups.set(d.zone, g);
    }
    g.devices.push(d);
  }
  return [...groups.values()].filter((g) => g.first !== undefined);
}

/** The parameters of DAILY_SQL: per device its first and last day in its own zone. */
function dailyParams(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const ids: string[] = [];
  const firsts: string[] = [];
  const lasts: string[] = [];
  for (const g of zoneGroups(devices, startTime, endTime)) {
    for (const d of g.devices) {
      ids.push(d.id);
      firsts.push(g.first);
      lasts.push(g.last);
    }
  }
  return [ids, firsts, lasts];
}

/**
 * statsticState of a row (spec §3): 'final' when it was computed after its day had ended (in the owner's zone),
 * 'partial' while the day was still running (the figures grow as fixes arrive).
 */
export type StatisticState = 'final' | 'partial';

function dayEnds() {
  const cache = new Map<string, number>();
  return (day: string, zone: StatDevice['zone']): number => {
    const key = `${zone} ${day}`;
    let end = cache.get(key);
    if (end === undefined) {
      end = dayBounds(day, zone).end;
      cache.set(key, end);
    }
    return end;
  };
}

const num = (v: number) => (Number.isFinite(v) ? v : 0);

/** One page of the daily rows as raw tuples plus the total (one statement; no objects per row yet). */
async function dailyPage(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
  offset = 0,
  limit: number | null = null,
): Promise<{ total: number; rows: RawDaily[] }> {
  const [ids, firsts, lasts] = dailyParams(devices, startTime, endTime);
  if (ids.length === 0) return { total: 0, rows: [] };
  const res = await pool.query<RawDaily>({
    text: DAILY_SQL,
    values: [ids, firsts, lasts, offset, limit],
    rowMode: 'array',
  });
  let total = res.rows.length > 0 ? res.rows[0][12] : 0;
  if (res.rows.length === 0 && offset > 0) {
    const counted = await pool.query<[number]>({
      text: `SELECT count(*)::int FROM (${DAILY_SQL}) x`,
      values: [ids, firsts, lasts, 0, null],
      rowMode: 'array',
    });
    total = counted.rows[0]?.[0] ?? 0;
  }
  return { total, rows: res.rows };
}

/** The daily rows of the devices over the range as records, ordered by day then terminalID. */
export async function loadDaily(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
  opts: { alarms?: boolean } = {},
): Promise<DailyRecord[]> {
  const byId = new Map(devices.map((d) => [d.id, d]));
  const { rows } = await dailyPage(pool, devices, startTime, endTime);
  let alarms: Map<string, Record<string, number>> | null = null;
  if (opts.alarms !== false) {
    const [ids, firsts, lasts] = dailyParams(devices, startTime, endTime);
    const res = await pool.query<[string, string, Record<string, number>]>({
      text: DAILY_ALARMS_SQL,
      values: [ids, firsts, lasts],
      rowMode: 'array',
    });
    alarms = new Map(res.rows.map((r) => [`${r[0]} ${r[1]}`, r[2] ?? {}]));
  }
  const ends = dayEnds();
  const out: DailyRecord[] = [];
  for (const r of rows) {
    const d = byId.get(r[0]);
    if (!d) continue;
    out.push({
      id: `${r[0]}-${r[1]}`,
      deviceId: d.id,
      terminalID: d.terminalID,
      displayName: d.displayName,
      statsticDate: r[1],
      statsticState: r[11] >= ends(r[1], d.zone) ? 'final' : 'partial',
      mileage: Math.round(num(r[2])),
      runSeconds: num(r[3]),
      stopCount: num(r[4]),
      stopSeconds: num(r[5]),
      engineSeconds: num(r[6]),
      idleSeconds: num(r[7]),
      maxSpeed: num(r[8]),
      overspeedCount: num(r[9]),
      alarmCount: num(r[10]),
      alarms: alarms?.get(`${r[0]} ${r[1]}`) ?? {},
    });
  }
  return out;
}

/**
 * One page of /stat/find as JSON text `{"total":…,"list":[…]}`, written by hand: for 1,000 devices × 30 days
 * (31,000 rows) building an object per row and passing it through the schema serializer costs many times the
 * query. The text has exactly the fields of the documented row schema (routes.ts dailySchema), in its order.
 */
export async function dailyPageJson(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
  offset: number,
  limit: number,
): Promise<string> {
  const { total, rows } = await dailyPage(pool, devices, startTime, endTime, offset, limit);
  // Per device its JSON text once (names may hold any character): `"terminalID":…,"displayName":…,`.
  const heads = new Map<string, { text: string; zone: StatDevice['zone'] }>();
  for (const d of devices) {
    heads.set(d.id, {
      text: `"terminalID":${JSON.stringify(d.terminalID)},"displayName":${JSON.stringify(d.displayName)},`,
      zone: d.zone,
    });
  }
  const ends = dayEnds();
  const parts: string[] = new Array(rows.length);
  let n = 0;
  for (const r of rows) {
    const head = heads.get(r[0]);
    if (!head) continue;
    const day = r[1]; // 'YYYY-MM-DD': digits and dashes only
    const state = r[11] >= ends(day, head.zone) ? 'final' : 'partial';
    parts[n++] =
      `{"id":"${r[0]}-${day}",${head.text}"statsticDate":"${day}","statsticState":"${state}","mileage":${Math.round(num(r[2]))},` +
      `"runSeconds":${num(r[3])},"stopCount":${num(r[4])},"stopSeconds":${num(r[5])},"engineSeconds":${num(r[6])},` +
      `"idleSeconds":${num(r[7])},"maxSpeed":${num(r[8])},"overspeedCount":${num(r[9])},"alarmCount":${num(r[10])}}`;
  }
  parts.length = n;
  return `{"total":${total},"list":[${parts.join(',')}]}`;
}

export interface Totals {
  mileage: number;
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
  days: number;
}

export function emptyTotals(): Totals {
  return {
    mileage: 0,
    runSeconds: 0,
    stopCount: 0,
    stopSeconds: 0,
    engineSeconds: 0,
    idleSeconds: 0,
    maxSpeed: 0,
    overspeedCount: 0,
    alarmCount: 0,
    days: 0,
  };
}

/** Adds a daily row into totals (maxSpeed is the maximum, days counts rows). */
export function addInto(t: Totals, r: DailyRow): void {
  t.mileage += r.mileage;
  t.runSeconds += r.runSeconds;
  t.stopCount += r.stopCount;
  t.stopSeconds += r.stopSeconds;
  t.engineSeconds += r.engineSeconds;
  t.idleSeconds += r.idleSeconds;
  if (r.maxSpeed > t.maxSpeed) t.maxSpeed = r.maxSpeed;
  t.overspeedCount += r.overspeedCount;
  t.alarmCount += r.alarmCount;
  t.days++;
}
