import { describe, expect, it } from 'vitest';
import {
  ACCESS_CHECK,
  type CarIconState,
  carIconState,
  checkDeviceAccess,
  type DeviceStatus,
  effectiveExpiry,
  FAST_SPEED_KMH,
  isExpired,
  isValidPosition,
  MAP_STATE_CODES,
  mapStateCode,
  movementState,
  OVERSPEED_KMH,
  RUNNING_STATE_CODES,
  runningStateCode,
  STOP_MAX_SPEED_KMH,
  STOP_POSITION_AGE_MS,
} from './deviceState.ts';

const NOW = 1_700_000_000_000;
const online = (speed: number, ageMs = 1_000, extra: Partial<DeviceStatus> = {}): DeviceStatus => ({
  state: 'zx',
  location: { lat: 22.5, lon: 114.05, speed, utcTime: NOW - ageMs },
  ...extra,
});

describe('constants', () => {
  it('pin spec §9: stop 60 s / 10 km/h, fast 60, overspeed 120', () => {
    expect(STOP_POSITION_AGE_MS).toBe(60_000);
    expect(STOP_MAX_SPEED_KMH).toBe(10);
    expect(FAST_SPEED_KMH).toBe(60);
    expect(OVERSPEED_KMH).toBe(120);
  });
});

describe('movementState', () => {
  it('speed boundaries with a fresh position', () => {
    expect(movementState(0, 0)).toBe('stop');
    expect(movementState(10, 1_000)).toBe('stop');
    expect(movementState(10.01, 1_000)).toBe('moving');
    expect(movementState(60, 1_000)).toBe('moving');
    expect(movementState(60.01, 1_000)).toBe('fast');
    expect(movementState(120, 1_000)).toBe('fast');
    expect(movementState(120.01, 1_000)).toBe('overspeed');
    expect(movementState(300, 1_000)).toBe('overspeed');
  });

  it('overspeed is reachable (the over-120 test comes before over-60)', () => {
    expect(movementState(121, 0)).toBe('overspeed');
  });

  it('age boundaries: under 60 s moves, 60 s and over is a stop', () => {
    expect(movementState(80, 59_999)).toBe('fast');
    expect(movementState(80, 60_000)).toBe('stop');
    expect(movementState(80, 60_001)).toBe('stop');
    expect(movementState(5, 60_001)).toBe('stop');
  });

  it('treats a future position (clock skew) as fresh and bad speeds as 0', () => {
    expect(movementState(50, -5_000)).toBe('moving');
    expect(movementState(Number.NaN, 0)).toBe('stop');
    expect(movementState(-30, 0)).toBe('stop');
  });
});

describe('carIconState', () => {
  it('evaluates expired first, even for a fast online device', () => {
    expect(carIconState(online(100, 1_000, { expire: NOW - 1 }), NOW)).toBe('expired');
    expect(carIconState(online(100, 1_000, { expire: NOW }), NOW)).toBe('expired');
    expect(carIconState(online(100, 1_000, { expire: NOW + 1 }), NOW)).toBe('fast');
  });

  it('then offline, whatever the position says', () => {
    expect(carIconState({ ...online(100), state: 'lx' }, NOW)).toBe('offline');
    expect(carIconState({ ...online(100), state: 'wjh' }, NOW)).toBe('offline');
    expect(carIconState({ state: undefined }, NOW)).toBe('offline');
  });

  it('then unknown when there is no valid position', () => {
    expect(carIconState({ state: 'zx' }, NOW)).toBe('unknown');
    expect(carIconState({ state: 'zx', location: null }, NOW)).toBe('unknown');
    expect(carIconState(online(50, 1_000, { location: { lat: 0, lon: 0, speed: 50, utcTime: NOW } }), NOW)).toBe(
      'unknown',
    );
  });

  it('then movement', () => {
    const cases: [number, number, CarIconState][] = [
      [5, 1_000, 'stop'],
      [30, 1_000, 'moving'],
      [90, 1_000, 'fast'],
      [130, 1_000, 'overspeed'],
      [130, 61_000, 'stop'],
    ];
    for (const [speed, age, state] of cases) expect(carIconState(online(speed, age), NOW)).toBe(state);
  });
});

