// Reading the daily statistics rows (stat_daily) of selected devices over the days a range overlaps, in each
// device's own statistics zone. Statistics queries read these rows, never the positions.
import { dayKey, formatOffset, parseFixedOffset, type TimeZone } from '@carhere/domain';
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

/**
 * A zone as PostgreSQL's AT TIME ZONE reads it. Zone names pass as they are; a fixed offset such as '+08:00'
 * would be read POSIX-style (hours west of Greenwich, the opposite sign), so it is given with its sign turned.
 */
export function sqlZone(zone: TimeZone): string {
  const offset = parseFixedOffset(zone);
  if (offset === undefined) return zone;
  return offset === 0 ? 'UTC' : formatOffset(-offset);
}

/** statsticState (spec §3): 'final' once computed after its day ended in the owner's zone, else 'partial'. */
const stateSql = (col: (name: string) => string, zone: string) =>
  `CASE WHEN ${col('computed_at')} >= ((${col('day')} + 1)::timestamp AT TIME ZONE ${zone}) THEN 'final' ELSE 'partial' END`;
const STATE_SQL = stateSql((c) => `s.${c}`, 'r.zone');

/** The records (exports, totals, alarm counts), ordered by day then terminalID. */
export const DAILY_SQL = `SELECT s.device_id::text, s.day::text, s.mileage, s.run_seconds, s.stop_count, s.stop_seconds,
    s.engine_seconds, s.idle_seconds, s.max_speed, s.overspeed_count, s.alarm_count, ${STATE_SQL}, s.alarms
  ${DAILY_FROM}
  ORDER BY s.day, r.ord`;

/** A number as JSON: finite or 0 (NaN is above every number in PostgreSQL, so it fails the range too). */
const jsonNum = (col: string) => `CASE WHEN ${col} BETWEEN -1e300 AND 1e300 THEN ${col} ELSE 0 END`;

/**
 * The text of a /stat/find row after the device's name, `"id":…,"statsticDate":…` to `…"alarmCount":n}`: the
 * documented row (routes.ts dailySchema) field by field, all digits, dates and fixed words.
 * `col(name)` gives the SQL of a stat_daily column, `zone` the owner's zone (for statsticState). The roll-up
 * stores it in stat_daily.row_json with the row (rollup.ts); reads use it, or this when it is NULL.
 */
export function rowTailSql(col: (name: string) => string, zone: string): string {
  return `'"id":"' || ${col('device_id')} || '-' || ${col('day')} || '","statsticDate":"' || ${col('day')} ||
    '","statsticState":"' || ${stateSql(col, zone)} ||
    '","mileage":' || ${jsonNum(`round(${col('mileage')})`)}::bigint ||
    ',"runSeconds":' || ${col('run_seconds')} || ',"stopCount":' || ${col('stop_count')} ||
    ',"stopSeconds":' || ${col('stop_seconds')} || ',"engineSeconds":' || ${col('engine_seconds')} ||
    ',"idleSeconds":' || ${col('idle_seconds')} || ',"maxSpeed":' || ${jsonNum(col('max_speed'))} ||
    ',"overspeedCount":' || ${col('overspeed_count')} || ',"alarmCount":' || ${col('alarm_count')} || '}'`;
}

/**
 * /stat/find's rows as JSON text, one per row, written by PostgreSQL: `{` and the device's
 * `"terminalID":…,"displayName":…,` from $5 (JSON.stringify in Node: names may hold any character), then the
 * row's stored text, id included (formatted here for rows without one): two joins per row, no conversions.
 */
const ROW_JSON = `'{' || r.head || COALESCE(s.row_json, ${rowTailSql((c) => `s.${c}`, 'r.zone')})`;
const DAILY_JSON_FROM = `FROM unnest($1::bigint[], $2::date[], $3::date[], $4::text[], $5::text[]) WITH ORDINALITY
    AS r(id, first_day, last_day, zone, head, ord)
  JOIN stat_daily s ON s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day`;

/**
 * A page of rows ordered by the database ($6 offset, $7 limit), joined into one text per day: 31 texts instead
 * of 31,000 rows for 1,000 devices × 31 days, so Node handles a few large strings rather than an object per
 * row. The rows come in day, then terminalID order from the sorted subquery (OFFSET keeps it a subquery),
 * and string_agg joins them in that order. Each answer row: [the day's rows, their number].
 */
