// The statistics answers (issue 13), shared by the API (routes.ts) and the exports (export.ts). Each checks the
// caller's reach through the device selection; ranges are instants, answers carry ISO-8601 UTC times,
// metres and km/h.
import {
  fenceVisits as buildFenceVisits,
  dayBounds,
  displayName,
  EXPIRY_FILTERS,
  type ExpiryFilter,
  findStays,
  findTrips,
  isBatteryAlarm,
  LOW_BATTERY_ALARM,
  matchesExpiryFilter,
  RAW_STAT_MAX_DAYS,
  STAT_MAX_DAYS,
} from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import { packOf } from '../battery/routes.ts';
import { driversAt } from '../custself/drivers.ts';
import { specialBrandFilter } from '../custself/specialBrand.ts';
import { type Caller, reachableUserPath } from '../location/devices.ts';
import {
  addInto,
  type DailyJsonPage,
  dailyPageJson,
  emptyTotals,
  loadDaily,
  type Totals,
  zoneGroups,
} from './daily.ts';
import { loadFixColumns } from './fixes.ts';
import { checkRange, type Selection, type StatDevice, selectDevices } from './select.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const ADMIN_ROLE = 1;

export interface Range {
  startTime: number;
  endTime: number;
}

/** One page of statFind as JSON texts (the /stat/find answer's data: daily.ts pageJsonPieces). */
export async function statFindJson(
  ctx: AppContext,
  caller: Caller,
  q: Selection & Range,
  offset: number,
  limit: number,
): Promise<DailyJsonPage> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  return dailyPageJson(
    ctx.dbHandle.pool,
    devices,
    q.startTime,
    q.endTime,
    offset,
    limit,
    ctx.dbHandle.kind === 'postgres',
  );
}

export interface DeviceTotals extends Totals {
  terminalID: string;
  displayName: string;
}

/** Per device totals over the range; devices without rows answer zeros. */
export async function findAllMileage(ctx: AppContext, caller: Caller, q: Selection & Range): Promise<DeviceTotals[]> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  const rows = await loadDaily(ctx.dbHandle.pool, devices, q.startTime, q.endTime);
  const byId = new Map<string, DeviceTotals>(
    devices.map((d) => [d.id, { terminalID: d.terminalID, displayName: d.displayName, ...emptyTotals() }]),
  );
  for (const r of rows) {
    const t = byId.get(r.deviceId);
    if (t) addInto(t, r);
  }
  return [...byId.values()];
}

export interface UserTotals extends Totals {
  userId: string;
  username: string;
  nickname: string;
  deviceCount: number;
}

/** Per account totals: each account's whole subtree (an agent compares its customers). */
export async function findByUserIds(
  ctx: AppContext,
  caller: Caller,
  q: { userIds: string[] } & Range,
): Promise<UserTotals[]> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const users = await ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'path'])
    .where('id', 'in', q.userIds)
    .execute();
  const found = new Map(users.map((u) => [String(u.id), u]));
  const out: UserTotals[] = [];
  for (const id of q.userIds) {
    const u = found.get(id);
    if (!u) throw caller.role === ADMIN_ROLE ? notFound() : noPermission();
    if (!reachesPath(caller, u.path)) throw noPermission();
  }
  for (const id of [...new Set(q.userIds)]) {
    const u = found.get(id) as (typeof users)[number];
    const devices = await selectDevices(ctx, caller, { userId: id, children: true });
    const t: UserTotals = {
      userId: id,
      username: u.username,
      nickname: u.nickname,
      deviceCount: devices.length,
      ...emptyTotals(),
    };
    for (const r of await loadDaily(ctx.dbHandle.pool, devices, q.startTime, q.endTime)) {
      addInto(t, r);
    }
    out.push(t);
  }
  return out;
}

export interface StayRow {
  terminalID: string;
  displayName: string;
  startTime: string;
  endTime: string;
  seconds: number;
  lat: number;
  lon: number;
  accOnSeconds: number;
}

