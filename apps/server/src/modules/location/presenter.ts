// The Location object of the API: a device with its last state (spec §3 location fields) and its map state.
import {
  carIconState,
  DEVICE_STATE,
  displayName,
  effectiveExpiry,
  mapStateCode,
  runningStateCode,
} from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

export const locationSchema = z.object({
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  /** Device model code (spec §3 location.deviceProtocol). */
  deviceProtocol: z.number(),
  /** Protocol type: 0 other, 1 808, 2 GT06, 3 808 long-standby, 4 BSJ. */
  protocolType: z.number(),
  online: z.boolean(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  altitude: z.number().nullable(),
  valid: z.boolean().nullable(),
  locationType: z.string().nullable(),
  acc: z.boolean().nullable(),
  battery: z.number().nullable(),
  mileage: z.number().nullable(),
  /** Last online/offline change. */
  stateTime: z.string().nullable(),
  /** Fix time of the position. */
  utcTime: z.string().nullable(),
  lastSeen: z.string().nullable(),
  /** 0 unknown, 1 moving, 2 fast, 3 overspeed, 4 stop, 5 offline, 6 expired */
  mapState: z.number(),
  /** 1 moving, 2 fast, 3 overspeed, 4 stop, 5 abnormal */
  runState: z.number(),
  // The device list item's own fields (spec §3), so a list does not have to infer them from the last fix.
  /** 'zx' online, 'lx' offline, 'wjh' not activated (never activated and not online). */
  state: z.enum(['zx', 'lx', 'wjh']),
  /** Effective expiry: the earlier of the platform and user expiries; null when neither is set. */
  expire: z.string().nullable(),
  /** When the device was activated; null when it never was. */
  activatedAt: z.string().nullable(),
  carNumber: z.string(),
  nickname: z.string(),
  /** The device's SIM number. */
  telephone: z.string(),
  /** 1 to 12 (the car icon image). */
  iconType: z.number(),
  /** Owner (null when the device is in stock). */
  userId: z.string().nullable(),
  username: z.string().nullable(),
  /** expired, offline, unknown, stop, moving, fast, overspeed (spec §4 car icon state). */
  carIconState: z.enum(['expired', 'offline', 'unknown', 'stop', 'moving', 'fast', 'overspeed']),
  /** The vehicle's current driver ('' when none): from a driver card (JT/T 808 0x0702) or set by hand. */
  driverName: z.string(),
  driverPhone: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

/** devices d + users u + device_state s, with every column a Location needs. */
export function locationQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .leftJoin('device_state as s', 's.device_id', 'd.id')
    .select([
      'd.id',
      'd.terminal_id',
      'd.nickname',
      'd.car_number',
      'd.sim',
      'd.icon_type',
      'd.user_id',
      'u.username',
      'd.device_type',
      'd.protocol',
      'd.activated_at',
      'd.platform_expire_at',
      'd.user_expire_at',
      's.online',
      's.lat',
      's.lon',
      's.speed',
      's.course',
      's.altitude',
      's.valid',
      's.location_type',
      's.acc',
      's.battery',
      's.mileage',
      's.state_time',
      's.pos_time',
      's.last_seen',
      'd.driver_name',
      'd.driver_phone',
    ]);
}

export interface LocationRow {
  id: string;
  terminal_id: string;
  nickname: string;
  car_number: string;
  sim: string;
  icon_type: number;
  user_id: string | null;
  username: string | null;
  device_type: number;
  protocol: number;
  activated_at: Date | null;
  platform_expire_at: Date | null;
  user_expire_at: Date | null;
  online: boolean | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  valid: boolean | null;
  location_type: string | null;
  acc: boolean | null;
  battery: number | null;
  mileage: number | null;
  state_time: Date | null;
  pos_time: Date | null;
  last_seen: Date | null;
  driver_name?: string;
  driver_phone?: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentLocation(r: LocationRow, now: number): Location {
  const online = r.online === true;
  const state =
    !r.activated_at && !online ? DEVICE_STATE.notActivated : online ? DEVICE_STATE.online : DEVICE_STATE.offline;
  const expire = effectiveExpiry(r.platform_expire_at?.getTime() ?? null, r.user_expire_at?.getTime() ?? null);
  const icon = carIconState(
    {
      state,
      expire,
      location:
        r.lat !== null && r.lon !== null && r.pos_time
          ? {
              lat: r.lat,
              lon: r.lon,
              speed: r.speed ?? 0,
              utcTime: r.pos_time.getTime(),
              stateTime: r.last_seen?.getTime() ?? null,
            }
          : null,
    },
    now,
  );
  return {
    deviceId: String(r.id),
    terminalID: r.terminal_id,
    displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
    deviceProtocol: r.device_type,
    protocolType: r.protocol,
    online,
    lat: r.lat,
    lon: r.lon,
    speed: r.speed,
    course: r.course,
    altitude: r.altitude,
    valid: r.valid,
    locationType: r.location_type,
    acc: r.acc,
    battery: r.battery,
    mileage: r.mileage,
    stateTime: iso(r.state_time),
    utcTime: iso(r.pos_time),
    lastSeen: iso(r.last_seen),
    mapState: mapStateCode(icon),
    runState: runningStateCode(icon),
    state,
    expire: expire === null ? null : new Date(expire).toISOString(),
    activatedAt: iso(r.activated_at),
    carNumber: r.car_number,
    nickname: r.nickname,
    telephone: r.sim,
    iconType: r.icon_type,
    userId: r.user_id === null ? null : String(r.user_id),
    username: r.username ?? null,
    carIconState: icon,
    driverName: r.driver_name ?? '',
    driverPhone: r.driver_phone ?? '',
  };
}
