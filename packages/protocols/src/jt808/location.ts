import { Alarm, type AlarmName, addAlarm } from '../alarms.ts';
import { DecodeError } from '../errors.ts';
import { makePosition, round } from '../position.ts';
import type { ByteReader } from '../reader.ts';
import { bcdByte, isBcdByte, isCalendarTime, wallClockToEpoch } from '../time.ts';
import type { Attributes, Position } from '../types.ts';
import { decodeLocationItem, decodeObdExtension } from './items.ts';

const PADLOCK_MODELS = new Set(['G-360P', 'G-508P']);
const AOVX_MODELS = new Set(['AL300', 'GL100']);

/** The 32 alarm flag bits of a location report (JT/T 808-2013 table 24), with known vendor variants. */
export function decodeAlarmFlags(flags: number, model: string, alarms: AlarmName[]): void {
  if (flags === 0) return;
  const bit = (n: number) => (flags & (1 << n)) !== 0;
  if (PADLOCK_MODELS.has(model)) {
    if (bit(0) || bit(4)) addAlarm(alarms, Alarm.removing);
    if (bit(1)) addAlarm(alarms, Alarm.tampering);
    return;
  }
  if (AOVX_MODELS.has(model)) {
    if (bit(16)) addAlarm(alarms, Alarm.movement);
    return;
  }
  if (bit(0)) addAlarm(alarms, Alarm.sos);
  if (bit(1)) addAlarm(alarms, Alarm.overspeed);
  if (bit(2)) addAlarm(alarms, Alarm.fatigueDriving);
  if (bit(5) || bit(6)) addAlarm(alarms, Alarm.gpsAntennaCut);
  if (bit(4) || bit(9) || bit(10) || bit(11)) addAlarm(alarms, Alarm.fault);
  if (bit(7) || bit(18)) addAlarm(alarms, Alarm.lowBattery);
  if (bit(8)) addAlarm(alarms, Alarm.powerCut);
  if (bit(15)) addAlarm(alarms, Alarm.vibration);
  if (bit(16) || bit(17)) addAlarm(alarms, Alarm.tampering);
  if (bit(19)) addAlarm(alarms, Alarm.parking);
  if (bit(20)) addAlarm(alarms, Alarm.geofence);
  if (bit(26)) addAlarm(alarms, Alarm.general);
  if (bit(28)) addAlarm(alarms, Alarm.movement);
  if ((bit(29) || bit(30)) && model !== 'VL300') addAlarm(alarms, Alarm.accident);
}

/** Reads BCD YY MM DD hh mm ss; returns epoch ms (rolled over if fields are out of range) and validity. */
export function readBcdTime(r: ByteReader, offsetMinutes: number): { epoch: number; valid: boolean } {
  r.need(6, 'BCD time');
  const b = r.buf;
  const p = r.pos;
  r.pos = p + 6;
  const bcd =
    isBcdByte(b[p]) &&
    isBcdByte(b[p + 1]) &&
    isBcdByte(b[p + 2]) &&
    isBcdByte(b[p + 3]) &&
    isBcdByte(b[p + 4]) &&
    isBcdByte(b[p + 5]);
  const year = 2000 + bcdByte(b[p]);
  const month = bcdByte(b[p + 1]);
  const day = bcdByte(b[p + 2]);
  const hour = bcdByte(b[p + 3]);
  const minute = bcdByte(b[p + 4]);
  const second = bcdByte(b[p + 5]);
  return {
    epoch: wallClockToEpoch(year, month, day, hour, minute, second, offsetMinutes),
    valid: bcd && isCalendarTime(year, month, day, hour, minute, second),
  };
}

/** Status word, coordinates, altitude, speed, course and time: the 28-byte basic location block. */
export function readBasicLocation(
  r: ByteReader,
  offsetMinutes: number,
  model: string,
  attributes: Attributes,
): Position {
  const status = r.u32();
  let lat = r.u32() / 1e6;
  let lon = r.u32() / 1e6;
  if ((status & 0x04) !== 0) lat = -lat;
  if ((status & 0x08) !== 0) lon = -lon;
  const altitude = r.i16();
  const speed = r.u16() / 10;
  const course = r.u16();
  // BCD time, read in place (this is the hot path: no intermediate objects).
  r.need(6, 'BCD time');
  const b = r.buf;
  const t = r.pos;
  r.pos = t + 6;
  const year = 2000 + bcdByte(b[t]);
  const month = bcdByte(b[t + 1]);
  const day = bcdByte(b[t + 2]);
  const hour = bcdByte(b[t + 3]);
  const minute = bcdByte(b[t + 4]);
  const second = bcdByte(b[t + 5]);
  const timeValid =
    isBcdByte(b[t]) &&
    isBcdByte(b[t + 1]) &&
    isBcdByte(b[t + 2]) &&
    isBcdByte(b[t + 3]) &&
    isBcdByte(b[t + 4]) &&
    isBcdByte(b[t + 5]) &&
    isCalendarTime(year, month, day, hour, minute, second);
  const epoch = wallClockToEpoch(year, month, day, hour, minute, second, offsetMinutes);
  attributes.status = status;
  attributes.acc = (status & 0x01) !== 0;
  attributes.blocked = (status & 0x400) !== 0;
  attributes.charge = (status & 0x4000000) !== 0;
  if (model === 'G1C PRO') attributes.motion = (status & 0x10) !== 0;
  if (model === 'MV810G' || model === 'MV710G') attributes.door = (status & 0x10000) !== 0;
  // Bits 18-21: GPS, BeiDou, GLONASS, Galileo used for the fix.
  attributes.locationType = (status & 0xc0000) === 0x80000 ? 'beidou' : 'gps';
  const position = makePosition(epoch, lat, lon, speed, course, (status & 0x02) !== 0 && timeValid, attributes);
  position.altitude = altitude;
  return position;
}

/** A complete location report body (0x0200, and the items of 0x0201/0x0704/0x0210). */
export function decodeLocation(r: ByteReader, offsetMinutes: number, model: string): Position {
  const attributes: Attributes = {};
  const alarmFlags = r.u32();
  const position = readBasicLocation(r, offsetMinutes, model, attributes);
  decodeAlarmFlags(alarmFlags, model, position.alarms);

  if (r.remaining === 20) {
    // A vendor layout without item headers: battery and mileage, odometer, battery voltage, area, signal.
    r.skip(4);
    attributes.mileage = r.u32() * 1000;
    attributes.battery = round(r.u16() / 10, 1);
    r.skip(4); // area id
    attributes.signal = r.u8();
    r.skip(3);
    return position;
  }

  const end = r.end;
  while (end - r.pos >= 2) {
    const id = r.u8();
    const length = r.u8();
    if (id === 0x80) {
      // OBD extension: one content byte, then the rest of the body is a list of OBD items.
      if (r.remaining > 0) r.skip(1);
      decodeObdExtension(r, attributes);
      break;
    }
    const itemEnd = r.pos + length;
    if (itemEnd > end) break;
    // Bound the reader to the item instead of allocating a sub-reader.
    r.end = itemEnd;
    try {
      decodeLocationItem(id, length, r, position, model);
    } catch (thrown) {
      if (!(thrown instanceof DecodeError)) throw thrown;
      // A vendor item shorter than its layout: skip it, keep the rest of the report.
    }
    r.pos = itemEnd;
    r.end = end;
  }
  return position;
}