/** Stays of the devices in [startTime, endTime] by the domain rule, in time order. */
export async function stays(
  ctx: AppContext,
  caller: Caller,
  q: Selection & Range & { minSeconds?: number },
): Promise<StayRow[]> {
  checkRange(q.startTime, q.endTime, RAW_STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  const out: (StayRow & { t: number })[] = [];
  for (const d of devices) {
    const cols = await loadFixColumns(ctx.dbHandle.pool, d.id, q.startTime, q.endTime + 1);
    for (const s of findStays(cols, q.minSeconds)) {
      out.push({
        t: s.start,
        terminalID: d.terminalID,
        displayName: d.displayName,
        startTime: iso(s.start),
        endTime: iso(s.end),
        seconds: s.seconds,
        lat: s.lat,
        lon: s.lon,
        accOnSeconds: s.accOnSeconds,
      });
    }
  }
  out.sort((a, b) => a.t - b.t || a.terminalID.localeCompare(b.terminalID));
  return out.map(({ t: _t, ...row }) => row);
}

export interface TripRow {
  terminalID: string;
  displayName: string;
  startTime: string;
  endTime: string;
  seconds: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  /** metres */
  distance: number;
  /** km/h */
  avgSpeed: number;
  maxSpeed: number;
  /** The driver at the trip's start ('' when none known; driver_log). */
  driver: string;
}

export async function trips(ctx: AppContext, caller: Caller, q: Selection & Range): Promise<TripRow[]> {
  checkRange(q.startTime, q.endTime, RAW_STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  const out: (TripRow & { t: number })[] = [];
  for (const d of devices) {
    const cols = await loadFixColumns(ctx.dbHandle.pool, d.id, q.startTime, q.endTime + 1);
    const found = findTrips(cols);
    const drivers = await driversAt(
      ctx.db,
      d.id,
      found.map((t) => t.start),
    );
    for (const [i, t] of found.entries()) {
      out.push({
        t: t.start,
        terminalID: d.terminalID,
        displayName: d.displayName,
        startTime: iso(t.start),
        endTime: iso(t.end),
        seconds: t.seconds,
        startLat: t.startLat,
        startLon: t.startLon,
        endLat: t.endLat,
        endLon: t.endLon,
        distance: Math.round(t.distance),
        avgSpeed: Math.round(t.avgSpeed * 10) / 10,
        maxSpeed: t.maxSpeed,
        driver: drivers[i] ?? '',
      });
    }
  }
  out.sort((a, b) => a.t - b.t || a.terminalID.localeCompare(b.terminalID));
  return out.map(({ t: _t, ...row }) => row);
}

export interface FenceVisitRow {
  terminalID: string;
  displayName: string;
  fenceId: string;
  fenceName: string;
  /** null: already inside when the range began */
  enterTime: string | null;
  /** null: still inside when the range ended */
  exitTime: string | null;
  seconds: number;
}

const FENCE_ENTER = 4;
const FENCE_EXIT = 5;

export async function fenceVisits(
  ctx: AppContext,
  caller: Caller,
  q: Selection & Range & { fenceIds?: string[] },
): Promise<FenceVisitRow[]> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  if (q.fenceIds && q.fenceIds.length > 0) {
    const fences = await ctx.db
      .selectFrom('fences as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['f.id', 'u.path'])
      .where('f.id', 'in', q.fenceIds)
      .execute();
    if (fences.length !== new Set(q.fenceIds).size) throw caller.role === ADMIN_ROLE ? notFound() : noPermission();
    for (const f of fences) if (!reachesPath(caller, f.path)) throw noPermission();
  }
  if (devices.length === 0) return [];
  const byId = new Map(devices.map((d) => [d.id, d]));
  let query = ctx.db
    .selectFrom('alarms as a')
    .innerJoin('fence_alarms as fa', 'fa.alarm_id', 'a.id')
    .select(['a.device_id', 'a.type', 'a.time', 'fa.fence_id', 'fa.fence_name'])
    .where('a.device_id', 'in', [...byId.keys()])
    .where('a.type', 'in', [FENCE_ENTER, FENCE_EXIT])
    .where('a.time', '>=', new Date(q.startTime))
    .where('a.time', '<=', new Date(q.endTime));
  if (q.fenceIds && q.fenceIds.length > 0) query = query.where('fa.fence_id', 'in', q.fenceIds);
  const rows = await query.execute();
  const names = new Map(rows.map((r) => [String(r.fence_id), r.fence_name]));
  const visits = buildFenceVisits(
    rows.map((r) => ({
      deviceKey: String(r.device_id),
      fenceKey: String(r.fence_id),
      time: r.time.getTime(),
      kind: r.type === FENCE_ENTER ? ('enter' as const) : ('exit' as const),
    })),
    q.startTime,
    q.endTime,
  );
  return visits.map((v) => {
    const d = byId.get(v.deviceKey) as StatDevice;
    return {
      terminalID: d.terminalID,
      displayName: d.displayName,
      fenceId: v.fenceKey,
      fenceName: names.get(v.fenceKey) ?? '',
      enterTime: v.enter === null ? null : iso(v.enter),
      exitTime: v.exit === null ? null : iso(v.exit),
      seconds: v.seconds,
    };
  });
}

export interface AlarmCountRow {
  terminalID: string;
  displayName: string;
  /** alarm code of the domain catalogue */
  type: number;
  count: number;
}

export interface AlarmRow {
  id: string;
  terminalID: string;
  displayName: string;
  type: number;
  name: string;
  time: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
}

/** Alarm counts per device and code, from the daily rows, ordered by terminalID then code. */
export async function alarmCounts(
  ctx: AppContext,
  caller: Caller,
  q: Selection & Range & { type?: number },
): Promise<{ devices: StatDevice[]; counts: AlarmCountRow[] }> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  const rows = await loadDaily(ctx.dbHandle.pool, devices, q.startTime, q.endTime);
  const counts = new Map<string, AlarmCountRow>();
  for (const r of rows) {
    for (const [code, n] of Object.entries(r.alarms)) {
      const type = Number(code);
      if (q.type !== undefined && type !== q.type) continue;
      const key = `${r.terminalID}\u0000${code.padStart(4, '0')}`;
      const c = counts.get(key) ?? { terminalID: r.terminalID, displayName: r.displayName, type, count: 0 };
      c.count += n;
      counts.set(key, c);
    }
  }
  return { devices, counts: [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c) };
}

/** The alarm rows behind the counts: the same devices and days (in each device's zone), newest first. */
export async function alarmRows(
  ctx: AppContext,
  devices: StatDevice[],
  q: Range & { type?: number },
  page: { offset: number; limit: number },
): Promise<{ total: number; list: AlarmRow[] }> {
  const groups = zoneGroups(devices, q.startTime, q.endTime);
  if (groups.length === 0) return { total: 0, list: [] };
  const byId = new Map(devices.map((d) => [d.id, d]));
  let query = ctx.db.selectFrom('alarms as a').where((eb) =>
    eb.or(
      groups.map((g) =>
        eb.and([
          eb(
            'a.device_id',
            'in',
            g.devices.map((d) => d.id),
          ),
          eb('a.time', '>=', new Date(dayBounds(g.first, g.devices[0].zone).start)),
          eb('a.time', '<', new Date(dayBounds(g.last, g.devices[0].zone).end)),
        ]),
      ),
    ),
  );
  if (q.type !== undefined) query = query.where('a.type', '=', q.type);
  const total = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['a.id', 'a.device_id', 'a.type', 'a.name', 'a.time', 'a.lat', 'a.lon', 'a.speed'])
    .orderBy('a.time', 'desc')
    .orderBy('a.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return {
    total: Number(total.n),
    list: rows.map((r) => {
      const d = byId.get(String(r.device_id)) as StatDevice;
      return {
        id: String(r.id),
        terminalID: d.terminalID,
        displayName: d.displayName,
        type: r.type,
        name: r.name,
        time: r.time.toISOString(),
        lat: r.lat,
        lon: r.lon,
        speed: r.speed,
      };
    }),
  };
}

