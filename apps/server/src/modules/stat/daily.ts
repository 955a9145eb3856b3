// Reading the daily statistics rows (stat_daily) of selected devices over the days a range overlaps, in each
// device's own statistics zone. Statistics queries read these rows, never the positions.
import { daysOverlapping } from '@carhere/domain';
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
 * different days). $1 device ids in terminalID order, $2 first days, $3 last days, $4 zones (parallel arrays).
 * stat_daily has one row per device and day (its primary key), so there is nothing to merge: the spec's "rows
 * merged per day" holds by construction. r.ord is the device's place in terminalID order.
 */
const DAILY_FROM = `FROM unnest($1::bigint[], $2::date[], $3::date[], $4::text[]) WITH ORDINALITY AS r(id, first_day, last_day, zone, ord)
  JOIN stat_daily s ON s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day`;

/** statsticState (spec §3): 'final' once computed after its day ended in the owner's zone, else 'partial'. */
const STATE_SQL = `CASE WHEN s.computed_at >= ((s.day + 1)::timestamp AT TIME ZONE r.zone) THEN 'final' ELSE 'partial' END`;

/** The records (exports, totals, alarm counts), ordered by day then terminalID. */
export const DAILY_SQL = `SELECT s.device_id::text, s.day::text, s.mileage, s.run_seconds, s.stop_count, s.stop_seconds,
    s.engine_seconds, s.idle_seconds, s.max_speed, s.overspeed_count, s.alarm_count, ${STATE_SQL}, s.alarms
  ${DAILY_FROM}
  ORDER BY s.day, r.ord`;

/** A number as JSON: finite or 0 (NaN is above every number in PostgreSQL, so it fails the range too). */
const jsonNum = (col: string) => `CASE WHEN ${col} BETWEEN -1e300 AND 1e300 THEN ${col} ELSE 0 END`;

/**
 * /stat/find's rows as JSON text, one per row, written by PostgreSQL: the documented row (routes.ts dailySchema)
 * field by field, in its order. The device's `"terminalID":…,"displayName":…,` comes from $5 (JSON.stringify in
 * Node: names may hold any character); everything else is digits, dates and fixed words. The first column is
 * the row's place (day, then terminalID) as a number, so no sort is needed here: a 31,000-row sort in the
 * database spilled to disk and a window count doubled the work.
 */
const ROW_JSON = `'{"id":"' || s.device_id || '-' || s.day || '",' || r.head || '"statsticDate":"' || s.day ||
    '","statsticState":"' || ${STATE_SQL} ||
    '","mileage":' || ${jsonNum('round(s.mileage)')}::bigint ||
    ',"runSeconds":' || s.run_seconds || ',"stopCount":' || s.stop_count || ',"stopSeconds":' || s.stop_seconds ||
    ',"engineSeconds":' || s.engine_seconds || ',"idleSeconds":' || s.idle_seconds ||
    ',"maxSpeed":' || ${jsonNum('s.max_speed')} || ',"overspeedCount":' || s.overspeed_count ||
    ',"alarmCount":' || s.alarm_count || '}'`;
const DAILY_JSON_FROM = `FROM unnest($1::bigint[], $2::date[], $3::date[], $4::text[], $5::text[]) WITH ORDINALITY
    AS r(id, first_day, last_day, zone, head, ord)
  JOIN stat_daily s ON s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day`;

/** Every row of the range: [place, JSON text], unordered; $6 the number of devices. */
export const DAILY_JSON_SQL = `SELECT ((s.day - DATE '2000-01-01')::float8 * $6::int + r.ord - 1), ${ROW_JSON}
  ${DAILY_JSON_FROM}`;
/** A small page ordered by the database ($6 offset, $7 limit) and the total. */
const DAILY_JSON_PAGE_SQL = `SELECT ${ROW_JSON} ${DAILY_JSON_FROM} ORDER BY s.day, r.ord OFFSET $6 LIMIT $7`;
const DAILY_COUNT_SQL = `SELECT count(*)::int ${DAILY_JSON_FROM}`;
/** Pages up to this size are ordered and cut by the database; bigger ones read the range and place rows here. */
const SMALL_PAGE = 1000;

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
  StatisticState,
  Record<string, number> | null,
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

