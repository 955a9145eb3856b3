import { Alarm, type AlarmName, addAlarm } from '../alarms.ts';
import { makePosition } from '../position.ts';
import type { ByteReader } from '../reader.ts';
import { isCalendarTime, wallClockToEpoch } from '../time.ts';
import type { Attributes, Position } from '../types.ts';

/** Coordinates are sent in units of 1/30000 minute. */
const COORDINATE_UNIT = 30000 * 60;

export interface GpsBlockOptions {
  /** A length byte follows the time; 0 means no fix data follows. */
  hasLength?: boolean;
  hasSatellites?: boolean;
  hasSpeed?: boolean;
  /** Speed is 2 bytes instead of 1. */
  longSpeed?: boolean;
  /** Speed comes after the course/status word (JC400). */
  speedAfterFlags?: boolean;
}

/** Reads YY MM DD hh mm ss (binary) as epoch ms; `valid` is false if it is not a real calendar time. */
export function readGt06Time(r: ByteReader, offsetMinutes: number): { epoch: number; valid: boolean } {
  const year = 2000 + r.u8();
  const month = r.u8();
  const day = r.u8();
  const hour = r.u8();
  const minute = r.u8();
  const second = r.u8();
  return {
    epoch: wallClockToEpoch(year, month, day, hour, minute, second, offsetMinutes),
    valid: isCalendarTime(year, month, day, hour, minute, second),
  };
}

/**
 * Reads the GPS block: time, [length], [satellites], latitude, longitude, [speed], course/status.
 * Returns null when a length byte says there is no fix data (the time has then been read).
 */
export function readGpsBlock(
  r: ByteReader,
  offsetMinutes: number,
  attributes: Attributes,
  options?: GpsBlockOptions,
): Position | null {
  const year = 2000 + r.u8();
  const month = r.u8();
  const day = r.u8();
  const hour = r.u8();
  const minute = r.u8();
  const second = r.u8();
  if (options?.hasLength && r.u8() === 0) return null;
  const satellites = options?.hasSatellites === false ? -1 : r.u8() & 0x0f;
  let lat = r.u32() / COORDINATE_UNIT;
  let lon = r.u32() / COORDINATE_UNIT;
  let speed = 0;
  const readSpeed = options?.hasSpeed !== false;
  const afterFlags = options?.speedAfterFlags === true;
  if (readSpeed && !afterFlags) speed = options?.longSpeed ? r.u16() : r.u8();
  const flags = r.u16();
  if (readSpeed && afterFlags) speed = options?.longSpeed ? r.u16() : r.u8();
  if ((flags & 0x0400) === 0) lat = -lat;
  if ((flags & 0x0800) !== 0) lon = -lon;
  if ((flags & 0x4000) !== 0) attributes.acc = (flags & 0x8000) !== 0;
  attributes.locationType = 'gps';
  const timeOk = isCalendarTime(year, month, day, hour, minute, second);
  const position = makePosition(
    wallClockToEpoch(year, month, day, hour, minute, second, offsetMinutes),
    lat,
    lon,
    speed,
    flags & 0x03ff,
    (flags & 0x1000) !== 0 && timeOk,
    attributes,
  );
  if (satellites >= 0) position.satellites = satellites;
  return position;
}

export interface CellTower {
  [key: string]: number;
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
}

export function cellTower(mcc: number, mnc: number, lac: number, cid: number, rssi?: number): CellTower {
  return rssi === undefined ? { mcc, mnc, lac, cid } : { mcc, mnc, lac, cid, rssi };
}

/** Terminal information byte shared by heartbeats and alarm packets. */
export function decodeTerminalInfo(
  status: number,
  attributes: Attributes,
  alarms: AlarmName[],
  overspeedVariant: boolean,
) {
  attributes.status = status;
  attributes.armed = (status & 0x01) !== 0;
  attributes.acc = (status & 0x02) !== 0;
  attributes.charge = (status & 0x04) !== 0;
  attributes.gpsTracking = (status & 0x40) !== 0;
  attributes.blocked = (status & 0x80) !== 0;
  switch ((status >> 3) & 0x07) {
    case 1:
      addAlarm(alarms, Alarm.vibration);
      break;
    case 2:
      addAlarm(alarms, Alarm.powerCut);
      break;
    case 3:
      addAlarm(alarms, Alarm.lowBattery);
      break;
    case 4:
      addAlarm(alarms, Alarm.sos);
      break;
    case 6:
      addAlarm(alarms, Alarm.geofence);
      break;
    case 7:
      addAlarm(alarms, overspeedVariant ? Alarm.overspeed : Alarm.removing);
      break;
    default:
      break;
  }
}

/**
 * Alarm byte of alarm packets (0x16, 0x26, 0x27, 0xA4, ...). LW-series models reuse 0x18/0x19 and G18
 * models use 0x30 for hard braking.
 */
export function gt06AlarmName(code: number, lwModel: boolean, model = ''): AlarmName | null {
  switch (code) {
    case 0x01:
      return Alarm.sos;
    case 0x02:
      return Alarm.powerCut;
    case 0x03:
    case 0x09:
      return Alarm.vibration;
    case 0x04:
      return Alarm.geofenceEnter;
    case 0x05:
      return Alarm.geofenceExit;
    case 0x06:
      return Alarm.overspeed;
    case 0x0e:
    case 0x0f:
      return Alarm.lowBattery;
    case 0x11:
      return Alarm.powerOff;
    case 0x0c:
    case 0x13:
    case 0x25:
      return Alarm.tampering;
    case 0x14:
      return Alarm.door;
    case 0x18:
      return lwModel ? Alarm.accident : Alarm.removing;
    case 0x19:
      return lwModel ? Alarm.hardAcceleration : Alarm.lowBattery;
    case 0x1a:
    case 0x28:
      return Alarm.hardBraking;
    case 0x1b:
    case 0x2a:
    case 0x2b:
    case 0x2e:
      return Alarm.hardCornering;
    case 0x23:
      return Alarm.fallDown;
    case 0x29:
      return Alarm.hardAcceleration;
    case 0x2c:
      return Alarm.accident;
    case 0x30:
      return model === 'G18' ? Alarm.hardBraking : Alarm.jamming;
    default:
      return null;
  }
}

/** Voltage level byte: 0..6 is a level (6 = full), 7..100 a percentage. */
export function batteryLevelFromVoltageByte(value: number): number | null {
  if (value <= 6) return Math.trunc((value * 100) / 6);
  if (value <= 100) return value;
  return null;
}