describe('positions and expiry', () => {
  it('isValidPosition rejects 0,0, out-of-range and non-finite values', () => {
    const base = { lat: 1, lon: 1, speed: 0, utcTime: NOW };
    expect(isValidPosition(base)).toBe(true);
    expect(isValidPosition({ ...base, lat: 0, lon: 0 })).toBe(false);
    expect(isValidPosition({ ...base, lat: 0 })).toBe(true);
    expect(isValidPosition({ ...base, lat: 90 })).toBe(true);
    expect(isValidPosition({ ...base, lat: 90.1 })).toBe(false);
    expect(isValidPosition({ ...base, lon: -180 })).toBe(true);
    expect(isValidPosition({ ...base, lon: 180.1 })).toBe(false);
    expect(isValidPosition({ ...base, lat: Number.NaN })).toBe(false);
    expect(isValidPosition({ ...base, utcTime: Number.NaN })).toBe(false);
    expect(isValidPosition(undefined)).toBe(false);
  });

  it('isExpired: only when an expiry is set and reached', () => {
    expect(isExpired(null, NOW)).toBe(false);
    expect(isExpired(undefined, NOW)).toBe(false);
    expect(isExpired(NOW + 1, NOW)).toBe(false);
    expect(isExpired(NOW, NOW)).toBe(true);
    expect(isExpired(Number.NaN, NOW)).toBe(false);
  });

  it('effectiveExpiry takes the earlier of the set expiries', () => {
    expect(effectiveExpiry(null, null)).toBeNull();
    expect(effectiveExpiry(5, null)).toBe(5);
    expect(effectiveExpiry(undefined, 7)).toBe(7);
    expect(effectiveExpiry(9, 7)).toBe(7);
  });
});

describe('state codes', () => {
  it('map state codes 0-6', () => {
    expect(MAP_STATE_CODES).toEqual({ unknown: 0, moving: 1, fast: 2, overspeed: 3, stop: 4, offline: 5, expired: 6 });
    expect(mapStateCode('overspeed')).toBe(3);
    expect(mapStateCode(carIconState({ state: 'lx' }, NOW))).toBe(5);
  });

  it('running state codes 1-5, everything else abnormal', () => {
    expect(RUNNING_STATE_CODES).toEqual({ moving: 1, fast: 2, overspeed: 3, stop: 4, abnormal: 5 });
    expect(runningStateCode('moving')).toBe(1);
    expect(runningStateCode('fast')).toBe(2);
    expect(runningStateCode('overspeed')).toBe(3);
    expect(runningStateCode('stop')).toBe(4);
    expect(runningStateCode('offline')).toBe(5);
    expect(runningStateCode('unknown')).toBe(5);
    expect(runningStateCode('expired')).toBe(5);
  });
});

describe('checkDeviceAccess', () => {
  it('codes 1-4 with their messages', () => {
    expect(ACCESS_CHECK).toEqual({ supported: 1, inactive: 2, pastDue: 3, selectDevice: 4 });
    expect(checkDeviceAccess(null, NOW)).toEqual({ code: 4, message: 'device.selectFirst' });
    expect(checkDeviceAccess({ state: 'wjh' }, NOW)).toEqual({ code: 2, message: 'device.notActivated' });
    expect(checkDeviceAccess({ state: 'lx', expire: NOW }, NOW)).toEqual({ code: 3, message: 'device.expired' });
    expect(checkDeviceAccess({ state: 'lx', expire: NOW + 1 }, NOW)).toEqual({ code: 1 });
    expect(checkDeviceAccess(online(0), NOW)).toEqual({ code: 1 });
  });

  it('not activated wins over expired', () => {
    expect(checkDeviceAccess({ state: 'wjh', expire: NOW - 1 }, NOW).code).toBe(2);
  });
});
