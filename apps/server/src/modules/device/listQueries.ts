// The ordered device list of spec §4 in SQL, equal to the domain's sortDevices/matchesTab (a property test
// compares them). The order is cut into segments that each follow one index:
//
//   1 online, moving        (fresh valid position, speed > 10)  pos_time DESC, terminal_id
//   2 online, stopped       (valid position, not moving)        pos_time DESC, terminal_id
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
    order: [sql`s.pos_time DESC`, sql`d.terminal_id`],
  },
  {
    name: 'stopped',
    tab: 'online',
    joinState: true,
    cond: (now) => and([sql`s.online`, activated, validPosition, sql<SqlBool>`NOT ${movingCond(now)}`]),
    order: [sql`s.pos_time DESC`, sql`d.terminal_id`],
  },
  {
    name: 'noPosition',
    tab: 'online',
    joinState: true,
    cond: () => and([sql`s.online`, activated, sql<SqlBool>`NOT ${validPosition}`]),
    order: [sql`d.terminal_id`],
  },
  {
    name: 'offlineReported',
    tab: 'offline',
    joinState: true,
    cond: () => and([sql`NOT s.online`, activated, sql<SqlBool>`${lastReport} IS NOT NULL`]),
    order: [sql`${lastReport} DESC NULLS LAST`, sql`d.terminal_id`],
  },
  {
    name: 'offlineSilent',
    tab: 'offline',
    joinState: false,
    cond: () => and([activated, sql<SqlBool>`(s.device_id IS NULL OR (NOT s.online AND ${lastReport} IS NULL))`]),
    order: [sql`d.terminal_id`],
  },
  {
    name: 'unactivated',
    tab: 'unactivated',
    joinState: false,
    cond: () => sql<SqlBool>`d.activated_at IS NULL`,
    order: [sql`d.terminal_id`],
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

/**
 * Rows offset .. offset+limit-1 of the ordered list. The segments are read in order, each only as far as the
 * page needs. The first page reads whole rows at once; later pages first find their ids (narrow reads of
 * the rows before them), then read whole rows for those ids.
 */
export async function listPage(
  ctx: Pick<AppContext, 'db'>,
  q: DeviceListQuery,
  offset: number,
  limit: number,
): Promise<DeviceListDbRow[]> {
  const need = offset + limit;
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