/** Per device (in the given terminalID order) its first and last day and zone. */
function dailyParams(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const groups = zoneGroups(devices, startTime, endTime);
  const byZone = new Map(groups.map((g) => [g.devices[0].zone, g]));
  const list: StatDevice[] = [];
  const firsts: string[] = [];
  const lasts: string[] = [];
  for (const d of devices) {
    const g = byZone.get(d.zone);
    if (!g) continue;
    list.push(d);
    firsts.push(g.first);
    lasts.push(g.last);
  }
  return { list, values: [list.map((d) => d.id), firsts, lasts, list.map((d) => d.zone)] };
}

/**
 * statsticState of a row (spec §3): 'final' when it was computed after its day had ended (in the owner's zone),
 * 'partial' while the day was still running (the figures grow as fixes arrive).
 */
export type StatisticState = 'final' | 'partial';

const num = (v: number) => (Number.isFinite(v) ? v : 0);

/** The daily rows of the devices over the range as records, ordered by day then terminalID. */
export async function loadDaily(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
): Promise<DailyRecord[]> {
  const { list, values } = dailyParams(devices, startTime, endTime);
  if (list.length === 0) return [];
  const byId = new Map(list.map((d) => [d.id, d]));
  const res = await pool.query<RawDaily>({ text: DAILY_SQL, values, rowMode: 'array' });
  const out: DailyRecord[] = [];
  for (const r of res.rows) {
    const d = byId.get(r[0]);
    if (!d) continue;
    out.push({
      id: `${r[0]}-${r[1]}`,
      deviceId: d.id,
      terminalID: d.terminalID,
      displayName: d.displayName,
      statsticDate: r[1],
      statsticState: r[11],
      mileage: Math.round(num(r[2])),
      runSeconds: num(r[3]),
      stopCount: num(r[4]),
      stopSeconds: num(r[5]),
      engineSeconds: num(r[6]),
      idleSeconds: num(r[7]),
      maxSpeed: num(r[8]),
      overspeedCount: num(r[9]),
      alarmCount: num(r[10]),
      alarms: r[12] ?? {},
    });
  }
  return out;
}

/** The parameters of DAILY_JSON_SQL (also for the benchmark's query plan). */
export function dailyJsonParams(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const { list, values } = dailyParams(devices, startTime, endTime);
  const heads = list.map(
    (d) => `"terminalID":${JSON.stringify(d.terminalID)},"displayName":${JSON.stringify(d.displayName)},`,
  );
  return { count: list.length, values: [...values, heads] };
}

/**
 * One page of /stat/find as JSON text `{"total":…,"list":[…]}`. For 1,000 devices × 30 days (31,000 rows),
 * building an object per row and passing it through the schema serializer cost many times the query; here the
 * database writes each row's text and Node only puts the rows in order (one numeric sort of their places) and
 * joins them.
 */
export async function dailyPageJson(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
  offset: number,
  limit: number,
): Promise<string> {
  const { count, values } = dailyJsonParams(devices, startTime, endTime);
  if (count === 0) return '{"total":0,"list":[]}';
  if (limit <= SMALL_PAGE) {
    const [page, total] = await Promise.all([
      pool.query<[string]>({ text: DAILY_JSON_PAGE_SQL, values: [...values, offset, limit], rowMode: 'array' }),
      pool.query<[number]>({ text: DAILY_COUNT_SQL, values, rowMode: 'array' }),
    ]);
    return `{"total":${total.rows[0]?.[0] ?? 0},"list":[${page.rows.map((r) => r[0]).join(',')}]}`;
  }
  const res = await pool.query<[number, string]>({
    text: DAILY_JSON_SQL,
    values: [...values, count],
    rowMode: 'array',
  });
  const rows = res.rows;
  const n = rows.length;
  // Place and row index packed into one number, so one native numeric sort orders them.
  const scale = 2 ** Math.ceil(Math.log2(n + 1));
  const keys = new Float64Array(n);
  let packed = true;
  for (let i = 0; i < n; i++) {
    keys[i] = rows[i][0] * scale + i;
    if (keys[i] > Number.MAX_SAFE_INTEGER) packed = false;
  }
  let order: ArrayLike<number>;
  if (packed) {
    keys.sort();
    const idx = new Uint32Array(n);
    for (let i = 0; i < n; i++) idx[i] = keys[i] % scale;
    order = idx;
  } else {
    order = Array.from({ length: n }, (_, i) => i).sort((a, b) => rows[a][0] - rows[b][0]);
  }
  const end = Math.min(n, offset + limit);
  const parts: string[] = new Array(Math.max(0, end - offset));
  for (let i = offset; i < end; i++) parts[i - offset] = rows[order[i]][1];
  return `{"total":${n},"list":[${parts.join(',')}]}`;
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
