// Typed calls of the statistics screens (issue 13's API: /api/stat/*, /api/stay/find). Instants go out as
// ISO-8601, come back as ISO-8601 UTC; distances are metres, speeds km/h. Paged answers are {total, list}.
import { STATISTICS_PAGE_SIZE } from '@carhere/domain';
import i18n from 'i18next';
import { ApiFailure, api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { clientState } from '../custself/clientState.ts';

/** Which devices: chosen devices, or an account (with or without its sub-accounts), or (empty) the caller's subtree. */
export interface Scope {
  terminalIDs?: string[];
  userId?: string;
  children?: boolean;
}

export interface Range {
  begin: number;
  end: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const window = (range: Range) => ({ startTime: iso(range.begin), endTime: iso(range.end) });

/** The server's scope fields: devices win over an account; nothing means the caller's own subtree. */
export function scopeBody(scope: Scope): Record<string, unknown> {
  if (scope.terminalIDs && scope.terminalIDs.length > 0) return { terminalIDs: scope.terminalIDs };
  if (scope.userId) return { userId: scope.userId, children: scope.children ?? true, ...noProcessBody() };
  return noProcessBody();
}

/**
 * Special-brand agents (spec §6): the no-process set (session key nis) goes with account-wide requests, so the
 * devices the device list spares are counted and exported too; the server ignores it for other callers.
 */
function noProcessBody(): { noProcess?: string[] } {
  const nis = clientState.nis();
  return nis.length > 0 ? { noProcess: nis } : {};
}

/** A list answer, paged ({total, list}) or bare. */
function listOf<T>(answer: Page<T> | T[] | null | undefined): T[] {
  if (Array.isArray(answer)) return answer;
  return answer?.list ?? [];
}

// A type, not an interface: the domain's sumStatisticsPerDay takes rows with an index signature.
export type DayRow = {
  terminalID: string;
  displayName: string;
  /** 'YYYY-MM-DD' in the owner's time zone. */
  statsticDate: string;
  mileage: number;
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
};

/** One row per device per day, all of them in one request (spec §9: statistics page size 100000). */
export async function findDays(scope: Scope, range: Range, signal?: AbortSignal): Promise<DayRow[]> {
  const answer = await api<Page<DayRow>>(
    '/stat/find',
    { ...scopeBody(scope), ...window(range), pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return listOf(answer);
}

export interface AlarmCount {
  terminalID: string;
  displayName: string;
  alarmType: number;
  count: number;
}

interface RawAlarmCount {
  terminalID: string;
  displayName?: string;
  alarmType?: number;
  code?: number;
  type?: number;
  count?: number;
  total?: number;
}

/** Alarm counts per device and alarm code over the range. */
export async function findAlarmCounts(scope: Scope, range: Range, signal?: AbortSignal): Promise<AlarmCount[]> {
  const answer = await api<Page<RawAlarmCount> | RawAlarmCount[]>(
    '/stat/alarms',
    { ...scopeBody(scope), ...window(range) },
    { signal },
  );
  return listOf(answer).map((r) => ({
    terminalID: r.terminalID,
    displayName: r.displayName ?? r.terminalID,
    alarmType: Number(r.alarmType ?? r.code ?? r.type ?? 0),
    count: Number(r.count ?? r.total ?? 0),
  }));
}

export interface Stay {
  terminalID: string;
  startTime: string;
  endTime: string;
  seconds: number;
  lat: number;
  lon: number;
  accOnSeconds: number;
  /** The nearest populated place in the user's language ('' far from any). */
  address: string;
}

export async function findStays(
  terminalID: string,
  range: Range,
  minSeconds: number,
  signal?: AbortSignal,
): Promise<Stay[]> {
  const answer = await api<Page<Stay> | Stay[]>(
    '/stay/find',
    { terminalIDs: [terminalID], ...window(range), minSeconds },
    { signal },
  );
  return listOf(answer);
}

export interface Trip {
  terminalID: string;
  startTime: string;
  endTime: string;
  startLat: number | null;
  startLon: number | null;
  endLat: number | null;
  endLon: number | null;
  /** metres */
  distance: number;
  seconds: number;
  avgSpeed: number;
  maxSpeed: number;
  /** The driver at the trip's start ('' when none known). */
  driver: string;
  /** The places of the start and end ('' far from any). */
  startAddress: string;
  endAddress: string;
}

type RawTrip = Partial<Trip> & {
  terminalID: string;
  startTime: string;
  endTime: string;
  start?: { lat?: number; lon?: number };
  end?: { lat?: number; lon?: number };
  mileage?: number;
  averageSpeed?: number;
};

export async function findTrips(terminalID: string, range: Range, signal?: AbortSignal): Promise<Trip[]> {
  const answer = await api<Page<RawTrip> | RawTrip[]>(
    '/stat/trips',
    { terminalIDs: [terminalID], ...window(range) },
    { signal },
  );
  return listOf(answer).map((r) => ({
    terminalID: r.terminalID,
    startTime: r.startTime,
    endTime: r.endTime,
    startLat: r.startLat ?? r.start?.lat ?? null,
    startLon: r.startLon ?? r.start?.lon ?? null,
    endLat: r.endLat ?? r.end?.lat ?? null,
    endLon: r.endLon ?? r.end?.lon ?? null,
    distance: Number(r.distance ?? r.mileage ?? 0),
    seconds: Number(r.seconds ?? (Date.parse(r.endTime) - Date.parse(r.startTime)) / 1000),
    avgSpeed: Number(r.avgSpeed ?? r.averageSpeed ?? 0),
    maxSpeed: Number(r.maxSpeed ?? 0),
    driver: r.driver ?? '',
    startAddress: r.startAddress ?? '',
    endAddress: r.endAddress ?? '',
  }));
}

export type PastDueFilter = 'all' | '7d' | '60d' | 'expired';

export interface PastDueRow {
  terminalID: string;
  displayName: string;
  /** Owner account's name, when the server sends it. */
  userName: string;
  /** Platform expiry, ISO-8601; null: none. */
  platformExpire: string | null;
  /** User expiry, ISO-8601; null: none. */
  userExpire: string | null;
}

type RawPastDue = Partial<PastDueRow> & {
  terminalID: string;
  username?: string;
  nickname?: string;
  platformExpireTime?: string | null;
  userExpireTime?: string | null;
};

export async function findPastDue(
  userId: string | undefined,
  filter: PastDueFilter,
  signal?: AbortSignal,
): Promise<PastDueRow[]> {
  const answer = await api<Page<RawPastDue> | RawPastDue[]>(
    '/stat/pastDue',
    { ...(userId ? { userId } : {}), filter, ...noProcessBody(), pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return listOf(answer).map((r) => ({
    terminalID: r.terminalID,
    displayName: r.displayName ?? r.terminalID,
    userName: r.userName ?? r.nickname ?? r.username ?? '',
    platformExpire: r.platformExpireTime ?? r.platformExpire ?? null,
    userExpire: r.userExpireTime ?? r.userExpire ?? null,
  }));
}

/**
 * The reports countExport can write: the server's export kinds (POST /stat/export {kind, ...that endpoint's
 * parameters}), each the answer of one statistics endpoint.
 */
export const EXPORT_REPORTS = [
  'find',
  'findAllMileage',
  'alarms',
  'stays',
  'trips',
  'fenceVisits',
  'pastDue',
  'battery',
] as const;
export type ExportReport = (typeof EXPORT_REPORTS)[number];

export interface ExportJob {
  jobId: string;
  kind: string;
  /** queued | running | done | failed */
  state: 'queued' | 'running' | 'done' | 'failed';
  /** 0..1 */
  progress: number;
  /** rows written */
  rows: number;
  error: string | null;
}

export const startExport = (kind: ExportReport, body: Record<string, unknown>) =>
  api<{ jobId: string }>('/stat/export', { kind, ...body });

export const exportJob = (jobId: string, signal?: AbortSignal) =>
  api<ExportJob>(`/stat/export/progress?jobId=${encodeURIComponent(jobId)}`, undefined, { method: 'GET', signal });

/** Fetches a finished export's xlsx through the session cookie and saves it. */
export async function downloadExport(jobId: string, fileName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`/api/stat/export/download?jobId=${encodeURIComponent(jobId)}`, {
      credentials: 'same-origin',
      headers: { lang: i18n.language || 'cn' },
    });
  } catch {
    throw new ApiFailure(i18n.t('common:error.network'), 'network');
  }
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('spreadsheet')) {
    const message = await res
      .json()
      .then((j: { meta?: { message?: string } }) => j.meta?.message)
      .catch(() => undefined);
    throw new ApiFailure(message || i18n.t('common:error.server'), 'server');
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Per account totals over the range (each account's whole subtree): /stat/findByUserIds. */
export interface UserTotals {
  userId: string;
  username: string;
  nickname: string;
  deviceCount: number;
  mileage: number;
  runSeconds: number;
  stopCount: number;
  engineSeconds: number;
  idleSeconds: number;
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
}

export async function findUserTotals(userIds: string[], range: Range, signal?: AbortSignal): Promise<UserTotals[]> {
  if (userIds.length === 0) return [];
  const answer = await api<Page<UserTotals>>(
    '/stat/findByUserIds',
    { userIds, ...window(range), pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return listOf(answer);
}

/** Fence visits: entry, exit (null: inside at the range's start / end) and time inside (/stat/fenceVisits). */
export interface FenceVisit {
  terminalID: string;
  displayName: string;
  fenceId: string;
  fenceName: string;
  enterTime: string | null;
  exitTime: string | null;
  seconds: number;
}

export async function findFenceVisits(scope: Scope, range: Range, signal?: AbortSignal): Promise<FenceVisit[]> {
  const answer = await api<Page<FenceVisit>>(
    '/stat/fenceVisits',
    { ...scopeBody(scope), ...window(range), pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return listOf(answer);
}

/** A device's last battery state (/stat/battery). */
export interface BatteryRow {
  terminalID: string;
  displayName: string;
  /** % */
  battery: number | null;
  /** pack voltage, V */
  voltage: number | null;
  state: 'charging' | 'discharging' | 'idle' | null;
  hasPack: boolean;
  time: string | null;
  low: boolean;
}

export async function findBattery(
  scope: Scope,
  threshold: number,
  signal?: AbortSignal,
): Promise<{ list: BatteryRow[]; lowCount: number }> {
  const answer = await api<{ total: number; lowCount: number; list: BatteryRow[] }>(
    '/stat/battery',
    { ...scopeBody(scope), threshold, pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return { list: answer?.list ?? [], lowCount: answer?.lowCount ?? 0 };
}

export interface BatteryAlarmDay {
  statsticDate: string;
  type: number;
  count: number;
}

export async function findBatteryAlarms(scope: Scope, range: Range, signal?: AbortSignal): Promise<BatteryAlarmDay[]> {
  const answer = await api<Page<BatteryAlarmDay>>(
    '/stat/batteryAlarms',
    { ...scopeBody(scope), ...window(range), pageNum: 1, pageSize: STATISTICS_PAGE_SIZE },
    { signal },
  );
  return listOf(answer);
}

/** A device's battery pack (spec §3 battery: voltage, current, percentage, temperature, use count, state). */
export interface BatteryPack {
  voltage: number | null;
  current: number | null;
  percentage: number | null;
  temperature: number | null;
  useCount: number | null;
  state: string;
}

export async function findBatteryPack(
  terminalID: string,
  signal?: AbortSignal,
): Promise<{ time: string | null; battery: number | null; pack: BatteryPack | null }> {
  const answer = await api<{ time: string | null; battery: number | null; pack: BatteryPack | null }>(
    '/battery',
    { terminalID },
    { signal },
  );
  return { time: answer?.time ?? null, battery: answer?.battery ?? null, pack: answer?.pack ?? null };
}
