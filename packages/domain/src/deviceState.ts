import type { MessageKey } from './messages.ts';

/** A fresh position this old or older no longer counts as movement (spec §4, §9). */
export const STOP_POSITION_AGE_MS = 60_000;
/** A fresh position at this speed or slower is a stop (km/h). */
export const STOP_MAX_SPEED_KMH = 10;
/** Faster than this is 'fast' (km/h). */
export const FAST_SPEED_KMH = 60;
/** Faster than this is 'overspeed' (km/h). */
export const OVERSPEED_KMH = 120;

/** Connection state codes of a device: online zx, offline lx, not activated wjh (spec §4). */
export const DEVICE_STATE = { online: 'zx', offline: 'lx', notActivated: 'wjh' } as const;
export type DeviceStateCode = (typeof DEVICE_STATE)[keyof typeof DEVICE_STATE];

/** A last known position; times are epoch milliseconds (UTC). */
export interface DevicePosition {
  readonly lat: number;
  readonly lon: number;
  /** km/h */
  readonly speed: number;
  /** When the position was fixed. */
  readonly utcTime: number;
  /** When the device last reported anything (heartbeat, status); falls back to utcTime. */
  readonly stateTime?: number | null;
}

/** What the state rules need to know about a device. */
export interface DeviceStatus {
  /** 'zx' | 'lx' | 'wjh'; anything else counts as not online. */
  readonly state: string | null | undefined;
  /** Effective expiry (epoch ms); null or missing: never expires. */
  readonly expire?: number | null;
  readonly location?: DevicePosition | null;
}

export type MovementState = 'stop' | 'moving' | 'fast' | 'overspeed';
export type CarIconState = 'expired' | 'offline' | 'unknown' | MovementState;

/** Expired when an expiry is set and the moment has come (now ≥ expire). */
export function isExpired(expire: number | null | undefined, now: number): boolean {
  return typeof expire === 'number' && Number.isFinite(expire) && now >= expire;
}

/** The earlier of the platform and user expiries that are set; null when neither is. */
export function effectiveExpiry(platformExpire?: number | null, userExpire?: number | null): number | null {
  const set = [platformExpire, userExpire].filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  return set.length === 0 ? null : Math.min(...set);
}

/** A position is valid when both coordinates are finite, in range and not the 0,0 placeholder. */
export function isValidPosition(location: DevicePosition | null | undefined): location is DevicePosition {
  if (!location) return false;
  const { lat, lon, utcTime } = location;
  if (![lat, lon, utcTime].every(Number.isFinite)) return false;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return false;
  return !(lat === 0 && lon === 0);
}

/**
 * Movement from speed and position age (spec §4): stop when the position is 60 s old or older, or
 * fresh with speed ≤ 10 km/h; else overspeed above 120, fast above 60, otherwise moving.
 * The spec leaves exactly 60 s undefined ('under 60 s' / 'over 60 s'); we count it as old.
 */
export function movementState(speedKmh: number, positionAgeMs: number): MovementState {
  const speed = Number.isFinite(speedKmh) && speedKmh > 0 ? speedKmh : 0;
  if (!(positionAgeMs < STOP_POSITION_AGE_MS)) return 'stop';
  if (speed <= STOP_MAX_SPEED_KMH) return 'stop';
  if (speed > OVERSPEED_KMH) return 'overspeed';
  if (speed > FAST_SPEED_KMH) return 'fast';
  return 'moving';
}

/** Car icon state, evaluated in the spec's order: expired → offline → unknown (no valid position) → movement. */
export function carIconState(device: DeviceStatus, now: number): CarIconState {
  if (isExpired(device.expire, now)) return 'expired';
  if (device.state !== DEVICE_STATE.online) return 'offline';
  if (!isValidPosition(device.location)) return 'unknown';
  return movementState(device.location.speed, now - device.location.utcTime);
}

/** Map state codes (spec §4). */
export const MAP_STATE_CODES = {
  unknown: 0,
  moving: 1,
  fast: 2,
  overspeed: 3,
  stop: 4,
  offline: 5,
  expired: 6,
} as const satisfies Record<CarIconState, number>;
export type MapStateCode = (typeof MAP_STATE_CODES)[CarIconState];

export function mapStateCode(state: CarIconState): MapStateCode {
  return MAP_STATE_CODES[state];
}

/** Running state codes (spec §4); everything that is not movement is 5, abnormal. */
export const RUNNING_STATE_CODES = { moving: 1, fast: 2, overspeed: 3, stop: 4, abnormal: 5 } as const;
export type RunningStateCode = (typeof RUNNING_STATE_CODES)[keyof typeof RUNNING_STATE_CODES];

export function runningStateCode(state: CarIconState): RunningStateCode {
  switch (state) {
    case 'moving':
    case 'fast':
    case 'overspeed':
    case 'stop':
      return RUNNING_STATE_CODES[state];
    default:
      return RUNNING_STATE_CODES.abnormal;
  }
}

export type DeviceTab = 'unknown' | 'online' | 'offline' | 'unactivated' | 'expired';

/** Access-check status codes (spec §4). */
export const ACCESS_CHECK = { supported: 1, inactive: 2, pastDue: 3, selectDevice: 4 } as const;
export type AccessCheckCode = (typeof ACCESS_CHECK)[keyof typeof ACCESS_CHECK];

export interface AccessCheck {
  readonly code: AccessCheckCode;
  /** Why the device cannot be used; absent when supported. */
  readonly message?: MessageKey;
}

/**
 * Whether the selected device can be used (spec §4): no device → 4 select device, not activated → 2,
 * expired → 3 past due, otherwise 1 supported. Inactive and expired devices cannot be used normally.
 */
export function checkDeviceAccess(device: DeviceStatus | null | undefined, now: number): AccessCheck {
  if (!device) return { code: ACCESS_CHECK.selectDevice, message: 'device.selectFirst' };
  if (device.state === DEVICE_STATE.notActivated)
    return { code: ACCESS_CHECK.inactive, message: 'device.notActivated' };
  if (isExpired(device.expire, now)) return { code: ACCESS_CHECK.pastDue, message: 'device.expired' };
  return { code: ACCESS_CHECK.supported };
}
