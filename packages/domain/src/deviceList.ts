import {
  DEVICE_STATE,
  type DeviceStatus,
  type DeviceTab,
  isExpired,
  isValidPosition,
  movementState,
} from './deviceState.ts';

/** A device as the list rules see it. */
export interface DeviceListEntry extends DeviceStatus {
  readonly terminalID: string;
  readonly carNumber?: string | null;
  readonly nickname?: string | null;
}

/** Spec §3: carNumber, else nickname, else terminalID (blank values are skipped). */
export function displayName(device: Pick<DeviceListEntry, 'terminalID' | 'carNumber' | 'nickname'>): string {
  const carNumber = device.carNumber?.trim();
  if (carNumber) return carNumber;
  const nickname = device.nickname?.trim();
  if (nickname) return nickname;
  return device.terminalID;
}

/** Run-state ranks used to order online devices (spec §4): moving 1, stopped 2, no position 3, offline 4. */
export const LIST_RUN_RANK = { moving: 1, stopped: 2, noPosition: 3, offline: 4 } as const;
export type ListRunRank = (typeof LIST_RUN_RANK)[keyof typeof LIST_RUN_RANK];

export function listRunRank(device: DeviceStatus, now: number): ListRunRank {
  if (device.state !== DEVICE_STATE.online) return LIST_RUN_RANK.offline;
  if (!isValidPosition(device.location)) return LIST_RUN_RANK.noPosition;
  const movement = movementState(device.location.speed, now - device.location.utcTime);
  return movement === 'stop' ? LIST_RUN_RANK.stopped : LIST_RUN_RANK.moving;
}

/** When the device last reported: location.stateTime, else location.utcTime, else null. */
export function lastReportTime(device: DeviceStatus): number | null {
  const time = device.location?.stateTime ?? device.location?.utcTime;
  return typeof time === 'number' && Number.isFinite(time) ? time : null;
}

interface SortKey {
  /** 0 online, 1 offline (or any other state), 2 not activated. */
  readonly group: number;
  readonly rank: number;
  /** Smaller first: position age for online devices, minus the last report time for offline ones. */
  readonly order: number;
}

function sortKey(device: DeviceListEntry, now: number): SortKey {
  if (device.state === DEVICE_STATE.online) {
    const age = isValidPosition(device.location) ? now - device.location.utcTime : Number.POSITIVE_INFINITY;
    return { group: 0, rank: listRunRank(device, now), order: age };
  }
  if (device.state === DEVICE_STATE.notActivated) return { group: 2, rank: 0, order: 0 };
  const seen = lastReportTime(device);
  return { group: 1, rank: 0, order: seen === null ? Number.POSITIVE_INFINITY : -seen };
}

function compareKeys(a: SortKey, b: SortKey, terminalA: string, terminalB: string): number {
  if (a.group !== b.group) return a.group - b.group;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  return terminalA < terminalB ? -1 : terminalA > terminalB ? 1 : 0;
}

/** A sorted copy (keys computed once per device); the input is left as it is. */
export function sortDevices<T extends DeviceListEntry>(devices: readonly T[], now: number): T[] {
  const keyed = devices.map((device) => ({ device, key: sortKey(device, now) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key, a.device.terminalID, b.device.terminalID));
  return keyed.map((entry) => entry.device);
}

/**
 * Tab membership. online/offline/unactivated follow the state code and unknown holds any other code,
 * so those four split the list; expired (expiry passed) overlaps them.
 */
export function matchesTab(device: DeviceStatus, tab: DeviceTab | 'all', now: number): boolean {
  switch (tab) {
    case 'all':
      return true;
    case 'online':
      return device.state === DEVICE_STATE.online;
    case 'offline':
      return device.state === DEVICE_STATE.offline;
    case 'unactivated':
      return device.state === DEVICE_STATE.notActivated;
    case 'expired':
      return isExpired(device.expire, now);
    case 'unknown':
      return !Object.values(DEVICE_STATE).includes(device.state as never);
  }
}

export function filterByTab<T extends DeviceStatus>(devices: readonly T[], tab: DeviceTab | 'all', now: number): T[] {
  return devices.filter((device) => matchesTab(device, tab, now));
}

export type TabCounts = Record<DeviceTab | 'all', number>;

/** Count of each tab in one pass. */
export function countTabs(devices: readonly DeviceStatus[], now: number): TabCounts {
  const counts: TabCounts = { all: 0, unknown: 0, online: 0, offline: 0, unactivated: 0, expired: 0 };
  for (const device of devices) {
    counts.all++;
    if (device.state === DEVICE_STATE.online) counts.online++;
    else if (device.state === DEVICE_STATE.offline) counts.offline++;
    else if (device.state === DEVICE_STATE.notActivated) counts.unactivated++;
    else counts.unknown++;
    if (isExpired(device.expire, now)) counts.expired++;
  }
  return counts;
}

/** Special-brand agents do not see devices offline this long or longer: 3 days (spec §6, §9). */
export const OFFLINE_HIDE_AFTER_MS = 259_200_000;

/**
 * The fields of one row of the device list's 'rows' wire format, in tuple order — written by the server
 * (apps/server/src/modules/device/listQueries.ts) and decoded by the web (apps/web/src/features/device/
 * deviceRows.ts) from this one list: ids as numbers, state 0 online, 1 offline, 2 not activated,
 * times as epoch milliseconds, expire the effective expiry (the earlier of platform and user expiry).
 */
export const DEVICE_ROW_FIELDS = [
  'id',
  'terminalID',
  'nickname',
  'carNumber',
  'state',
  'expire',
  'iconType',
  'deviceType',
  'user_id',
  'lat',
  'lon',
  'speed',
  'course',
  'utcTime',
  'stateTime',
] as const;
