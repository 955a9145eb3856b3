// The ordered device list of spec §4 in SQL, equal to the domain's sortDevices/matchesTab (a property test
// compares them). The order is cut into segments that each follow one index:
//
//   1 online, moving        (fresh valid position, speed > 10)  pos_time DESC, terminal_id
//   2 online, stopped       (valid position, not moving)        pos_time DESC, terminal_id
//     (DESC NULLS LAST everywhere, so PostgreSQL can walk the partial indexes in order)
//   3 online, no position                                       terminal_id
//   4 offline, reported     (last report known)                 COALESCE(last_seen, pos_time) DESC, terminal_id
//   5 offline, never reported                                   terminal_id
//   6 not activated                                             terminal_id
//
// A page reads the segments in turn and stops once it has offset + limit rows, so the first page of a
// 100,000-device subtree reads a few dozen index entries instead of sorting the subtree.

import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppContext } from '../../context.ts';

/** Domain tab names (DeviceTab) plus 'all'. */
export type ListTab = 'all' | 'unknown' | 'online' | 'offline' | 'unactivated' | 'expired';
/** Domain expiry filters. */
export type ListExpiry = 'all' | 'within7Days' | 'within60Days' | 'expired';

export interface DeviceScope {
  /** Devices whose owner is in this subtree ('/1/5/'); null: every device (administrator). */
  subtreePath: string | null;
  /** Only the devices this account owns itself (not its sub-accounts'). */
  ownerId?: string;
}

export interface DeviceListQuery {
  scope: DeviceScope;
  tab: ListTab;
  expiry: ListExpiry;
  /** Part of the IMEI, device name or plate (case-insensitive). */
  keyword?: string;
  /** Special-brand agents (spec §6): hide not-activated devices and devices offline ≥ 3 days, except these IMEIs. */
  specialBrand?: { noProcess: readonly string[] } | null;
  now: Date;
}

const MS_PER_DAY = 86_400_000;
const STOP_AGE_MS = 60_000;
const STOP_MAX_SPEED = 10;
const OFFLINE_HIDE_MS = 259_200_000;