export const DAILY_JSON_DAYS_SQL = `SELECT string_agg(x.j, ','), count(*)::int FROM (
    SELECT s.day, ${ROW_JSON} AS j ${DAILY_JSON_FROM} ORDER BY s.day, r.ord OFFSET $6 LIMIT $7
  ) x GROUP BY x.day ORDER BY x.day`;
/**
 * The whole range's rows, a text per day, for the first page when it holds them all (the usual case: 31,000
 * rows of 1,000 devices × 31 days in a page of 100,000). Each answer row: [day, its number of rows, its rows],
 * the days in no particular order (dayTexts orders them).
 * No row is sorted: the devices' rows are read device by device in terminalID order (r.ord), each device's
 * days by an index-only scan of stat_daily_find_idx (device, day, stored text; the LATERAL with OFFSET 0 keeps
 * this a nested loop with the devices outside), and the rows are hashed into their day, where string_agg
 * joins them in the order they came: terminalID order. The grouping must be hashed: rows sorted by day
 * (quicksort, not stable) would lose that order, so the query has no ORDER BY (the 31 days are put in order
 * by the reader) and DAILY_ALL_DAYS_SETTINGS turn sorting off for its transaction. Reading every row's text
 * and sorting the rows by day and terminalID cost the database about twice as much. A row without stored text
 * (NULL row_json) is formatted from its full row, looked up only then.
 * `args` are the unnest arguments: device ids, first days, last days, zones and heads.
 */
function allDaysSql(args: string): string {
  const rowJson = `'{' || r.head || COALESCE(s.row_json,
      (SELECT ${rowTailSql((c) => `t.${c}`, 'r.zone')} FROM stat_daily t WHERE t.device_id = s.device_id AND t.day = s.day))`;
  return `SELECT s.day::text, count(*)::int, string_agg(${rowJson}, ',')
  FROM unnest(${args}) WITH ORDINALITY AS r(id, first_day, last_day, zone, head, ord)
  CROSS JOIN LATERAL (SELECT s.device_id, s.day, s.row_json FROM stat_daily s
    WHERE s.device_id = r.id AND s.day >= r.first_day AND s.day <= r.last_day OFFSET 0) s
  GROUP BY s.day`;
}
export const DAILY_JSON_ALL_DAYS_SQL = allDaysSql('$1::bigint[], $2::date[], $3::date[], $4::text[], $5::text[]');
/**
 * Sort memory for the day texts' reads (set for its transaction only): 100,000 rows of about 300 bytes are
 * sorted (paged reads) or hashed in memory instead of spilling to disk at PostgreSQL's default of 4 MB.
 */
export const DAILY_SORT_MEMORY = '64MB';
/**
 * Settings of DAILY_JSON_ALL_DAYS_SQL's transaction: memory, no sorting (see there: grouping by a sort is
 * then never chosen), no JIT compiling (a mis-estimated plan once took 170 ms to compile for a 30 ms read).
 */
export const DAILY_ALL_DAYS_SETTINGS = [
  `SET LOCAL work_mem = '${DAILY_SORT_MEMORY}'`,
  'SET LOCAL enable_sort = off',
  'SET LOCAL enable_incremental_sort = off',
  'SET LOCAL jit = off',
];
/** DAILY_JSON_ALL_DAYS_SQL's rows ([day, count, text]) put in day order (in place); their texts and total. */
function inDayOrder<T>(rows: [string, number, T][]): { total: number; texts: T[] } {
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let total = 0;
  for (const r of rows) total += r[1];
  return { total, texts: rows.map((r) => r[2]) };
}
/** A small page ordered by the database ($6 offset, $7 limit) and the total. */
const DAILY_JSON_PAGE_SQL = `SELECT ${ROW_JSON} ${DAILY_JSON_FROM} ORDER BY s.day, r.ord OFFSET $6 LIMIT $7`;
const DAILY_COUNT_SQL = `SELECT count(*)::int ${DAILY_JSON_FROM}`;
/** Pages up to this size come row by row; bigger ones a text per day. */
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

/**
 * Devices grouped by zone with the first and last day of the range in that zone: the days of its start and of
 * its end (the first and last of daysOverlapping, without listing the days between).
 */
