// Typed calls of the device-management screens (/api/device/*; apps/server/src/modules/device).
import { api } from '../../api/client.ts';
import type { Job } from '../agent/api.ts';
import { clientState } from '../custself/clientState.ts';
import { type DeviceListRow, type DeviceRowsPage, decodeDeviceRows } from './deviceRows.ts';

export type DeviceTab = 'all' | 'online' | 'offline' | 'unactivated' | 'expired';
export type ExpiryFilter = 'all' | 'within7Days' | 'within60Days' | 'expired';

/** A device list item (spec §3). */
export interface DeviceItem {
  id: string;
  terminalID: string;
  displayName: string;
  nickname: string;
  carNumber: string;
  telephone: string;
  iccid: string;
  state: 'zx' | 'lx' | 'wjh';
  expire: string | null;
  platformExpireAt: string | null;
  userExpireAt: string | null;
  expireManual: boolean;
  activatedAt: string | null;
  serviceTerm: number | null;
  carIconState: string;
  markerIcon: number;
  runState: number;
  timeZone: number;
  host: string;
  hasPicture: boolean;
  device: { deviceType: number; iconType: number; protocol: number };
  location: {
    lat: number | null;
    lon: number | null;
    speed: number | null;
    course: number | null;
    stateTime: string | null;
    utcTime: string | null;
    deviceProtocol: number;
  } | null;
  user_id: string | null;
  username: string | null;
  realname: string | null;
  role: number | null;
  ancestors: string | null;
}

export interface TabCounts {
  all: number;
  online: number;
  offline: number;
  unactivated: number;
  expired: number;
  unknown: number;
}

export interface DeviceListFilter {
  userId: string;
  includeChildren: boolean;
  tab: DeviceTab;
  expiry: ExpiryFilter;
  keyword: string;
}

export interface DevicePage {
  pageNum: number;
  pageSize: number;
  list: DeviceItem[];
  hasMore: boolean;
  total: number | null;
  counts: TabCounts | null;
}

export interface BatchResult {
  success: number;
  failed: { terminalID: string; message: string }[];
  /** A sale as device accounts: each new account's one-time password (shown once). */
  accounts?: { terminalID: string; username: string; password: string }[];
}

export interface BatchLimits {
  devicesPerOperation: number;
  devicesPerExport: number;
  agentsPerExport: number;
  daysPerExport: number;
  devicesPerImport: number;
}

export interface DeviceImportResult {
  success: number;
  failure: number;
  unqualified: number;
  noFactoryTest: number;
  notPreset: number;
  alreadyStocked: number;
  imported: string[];
  rejected: { terminalID: string; reason: string; message: string }[];
}

function filterBody(f: DeviceListFilter) {
  // Special-brand agents (spec §6): an IMEI searched for joins the no-process set (session key nis), so a
  // device the rule hides shows when asked for, here and on the monitor; the server ignores it for others.
  const keyword = f.keyword.trim();
  if (/^[0-9A-Za-z]{10,15}$/.test(keyword)) clientState.addNis(keyword);
  const nis = clientState.nis();
  return {
    userId: f.userId,
    includeChildren: f.includeChildren,
    tab: f.tab,
    expiry: f.expiry,
    ...(keyword ? { keyword } : {}),
    ...(nis.length > 0 ? { noProcess: nis } : {}),
  };
}

/** The device list page; the caller passes the query's signal so a superseded request is cancelled. */
export const findDevices = (f: DeviceListFilter, pageNum: number, pageSize: number, signal?: AbortSignal) =>
  api<DevicePage>('/device/findByUserId', { ...filterBody(f), pageNum, pageSize }, { signal });
/** Most rows one 'rows' page holds: the whole list of a large agent at once. */
export const ALL_ROWS_MAX = 100_000;
/**
 * The whole ordered list (up to ALL_ROWS_MAX devices) in the lean 'rows' format, decoded; cancellable like
 * findDevices.
 */
export async function findAllDevices(
  f: DeviceListFilter,
  signal?: AbortSignal,
): Promise<{ rows: DeviceListRow[]; total: number | null; hasMore: boolean }> {
  const page = await api<DeviceRowsPage>(
    '/device/findByUserId',
    { ...filterBody(f), pageNum: 1, pageSize: ALL_ROWS_MAX, format: 'rows' },
    { signal },
  );
  return { rows: decodeDeviceRows(page), total: page.total, hasMore: page.hasMore };
}
export const countDevices = (f: DeviceListFilter, signal?: AbortSignal) =>
  api<TabCounts>('/device/countByUserId', filterBody(f), { signal });
export const findDevice = (id: string) => api<DeviceItem & { picture: string | null }>('/device/findById', { id });
export const batchLimits = () => api<BatchLimits>('/device/limits', undefined, { method: 'GET' });

export interface DevicePatch {
  nickname?: string;
  sim?: string;
  iccid?: string;
  carNumber?: string;
  iconType?: number;
  timeZone?: number;
  picture?: string | null;
}
export const updateDevice = (id: string, patch: DevicePatch) => api<{ id: string }>('/device/update', { id, ...patch });

export const transferDevices = (terminalIDs: string[], userId: string) =>
  api<BatchResult>('/device/transfer', { terminalIDs, userId });
export const sellDevices = (terminalIDs: string[], target: { userId: string } | { asDeviceAccounts: true }) =>
  api<BatchResult>('/device/userSale', { terminalIDs, ...target });
export const resetDevices = (terminalIDs: string[]) => api<BatchResult>('/device/reset', { terminalIDs });
export const setExpiry = (
  terminalIDs: string[],
  change: { platformExpireAt?: string | null; userExpireAt?: string | null },
) => api<BatchResult>('/device/updateTime', { terminalIDs, ...change });
export const setServiceTerm = (terminalIDs: string[], serviceTerm: number) =>
  api<BatchResult>('/device/updateExpireType', { terminalIDs, serviceTerm });
export const recalculateExpiry = (terminalIDs: string[]) => api<BatchResult>('/device/resetExpire', { terminalIDs });
export const setField = (
  path: '/device/updateIconType' | '/device/updateZone' | '/device/updateHost' | '/device/updateDevicesType',
  terminalIDs: string[],
  value: number | string,
) => api<BatchResult>(path, { terminalIDs, value });
export const sendCommands = (terminalIDs: string[], content: string) =>
  api<{ terminalID: string; result: number | null; status: string; message: string }[]>('/command/addBatch', {
    terminalIDs,
    content,
  });

/** Starts a device import; imports have no request timeout (spec §7). */
export const importDevices = (body: {
  userId: string;
  text: string;
  protocol: number;
  deviceType: number;
  serviceTerm?: number | null;
  iconType?: number;
}) => api<Job<DeviceImportResult>>('/device/import', body, { timeoutMs: 0 });
export const deviceImportJob = (id: string) =>
  api<Job<DeviceImportResult>>(`/device/importJob?id=${encodeURIComponent(id)}`, undefined, { method: 'GET' });

/** A device's speed limit (km/h; overspeed: above it for `overspeedSeconds`), issue 13 / spec §9. */
export interface SpeedLimit {
  terminalID: string;
  speedLimit: number;
  defaultSpeedLimit: number;
  min: number;
  max: number;
  overspeedSeconds: number;
}

export const findSpeedLimit = (deviceId: string) => api<SpeedLimit>('/device/speedLimit', { deviceId });
export const updateSpeedLimit = (deviceId: string, speedLimit: number) =>
  api<SpeedLimit>('/device/updateSpeedLimit', { deviceId, speedLimit });