export interface PastDueRow {
  terminalID: string;
  displayName: string;
  userId: string | null;
  username: string;
  platformExpireTime: string | null;
  userExpireTime: string | null;
  /** Which expiry matched the filter. */
  platformDue: boolean;
  userDue: boolean;
}

/** 'all' | '7d' | '60d' | 'expired' (the names) or the domain's filter ids. */
export const PAST_DUE_FILTERS = ['all', '7d', '60d', 'expired', 'within7Days', 'within60Days'] as const;

function expiryFilterOf(f: (typeof PAST_DUE_FILTERS)[number]): ExpiryFilter {
  return f === '7d' ? 'within7Days' : f === '60d' ? 'within60Days' : f;
}

/** Devices of an account's subtree by platform and user expiry (spec §9 expiry filters), soonest first. */
export async function pastDue(
  ctx: AppContext,
  caller: Caller,
  q: { userId?: string; filter: (typeof PAST_DUE_FILTERS)[number]; noProcess?: string[] },
  now = Date.now(),
): Promise<PastDueRow[]> {
  const user = await reachableUserPath(ctx, caller, q.userId);
  const filter = EXPIRY_FILTERS.find((f) => f.id === expiryFilterOf(q.filter)) as (typeof EXPIRY_FILTERS)[number];
  let query = ctx.db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select([
      'd.terminal_id',
      'd.nickname',
      'd.car_number',
      'd.user_id',
      'u.username',
      'd.platform_expire_at',
      'd.user_expire_at',
    ]);
  if (!(caller.role === ADMIN_ROLE && q.userId === undefined)) {
    query = query.where('u.path', 'like', `${user.path}%`);
  }
  const at = new Date(now);
  // Special-brand agents (spec §6): what their device list hides is not listed nor exported here either.
  const hide = await specialBrandFilter(ctx, caller, q.noProcess, at);
  if (hide) query = query.leftJoin('device_state as s', 's.device_id', 'd.id').where(hide);
  if (filter.id === 'expired') {
    query = query.where((eb) => eb.or([eb('d.platform_expire_at', '<=', at), eb('d.user_expire_at', '<=', at)]));
  } else if (filter.days !== null) {
    const until = new Date(now + filter.days * 86_400_000);
    query = query.where((eb) =>
      eb.or([
        eb.and([eb('d.platform_expire_at', '>', at), eb('d.platform_expire_at', '<=', until)]),
        eb.and([eb('d.user_expire_at', '>', at), eb('d.user_expire_at', '<=', until)]),
      ]),
    );
  }
  const rows = await query.orderBy('d.terminal_id').execute();
  const out = rows.map((r) => {
    const p = r.platform_expire_at ? r.platform_expire_at.getTime() : null;
    const u = r.user_expire_at ? r.user_expire_at.getTime() : null;
    return {
      soonest: Math.min(p ?? Number.POSITIVE_INFINITY, u ?? Number.POSITIVE_INFINITY),
      row: {
        terminalID: r.terminal_id,
        displayName: displayName({ terminalID: r.terminal_id, nickname: r.nickname, carNumber: r.car_number }),
        userId: r.user_id === null ? null : String(r.user_id),
        username: r.username ?? '',
        platformExpireTime: p === null ? null : iso(p),
        userExpireTime: u === null ? null : iso(u),
        platformDue: filter.id !== 'all' && matchesExpiryFilter(p, filter.id, now),
        userDue: filter.id !== 'all' && matchesExpiryFilter(u, filter.id, now),
      },
    };
  });
  out.sort((a, b) => a.soonest - b.soonest || a.row.terminalID.localeCompare(b.row.terminalID));
  return out.map((o) => o.row);
}