export function zoneGroups(devices: readonly StatDevice[], startTime: number, endTime: number) {
  if (!(endTime >= startTime)) return [];
  const groups = new Map<string, { first: string; last: string; devices: StatDevice[] }>();
  for (const d of devices) {
    let g = groups.get(d.zone);
    if (!g) {
      g = { first: dayKey(startTime, d.zone), last: dayKey(endTime, d.zone), devices: [] };
      groups.set(d.zone, g);
    }
    g.devices.push(d);
  }
  return [...groups.values()];
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
  return { list, values: [list.map((d) => d.id), firsts, lasts, list.map((d) => sqlZone(d.zone))] };
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

/** The parameters of the JSON reads ($1–$5; also for the benchmark's query plan). */
export function dailyJsonParams(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const { list, values } = dailyParams(devices, startTime, endTime);
  const heads = list.map(
    (d) => `"terminalID":${JSON.stringify(d.terminalID)},"displayName":${JSON.stringify(d.displayName)},`,
  );
  return { count: list.length, values: [...values, heads] };
}

/**
 * A page of /stat/find: its total and its rows as JSON texts, each one or more rows joined by commas; as
 * UTF-8 bytes when they came from PostgreSQL's COPY (never decoded into strings in Node).
 */
export interface DailyJsonPage {
  total: number;
  parts: string[] | Buffer[];
}

/**
 * A string as an SQL literal, as node-postgres's escapeLiteral writes it (quotes doubled; with backslashes,
 * an E'' literal with them doubled) but by two replacements instead of a loop over 80 kB of names.
 */
function sqlLiteral(text: string): string {
  const quoted = text.replace(/'/g, "''");
  return text.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/**
 * An array literal of SQL text: its elements quoted for the array syntax (in one pass over them all, joined by
 * NUL, which no text holds), then the whole as a literal. `plain` elements (digits and dashes) go unquoted.
 */
function arrayLiteral(items: readonly string[], type: string, plain = false): string {
  const body =
    plain || items.length === 0
      ? items.join(',')
      : `"${items.join('\u0000').replace(/[\\"]/g, '\\$&').replaceAll('\u0000', '","')}"`;
  return `${sqlLiteral(`{${body}}`)}::${type}[]`;
}

/**
 * DAILY_JSON_ALL_DAYS_SQL for COPY … TO STDOUT (which takes no parameters: the values are written into the
 * text as quoted literals): per day the day, its number of rows and its rows' text. CSV with the delimiter \x01 and the
 * quote \x02, two bytes JSON text never holds unescaped (nor line ends), so every value comes out as it is:
 * no quoting, no backslash doubling as in COPY's text format.
 */
function dailyCopySql(values: unknown[][]): string {
  const [ids, firsts, lasts, zones, heads] = values as string[][];
  for (const id of ids) if (!/^\d+$/.test(id)) throw new Error(`bad device id ${id}`);
  for (const d of [...firsts, ...lasts]) if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new Error(`bad day ${d}`);
  const args = [
    arrayLiteral(ids, 'bigint', true),
    arrayLiteral(firsts, 'date', true),
    arrayLiteral(lasts, 'date', true),
    arrayLiteral(zones, 'text'),
    arrayLiteral(heads, 'text'),
  ].join(', ');
  return `BEGIN; ${DAILY_ALL_DAYS_SETTINGS.join('; ')};
    COPY (${allDaysSql(args)}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');
    COMMIT`;
}

/**
 * A COPY … TO STDOUT sent as one simple query (with the statements around it), its rows kept as bytes: per
 * row its day and count (the fields before the two \x01) and the rest without the line end. node-postgres
 * hands each row over as a view of its read buffer, which it may reuse: the text is copied out.
 */
class CopyRows implements pg.Submittable {
  /** [day, count, text] per row */
  readonly rows: [string, number, Buffer][] = [];
  private error: Error | null = null;
  private finished = false;
  constructor(
    private readonly text: string,
    private readonly done: (err: Error | null) => void,
  ) {}
  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }
  handleCopyData(msg: { chunk: Buffer }): void {
    const c = msg.chunk;
    const first = c.indexOf(1);
    const second = c.indexOf(1, first + 1);
    const end = c.length > 0 && c[c.length - 1] === 0x0a ? c.length - 1 : c.length;
    this.rows.push([
      c.toString('latin1', 0, first),
      Number(c.toString('latin1', first + 1, second)),
      Buffer.from(c.subarray(second + 1, end)),
    ]);
  }
  handleCopyInResponse(connection: { sendCopyFail(msg: string): void }): void {
    connection.sendCopyFail('unexpected COPY FROM');
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  /** A statement's error (ReadyForQuery follows) or the connection's (none follows): finished either way. */
  handleError(err: Error): void {
    this.error = err;
    this.finish();
  }
  handleReadyForQuery(): void {
    this.finish();
  }
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.done(this.error);
  }
}

/**
 * The whole range's rows by COPY, when it fits in one page from its start: the day texts as bytes, or null
 * when the range holds more rows than the page. A client that failed is dropped (it may be left in an
 * aborted transaction).
 */
async function dailyCopyAll(pool: pg.Pool, values: unknown[][], limit: number): Promise<DailyJsonPage | null> {
  const client = await pool.connect();
  let rows: CopyRows | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      rows = new CopyRows(dailyCopySql(values), (err) => (err ? reject(err) : resolve()));
      client.query(rows);
    });
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  client.release();
  const got = rows as CopyRows;
  const { total, texts } = inDayOrder(got.rows);
  return total <= limit ? { total, parts: texts } : null;
}

