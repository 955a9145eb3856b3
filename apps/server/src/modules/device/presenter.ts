// Exactly which device fields leave the API (spec §3 "Device list item" and "Device").
import {
  carIconState,
  DEVICE_STATE,
  type DeviceListEntry,
  displayName,
  effectiveExpiry,
  mapStateCode,
  runningStateCode,
} from '@carhere/domain';
import { z } from 'zod';
import { ancestorsOf } from '../user/presenter.ts';
import type { DeviceListDbRow } from './listQueries.ts';

export const deviceItemSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  nickname: z.string(),
  carNumber: z.string(),
  /** SIM number (spec: telephone). */
  telephone: z.string(),
  iccid: z.string(),
  /** 'zx' online, 'lx' offline, 'wjh' not activated */
  state: z.enum(['zx', 'lx', 'wjh']),
  /** Effective expiry (the earlier of platform and user expiry), ISO; null: never. */
  expire: z.string().nullable(),
  platformExpireAt: z.string().nullable(),
  userExpireAt: z.string().nullable(),
  expireManual: z.boolean(),
  activatedAt: z.string().nullable(),
  serviceTerm: z.number().int().nullable(),
  /** expired | offline | unknown | stop | moving | fast | overspeed */
  carIconState: z.string(),
  /** Map state code 0..6 (spec §4). */
  markerIcon: z.number().int(),
  /** Running state code 1..5 (spec §4). */
  runState: z.number().int(),
  timeZone: z.number().int(),
  host: z.string(),
  hasPicture: z.boolean(),
  device: z.object({ deviceType: z.number().int(), iconType: z.number().int(), protocol: z.number().int() }),
  location: z
    .object({
      lat: z.number().nullable(),
      lon: z.number().nullable(),
      speed: z.number().nullable(),
      course: z.number().nullable(),
      stateTime: z.string().nullable(),
      utcTime: z.string().nullable(),
      deviceProtocol: z.number().int(),
      locationType: z.string().nullable(),
      battery: z.number().nullable(),
      acc: z.boolean().nullable(),
    })
    .nullable(),
  user_id: z.string().nullable(),
  username: z.string().nullable(),
  /** The owner's nickname. */
  realname: z.string().nullable(),
  role: z.number().int().nullable(),
  /** The owner's ancestors ('0,1,5'). */
  ancestors: z.string().nullable(),
});
export type DeviceItem = z.infer<typeof deviceItemSchema>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const ms = (d: Date | null) => (d ? d.getTime() : null);

export function stateOf(row: Pick<DeviceListDbRow, 'activated_at' | 'online'>): 'zx' | 'lx' | 'wjh' {
  if (!row.activated_at) return DEVICE_STATE.notActivated;
  return row.online ? DEVICE_STATE.online : DEVICE_STATE.offline;
}

/** The device as the domain's list rules see it. */
export function toDomainEntry(row: DeviceListDbRow): DeviceListEntry {
  const hasState = row.pos_time !== null || row.last_seen !== null;
  return {
    terminalID: row.terminal_id,
    carNumber: row.car_number,
    nickname: row.nickname,
    state: stateOf(row),
    expire: effectiveExpiry(ms(row.platform_expire_at), ms(row.user_expire_at)),
    location: hasState
      ? {
          lat: row.lat ?? Number.NaN,
          lon: row.lon ?? Number.NaN,
          speed: row.speed ?? 0,
          utcTime: ms(row.pos_time) ?? Number.NaN,
          stateTime: ms(row.last_seen),
        }
      : null,
  };
}

export function presentDevice(row: DeviceListDbRow, now: number): DeviceItem {
  const entry = toDomainEntry(row);
  const icon = carIconState(entry, now);
  return {
    id: row.id,
    terminalID: row.terminal_id,
    displayName: displayName(entry),
    nickname: row.nickname,
    carNumber: row.car_number,
    telephone: row.sim,
    iccid: row.iccid,
    state: stateOf(row),
    expire: entry.expire == null ? null : new Date(entry.expire).toISOString(),
    platformExpireAt: iso(row.platform_expire_at),
    userExpireAt: iso(row.user_expire_at),
    expireManual: row.expire_manual,
    activatedAt: iso(row.activated_at),
    serviceTerm: row.service_term,
    carIconState: icon,
    markerIcon: mapStateCode(icon),
    runState: runningStateCode(icon),
    timeZone: row.time_zone,
    host: row.host,
    hasPicture: row.has_picture,
    device: { deviceType: row.device_type, iconType: row.icon_type, protocol: row.protocol },
    location:
      row.pos_time || row.last_seen
        ? {
            lat: row.lat,
            lon: row.lon,
            speed: row.speed,
            course: row.course,
            stateTime: iso(row.last_seen),
            utcTime: iso(row.pos_time),
            deviceProtocol: row.device_type,
            locationType: row.location_type,
            battery: row.battery,
            acc: row.acc,
          }
        : null,
    user_id: row.user_id,
    username: row.owner_username,
    realname: row.owner_nickname,
    role: row.owner_role,
    ancestors: row.owner_path ? ancestorsOf(row.owner_path) : null,
  };
}

/** A row of the 'rows' format (DEVICE_ROW_FIELDS gives the order and units). */
export const deviceRowSchema = z.tuple([
  z.number().int(),
  z.string(),
  z.string(),
  z.string(),
  z.union([z.literal(0), z.literal(1), z.literal(2)]),
  z.number().nullable(),
  z.number().int(),
  z.number().int(),
  z.number().int().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
]);