export interface BatteryRow {
  terminalID: string;
  displayName: string;
  /** % as last reported (the pack's state of charge when the device reports no level); null: never reported */
  battery: number | null;
  /** Pack voltage (V) when the device reports a battery pack. */
  voltage: number | null;
  /** charging | discharging | idle; null: unknown */
  state: 'charging' | 'discharging' | 'idle' | null;
  /** The device reports a battery pack (pack detail available). */
  hasPack: boolean;
  time: string | null;
  low: boolean;
}

/** Default threshold of the battery count (%), the ingest's low-battery level. */
export const BATTERY_LOW_PERCENT = 10;

/**
 * Per device the last battery level, voltage and charging state (from the battery pack when the device reports
 * one, else its charge flag); `low` when at or under the threshold. Lowest first, unknown last.
 */
export async function battery(
  ctx: AppContext,
  caller: Caller,
  q: Selection & { threshold?: number; lowOnly?: boolean },
): Promise<BatteryRow[]> {
  const devices = await selectDevices(ctx, caller, q);
  if (devices.length === 0) return [];
  const threshold = q.threshold ?? BATTERY_LOW_PERCENT;
  const states = await ctx.db
    .selectFrom('device_state')
    .select(['device_id', 'battery', 'battery_pack', 'attributes', 'last_seen'])
    .where(
      'device_id',
      'in',
      devices.map((d) => d.id),
    )
    .execute();
  const byId = new Map(states.map((s) => [String(s.device_id), s]));
  const rows = devices.map((d): BatteryRow => {
    const s = byId.get(d.id);
    const pack = s?.battery_pack ? packOf(s.battery_pack) : null;
    const attrs = (s?.attributes ?? {}) as Record<string, unknown>;
    const level = s?.battery ?? pack?.percentage ?? null;
    const charge = typeof attrs.charge === 'boolean' ? attrs.charge : null;
    return {
      terminalID: d.terminalID,
      displayName: d.displayName,
      battery: level,
      voltage: pack?.voltage ?? null,
      state: pack ? (pack.state as BatteryRow['state']) : charge === null ? null : charge ? 'charging' : 'idle',
      hasPack: pack !== null,
      time: s?.last_seen ? s.last_seen.toISOString() : null,
      low: level !== null && level <= threshold,
    };
  });
  rows.sort((a, b) => (a.battery ?? 1000) - (b.battery ?? 1000) || a.terminalID.localeCompare(b.terminalID));
  return q.lowOnly ? rows.filter((r) => r.low) : rows;
}