type Cond = RawBuilder<SqlBool>;
const and = (conds: Cond[]): Cond =>
  conds.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(conds, sql` AND `)})`;

const activated = sql<SqlBool>`d.activated_at IS NOT NULL`;
const validPosition = sql<SqlBool>`(s.lat IS NOT NULL AND s.lon IS NOT NULL AND s.pos_time IS NOT NULL
  AND abs(s.lat) <= 90 AND abs(s.lon) <= 180 AND NOT (s.lat = 0 AND s.lon = 0))`;
const lastReport = sql`COALESCE(s.last_seen, s.pos_time)`;
const effectiveExpiry = sql`LEAST(d.platform_expire_at, d.user_expire_at)`;
/** IMEIs compare in code-point order (COLLATE "C"), as JavaScript and the domain compare them. */
const byImei = sql`d.terminal_id COLLATE "C"`;

function movingCond(now: Date): Cond {
  return sql<SqlBool>`(s.pos_time > ${new Date(now.getTime() - STOP_AGE_MS)}::timestamptz AND COALESCE(s.speed, 0) > ${STOP_MAX_SPEED})`;
}

interface Segment {
  name: string;
  /** Tabs the segment belongs to. */
  tab: 'online' | 'offline' | 'unactivated';
  /** Needs the device_state row (inner join). */
  joinState: boolean;
  cond: (now: Date) => Cond;
  order: Expression<unknown>[];
}

const SEGMENTS: Segment[] = [
  {
    name: 'moving',
    tab: 'online',
    joinState: true,
    cond: (now) => and([sql`s.online`, activated, validPosition, movingCond(now)]),
    order: [sql`s.pos_time DESC NULLS LAST`, byImei],
  },
  {
    name: 'stopped',
    tab: 'online',
    joinState: true,
    cond: (now) => and([sql`s.online`, activated, validPosition, sql<SqlBool>`NOT ${movingCond(now)}`]),
    order: [sql`s.pos_time DESC NULLS LAST`, byImei],
  },
  {
    name: 'noPosition',
    tab: 'online',
    joinState: true,
    cond: () => and([sql`s.online`, activated, sql<SqlBool>`NOT ${validPosition}`]),
    order: [byImei],
  },
  {
    name: 'offlineReported',
    tab: 'offline',
    joinState: true,
    cond: () => and([sql`NOT s.online`, activated, sql<SqlBool>`${lastReport} IS NOT NULL`]),
    order: [sql`${lastReport} DESC NULLS LAST`, byImei],
  },
  {
    name: 'offlineSilent',
    tab: 'offline',
    joinState: false,
    cond: () => and([activated, sql<SqlBool>`(s.device_id IS NULL OR (NOT s.online AND ${lastReport} IS NULL))`]),
    order: [byImei],
  },
  {
    name: 'unactivated',
    tab: 'unactivated',
    joinState: false,
    cond: () => sql<SqlBool>`d.activated_at IS NULL`,
    order: [byImei],
  },
];

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Conditions every segment shares: owner scope, keyword, expiry filter, expired tab, special-brand rule. */
export function commonConds(q: DeviceListQuery): Cond[] {
  const conds: Cond[] = [];
  const { scope, now } = q;
  if (scope.ownerId) conds.push(sql<SqlBool>`d.user_id = ${scope.ownerId}`);
  else if (scope.subtreePath !== null) {
    conds.push(sql<SqlBool>`d.user_id IN (SELECT id FROM users WHERE path LIKE ${`${scope.subtreePath}%`})`);
  }
  const keyword = q.keyword?.trim();
  if (keyword) {
    const like = `%${escapeLike(keyword)}%`;
    conds.push(sql<SqlBool>`(d.terminal_id ILIKE ${like} OR d.nickname ILIKE ${like} OR d.car_number ILIKE ${like})`);
  }
  const expiry = q.expiry;
  if (q.tab === 'expired' || expiry === 'expired') conds.push(sql<SqlBool>`${effectiveExpiry} <= ${now}::timestamptz`);
  if (expiry === 'within7Days' || expiry === 'within60Days') {
    const days = expiry === 'within7Days' ? 7 : 60;
    conds.push(
      sql<SqlBool>`(${effectiveExpiry} > ${now}::timestamptz AND ${effectiveExpiry} <= ${new Date(now.getTime() + days * MS_PER_DAY)}::timestamptz)`,
    );
  }
  if (q.specialBrand) {
    const keep =
      q.specialBrand.noProcess.length > 0
        ? sql<SqlBool>`d.terminal_id = ANY(${[...q.specialBrand.noProcess]})`
        : sql<SqlBool>`false`;
    const cutoff = new Date(now.getTime() - OFFLINE_HIDE_MS);
    // Hidden: not activated, or offline with the last report ≥ 3 days ago (or never).
    conds.push(
      sql<SqlBool>`(${keep} OR (d.activated_at IS NOT NULL AND (s.online OR ${lastReport} > ${cutoff}::timestamptz)))`,
    );
  }
  return conds;
}

function segmentsFor(tab: ListTab): Segment[] {
  switch (tab) {
    case 'all':
    case 'expired':
      return SEGMENTS;
    case 'online':
    case 'offline':
    case 'unactivated':
      return SEGMENTS.filter((s) => s.tab === tab);
    case 'unknown':
      // Every device is online, offline or not activated: the unknown tab is always empty here.
      return [];
  }
}

function fromClause(joinState: boolean) {
  return joinState
    ? sql`devices d JOIN device_state s ON s.device_id = d.id`
    : sql`devices d LEFT JOIN device_state s ON s.device_id = d.id`;
}

/** One row of the list as read from the database (presenter.ts shapes it for the API). */
export interface DeviceListDbRow {
  id: string;
  terminal_id: string;
  nickname: string;
  sim: string;
  iccid: string;
  car_number: string;
  icon_type: number;
  device_type: number;
  protocol: number;
  time_zone: number;
  host: string;
  has_picture: boolean;
  service_term: number | null;
  activated_at: Date | null;
  platform_expire_at: Date | null;
  user_expire_at: Date | null;
  expire_manual: boolean;
  user_id: string | null;
  owner_username: string | null;
  owner_nickname: string | null;
  owner_role: number | null;
  owner_path: string | null;
  online: boolean | null;
  pos_time: Date | null;
  last_seen: Date | null;
  state_time: Date | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  location_type: string | null;
  battery: number | null;
  acc: boolean | null;
}

const rowColumns = sql`d.id, d.terminal_id, d.nickname, d.sim, d.iccid, d.car_number, d.icon_type, d.device_type,
  d.protocol, d.time_zone, d.host, (d.picture IS NOT NULL) AS has_picture, d.service_term, d.activated_at,
  d.platform_expire_at, d.user_expire_at, d.expire_manual, d.user_id,
  u.username AS owner_username, u.nickname AS owner_nickname, u.role AS owner_role, u.path AS owner_path,
  s.online, s.pos_time, s.last_seen, s.state_time, s.lat, s.lon, s.speed, s.course, s.location_type, s.battery, s.acc`;

/** Pages ending within this many rows are read segment by segment; longer reads sort once (bulk). */
export const WALK_LIMIT = 2000;

/**
 * Rows offset .. offset+limit-1 of the ordered list. Near the top the segments are read in order, each only
 * as far as the page needs (the first page reads whole rows at once; later pages first find their ids, then
 * read whole rows for those ids). Deeper pages sort the ids once in SQL (bulk) and read whole rows for the page.
 */
export async function listPage(
  ctx: Pick<AppContext, 'db'>,
  q: DeviceListQuery,
  offset: number,
  limit: number,
  opts: { walkLimit?: number } = {},
): Promise<DeviceListDbRow[]> {
  const need = offset + limit;
  if (need > (opts.walkLimit ?? WALK_LIMIT)) {
    return deviceRowsByIds(ctx, await orderedIdsBulk(ctx, q, offset, limit));
  }
  const narrow = offset > 0;
  const found: (DeviceListDbRow | { id: string })[] = [];
  const common = commonConds(q);
  for (const seg of segmentsFor(q.tab)) {
    const want = need - found.length;
    if (want <= 0) break;
    const where = and([seg.cond(q.now), ...common]);
    const columns = narrow ? sql`d.id` : rowColumns;
    const owner = narrow ? sql`` : sql`LEFT JOIN users u ON u.id = d.user_id`;
    const res = await sql<DeviceListDbRow>`SELECT ${columns} FROM ${fromClause(seg.joinState)} ${owner}
      WHERE ${where} ORDER BY ${sql.join(seg.order)} LIMIT ${want}`.execute(ctx.db);
    for (const r of res.rows) found.push(r);
  }
  const page = found.slice(offset, need);
  if (!narrow || page.length === 0) return page as DeviceListDbRow[];
  return deviceRowsByIds(
    ctx,
    page.map((r) => r.id),
  );
}

/** The tab as one condition (the bulk reads filter and sort in one statement). */
function tabCond(tab: ListTab): Cond {
  switch (tab) {
    case 'all':
    case 'expired':
      return sql<SqlBool>`true`;
    case 'online':
      return sql<SqlBool>`(d.activated_at IS NOT NULL AND s.online)`;
    case 'offline':
      return sql<SqlBool>`(d.activated_at IS NOT NULL AND NOT COALESCE(s.online, false))`;
    case 'unactivated':
      return sql<SqlBool>`d.activated_at IS NULL`;
    case 'unknown':
      return sql<SqlBool>`false`;
  }
}

/**
 * The whole order of the segments as two sort keys of one statement. The first packs the segment (online 1
 * moving, 2 stopped, 3 no position; 4 offline; 8 not activated) and the time that orders it inside the segment
 * (fix time online, last report offline; newest first, none last) into one float8, which sorts much faster
 * than separate keys: segment × 10^14 + (5×10^13 − epoch ms), or + 9×10^13 without a time. Exact for times
 * up to the year 3500 (epoch ms < 5×10^13); the gateway keeps far-future fixes out. The second key is the IMEI
 * in code-point order, as the domain compares strings.
 */
function orderKeys(now: Date) {
  // COALESCE: a device without a device_state row is offline (NULL would fall through the CASEs).
  const online = sql`(d.activated_at IS NOT NULL AND COALESCE(s.online, false))`;
  const segment = sql`CASE WHEN d.activated_at IS NULL THEN 8 WHEN NOT ${online} THEN 4
    WHEN NOT ${validPosition} THEN 3 WHEN ${movingCond(now)} THEN 1 ELSE 2 END`;
  const time = sql`CASE WHEN d.activated_at IS NULL THEN NULL WHEN NOT ${online} THEN ${lastReport}
    WHEN ${validPosition} THEN s.pos_time END`;
  const key = sql`(${segment}) * 1e14::float8 + COALESCE(5e13::float8 - date_part('epoch', ${time}) * 1000, 9e13::float8)`;
  return [key, byImei];
}

/** Sorting 100,000 rows needs more than the default 4 MB of sort memory to stay off the disk. */
const BULK_WORK_MEM_SQL = `SET LOCAL work_mem = '64MB'`;
const BULK_WORK_MEM = sql.raw(BULK_WORK_MEM_SQL);

async function orderedIdsBulk(
  ctx: Pick<AppContext, 'db'>,
  q: DeviceListQuery,
  offset: number,
  limit: number,
): Promise<string[]> {
  const where = and([tabCond(q.tab), ...commonConds(q)]);
  return ctx.db.transaction().execute(async (trx) => {
    await BULK_WORK_MEM.execute(trx);
    const res = await sql<{ id: string }>`SELECT d.id FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
      WHERE ${where} ORDER BY ${sql.join(orderKeys(q.now))} OFFSET ${offset} LIMIT ${limit}`.execute(trx);
    return res.rows.map((r) => r.id);
  });
}

export { DEVICE_ROW_FIELDS } from '@carhere/domain';

/** One page of the list in the 'rows' format, as JSON text written by the database. */
export interface DeviceRowsJson {
  /** The JSON array of row tuples ('[[1,"86…",…],…]'). */
  rows: string;
  /** Rows in this page. */
  count: number;
  /** True when rows follow this page. */
  hasMore: boolean;
  /** Rows of the whole list when this page shows where it ends (no more rows, and not past the end); else null. */
  total: number | null;
}

/** Epoch milliseconds as JSON text (a number, or null); date_part gives float8 (extract's numeric is slower). */
const msJson = (column: RawBuilder<unknown>) =>
  sql`COALESCE(round(date_part('epoch', ${column}) * 1000)::int8::text, 'null')`;
/** A float as JSON text: NULL, NaN and ±Infinity (not JSON numbers) become null. */
const floatJson = (column: RawBuilder<unknown>) =>
  sql`CASE WHEN abs(${column}) <= 1e308 THEN ${column}::text ELSE 'null' END`;
/** A text as a JSON string (to_json escapes; most names and plates are empty, which skips it). */
const textJson = (column: RawBuilder<unknown>) =>
  sql`CASE WHEN ${column} = '' THEN '""' ELSE to_json(${column})::text END`;

/**
 * One row of the list as the JSON text of its tuple without the brackets (fields as DEVICE_ROW_FIELDS). Every
 * part is non-null text, so || (cheaper than concat_ws) never yields NULL.
 */
const rowJson = sql`d.id::text || ',' || to_json(d.terminal_id)::text || ',' || ${textJson(sql`d.nickname`)} || ','
  || ${textJson(sql`d.car_number`)} || CASE WHEN d.activated_at IS NULL THEN ',2,' WHEN s.online THEN ',0,' ELSE ',1,' END
  || ${msJson(effectiveExpiry)} || ',' || d.icon_type::text || ',' || d.device_type::text || ','
  || COALESCE(d.user_id::text, 'null') || ',' || ${floatJson(sql`s.lat`)} || ',' || ${floatJson(sql`s.lon`)} || ','
  || ${floatJson(sql`s.speed`)} || ',' || ${floatJson(sql`s.course`)} || ',' || ${msJson(sql`s.pos_time`)} || ','
  || ${msJson(sql`s.last_seen`)}`;

/**
 * Rows offset .. offset+limit-1 of the ordered list in the 'rows' wire format, written as JSON text by the
 * database in one statement: one sort, and one text value back instead of a row per device (for 100,000
 * devices the driver's decoding of rows and the JSON encoding in this process cost more than the query).
 * The page reads one row more than asked to know whether more follow; the aggregate leaves that row out by its
 * rank and joins the rows in the list order (the rank window reuses the page's sort; PostgreSQL 16 and later,
 * PGlite among them, see the aggregate's input is in that order already, 15 sorts it again, which only checks).
 */
export async function listRowsJson(
  ctx: Pick<AppContext, 'db' | 'dbHandle'>,
  q: DeviceListQuery,
  offset: number,
  limit: number,
): Promise<DeviceRowsJson> {
  const where = and([tabCond(q.tab), ...commonConds(q)]);
  const [key, imei] = orderKeys(q.now);
  const query = sql`SELECT count(*)::int AS count,
      string_agg(t.r, '],[' ORDER BY t.k, t.i) FILTER (WHERE t.n <= ${limit}) AS rows
    FROM (SELECT p.r, p.k, p.i, row_number() OVER (ORDER BY p.k, p.i) AS n
      FROM (SELECT ${rowJson} AS r, ${key} AS k, ${imei} AS i
        FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
        WHERE ${where} ORDER BY ${key}, ${imei} OFFSET ${offset} LIMIT ${limit + 1}) p) t`.compile(ctx.db);
  const client = await ctx.dbHandle.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(BULK_WORK_MEM_SQL);
    const res = await client.query<{ count: number; rows: string | null }>({
      text: query.sql,
      values: [...query.parameters],
    });
    await client.query('COMMIT');
    const { count: read, rows } = res.rows[0];
    const hasMore = read > limit;
    const count = Math.min(read, limit);
    return {
      rows: rows === null ? '[]' : `[[${rows}]]`,
      count,
      hasMore,
      total: hasMore || (count === 0 && offset > 0) ? null : offset + count,
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Whole rows for these device ids, in the order given (missing ids are skipped). */
export async function deviceRowsByIds(ctx: Pick<AppContext, 'db'>, ids: readonly string[]): Promise<DeviceListDbRow[]> {
  if (ids.length === 0) return [];
  const res = await sql<DeviceListDbRow>`SELECT ${rowColumns}
    FROM devices d LEFT JOIN device_state s ON s.device_id = d.id LEFT JOIN users u ON u.id = d.user_id
    WHERE d.id = ANY(${[...ids]}::bigint[])`.execute(ctx.db);
  const byId = new Map(res.rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is DeviceListDbRow => r !== undefined);
}

/** One device row by id, in the same shape as the list's rows. */
export async function deviceRowById(ctx: Pick<AppContext, 'db'>, id: string): Promise<DeviceListDbRow | undefined> {
  const res = await sql<DeviceListDbRow>`SELECT ${rowColumns}
    FROM devices d LEFT JOIN device_state s ON s.device_id = d.id LEFT JOIN users u ON u.id = d.user_id
    WHERE d.id = ${id}`.execute(ctx.db);
  return res.rows[0];
}

export interface TabCountsRow {
  all: number;
  online: number;
  offline: number;
  unactivated: number;
  expired: number;
  unknown: number;
}

/** Counts per tab for the same scope, keyword, expiry filter and special-brand rule (tab ignored). */
export async function tabCounts(ctx: Pick<AppContext, 'db'>, q: DeviceListQuery): Promise<TabCountsRow> {
  const where = and(commonConds({ ...q, tab: 'all' }));
  if (q.specialBrand) {
    // The special-brand rule reads the last state: one pass over devices and their states.
    const res = await sql<TabCountsRow>`SELECT
        count(*)::int AS all,
        (count(*) FILTER (WHERE d.activated_at IS NOT NULL AND s.online))::int AS online,
        (count(*) FILTER (WHERE d.activated_at IS NOT NULL AND NOT COALESCE(s.online, false)))::int AS offline,
        (count(*) FILTER (WHERE d.activated_at IS NULL))::int AS unactivated,
        (count(*) FILTER (WHERE ${effectiveExpiry} <= ${q.now}::timestamptz))::int AS expired,
        0 AS unknown
      FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
      WHERE ${where}`.execute(ctx.db);
    return res.rows[0];
  }
  // Otherwise two cheaper reads side by side: the device rows alone (all, not activated, expired), and the
  // online devices (the partial index of online states joined to their devices). Offline is the difference.
  const [own, online] = await Promise.all([
    sql<{ all: number; activated: number; unactivated: number; expired: number }>`SELECT
        count(*)::int AS all,
        (count(*) FILTER (WHERE d.activated_at IS NOT NULL))::int AS activated,
        (count(*) FILTER (WHERE d.activated_at IS NULL))::int AS unactivated,
        (count(*) FILTER (WHERE ${effectiveExpiry} <= ${q.now}::timestamptz))::int AS expired
      FROM devices d WHERE ${where}`.execute(ctx.db),
    sql<{ online: number }>`SELECT count(*)::int AS online
      FROM device_state s JOIN devices d ON d.id = s.device_id
      WHERE s.online AND d.activated_at IS NOT NULL AND ${where}`.execute(ctx.db),
  ]);
  const o = own.rows[0];
  const n = online.rows[0].online;
  return {
    all: o.all,
    online: n,
    offline: o.activated - n,
    unactivated: o.unactivated,
    expired: o.expired,
    unknown: 0,
  };
}