/**
 * One page of /stat/find as JSON texts. For 1,000 devices × 30 days (31,000 rows), building an object per row
 * and passing it through the schema serializer cost many times the query; here the database writes the rows'
 * text (stored with each row by the roll-up) in order, a text per day, and Node only passes them on.
 */
export async function dailyPageJson(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
  offset: number,
  limit: number,
  /** A PostgreSQL server (not PGlite): a whole range that fits in the page is read by COPY. */
  copy = false,
): Promise<DailyJsonPage> {
  const { count, values } = dailyJsonParams(devices, startTime, endTime);
  if (count === 0) return { total: 0, parts: [] };
  if (copy && offset === 0 && limit > SMALL_PAGE) {
    // PostgreSQL: the page's bytes by COPY, passed on without decoding or encoding text in Node.
    const all = await dailyCopyAll(pool, values, limit);
    if (all) return all;
  }
  const counted = () => pool.query<[number]>({ text: DAILY_COUNT_SQL, values, rowMode: 'array' });
  if (limit <= SMALL_PAGE) {
    const [page, total] = await Promise.all([
      pool.query<[string]>({ text: DAILY_JSON_PAGE_SQL, values: [...values, offset, limit], rowMode: 'array' }),
      counted(),
    ]);
    return {
      total: total.rows[0]?.[0] ?? 0,
      parts: page.rows.length > 0 ? [page.rows.map((r) => r[0]).join(',')] : [],
    };
  }
  const client = await pool.connect();
  let days: [string, number][];
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL work_mem = '${DAILY_SORT_MEMORY}'`);
    days = [];
    if (offset === 0) {
      for (const setting of DAILY_ALL_DAYS_SETTINGS) await client.query(setting);
      const all = await client.query<[string, number, string]>({
        text: DAILY_JSON_ALL_DAYS_SQL,
        values,
        rowMode: 'array',
      });
      inDayOrder(all.rows);
      days = all.rows.map(([, n, text]) => [text, n]);
      await client.query('SET LOCAL enable_sort = on');
    }
    if (offset > 0 || days.reduce((n, d) => n + d[1], 0) > limit) {
      const paged = await client.query<[string, number]>({
        text: DAILY_JSON_DAYS_SQL,
        values: [...values, offset, limit],
        rowMode: 'array',
      });
      days = paged.rows;
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  let n = 0;
  for (const d of days) n += d[1];
  // The whole range fitted in the page: its rows are the total; otherwise count them.
  const total = offset === 0 && n < limit ? n : ((await counted()).rows[0]?.[0] ?? 0);
  return { total, parts: days.map((d) => d[0]) };
}

/** A page as the JSON text `{"total":…,"list":[…]}`, in pieces (written one after another, never joined). */
export function* pageJsonPieces(page: DailyJsonPage): Generator<string | Buffer> {
  yield `{"total":${page.total},"list":[`;
  for (let i = 0; i < page.parts.length; i++) {
    if (i > 0) yield ',';
    yield page.parts[i];
  }
  yield ']}';
}

/**
 * The answer's bytes when the page came as bytes (COPY): `before`, the page, `after`, as pieces (not joined:
 * joining would copy the 9 MB of 31,000 rows once more) and their length; null for a page of texts.
 */
export function pageJsonBytes(
  page: DailyJsonPage,
  before: string,
  after: string,
): { pieces: Buffer[]; length: number } | null {
  if (page.parts.length === 0 || typeof page.parts[0] === 'string') return null;
  const pieces: Buffer[] = [Buffer.from(before)];
  for (const p of pageJsonPieces(page)) pieces.push(typeof p === 'string' ? Buffer.from(p) : p);
  pieces.push(Buffer.from(after));
  let length = 0;
  for (const p of pieces) length += p.length;
  return { pieces, length };
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