export interface BatteryAlarmDay {
  /** 'YYYY-MM-DD' in the owners' zone */
  statsticDate: string;
  /** alarm code: the low-battery alarms and the battery-pack alarms 50–80 */
  type: number;
  count: number;
}

/** Battery alarms per day and code over the selected devices, from the daily rows (day, then code). */
export async function batteryAlarmsPerDay(
  ctx: AppContext,
  caller: Caller,
  q: Selection & Range,
): Promise<BatteryAlarmDay[]> {
  checkRange(q.startTime, q.endTime, STAT_MAX_DAYS);
  const devices = await selectDevices(ctx, caller, q);
  const counts = new Map<string, BatteryAlarmDay>();
  for (const r of await loadDaily(ctx.dbHandle.pool, devices, q.startTime, q.endTime)) {
    for (const [code, n] of Object.entries(r.alarms)) {
      const type = Number(code);
      if (!isBatteryAlarm(type) && !LOW_BATTERY_CODES.has(type)) continue;
      const key = `${r.statsticDate} ${code.padStart(4, '0')}`;
      const c = counts.get(key) ?? { statsticDate: r.statsticDate, type, count: 0 };
      c.count += n;
      counts.set(key, c);
    }
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c);
}

/** Low-battery alarm codes of the device catalogue (14, 15 external, 18 battery). */
const LOW_BATTERY_CODES = new Set([14, 15, LOW_BATTERY_ALARM]);
