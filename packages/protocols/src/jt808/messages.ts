// Bodies of JT/T 808 terminal messages other than the location report.

import { Alarm, addAlarm } from '../alarms.ts';
import { makePosition, round } from '../position.ts';
import { type ByteReader, trimControl } from '../reader.ts';
import { bcdByte, isCalendarTime, wallClockToEpoch } from '../time.ts';
import type { Attributes, Position } from '../types.ts';
import type { Jt808Decoding } from './decoding.ts';
import { decodeLockItem } from './items.ts';
import { decodeLocation, readBcdTime } from './location.ts';

function cleanText(text: string): string {
  return trimControl(text);
}

function iso(epoch: number): string | null {
  return Number.isFinite(epoch) ? new Date(epoch).toISOString() : null;
}

/** 0x0100 registration. Returns the version the body layout implies. */
export function decodeRegister(d: Jt808Decoding, r: ByteReader): '2011' | '2013' | '2019' {
  const a = d.attributes;
  const version = d.header.is2019 ? '2019' : r.remaining >= 37 ? '2013' : '2011';
  a.province = r.u16();
  a.city = r.u16();
  a.manufacturer = cleanText(r.text(version === '2019' ? 11 : 5));
  a.terminalModel = cleanText(r.text(version === '2019' ? 30 : version === '2013' ? 20 : 8));
  a.deviceId = cleanText(r.text(version === '2019' ? 30 : 7));
  a.plateColor = r.u8();
  a.plate = cleanText(r.text(r.remaining, 'gbk'));
  return version;
}

/** 0x0102 authentication: the code (2019: length-prefixed, then IMEI and software version). */
export function decodeAuth(d: Jt808Decoding, r: ByteReader): void {
  const a = d.attributes;
  if (d.header.is2019 && r.remaining > 0) {
    const length = Math.min(r.u8(), r.remaining);
    a.authCode = r.text(length, 'gbk');
    if (r.remaining >= 15) a.imei = cleanText(r.text(15));
    if (r.remaining > 0) a.softwareVersion = cleanText(r.text(Math.min(20, r.remaining)));
  } else {
    a.authCode = r.text(r.remaining, 'gbk');
  }
}

/** JT/T 808 parameter ids whose values are strings. */
function isTextParameter(id: number): boolean {
  return (
    (id >= 0x0010 && id <= 0x0017) ||
    (id >= 0x001a && id <= 0x001d) ||
    (id >= 0x0040 && id <= 0x0044) ||
    id === 0x0048 ||
    id === 0x0049 ||
    id === 0x0083
  );
}

/** 0x0104 parameter query reply: answered serial, count, then (id 4, length 1, value) entries. */
export function decodeParameterReply(d: Jt808Decoding, r: ByteReader): void {
  const answeredSerial = r.u16();
  const count = r.u8();
  const parameters: Attributes = {};
  for (let i = 0; i < count && r.remaining >= 5; i++) {
    const id = r.u32();
    const length = r.u8();
    if (length > r.remaining) break;
    const v = r.sub(length);
    const key = `0x${id.toString(16).padStart(4, '0')}`;
    if (isTextParameter(id) || (length !== 1 && length !== 2 && length !== 4)) {
      parameters[key] = cleanText(v.text(length, 'gbk'));
    } else {
      parameters[key] = length === 1 ? v.u8() : length === 2 ? v.u16() : v.u32();
    }
  }
  d.attributes.parameters = parameters;
  const text = Object.entries(parameters)
    .map(([key, value]) => `${key}=${value}`)
    .join(';');
  d.message.commandReply = { text, answeredSerial, data: true };
}

/** 0x0107 terminal attributes reply. */
export function decodeAttributesReply(d: Jt808Decoding, r: ByteReader): void {
  const a = d.attributes;
  const is2019 = d.header.is2019;
  a.terminalType = r.u16();
  a.manufacturer = cleanText(r.text(5));
  a.terminalModel = cleanText(r.text(is2019 ? 30 : 20));
  a.deviceId = cleanText(r.text(is2019 ? 30 : 7));
  a.iccid = r.hex(10);
  if (r.remaining > 0) a.hardwareVersion = cleanText(r.text(Math.min(r.u8(), r.remaining)));
  if (r.remaining > 0) a.firmwareVersion = cleanText(r.text(Math.min(r.u8(), r.remaining)));
  if (r.remaining > 0) a.gnssModules = r.u8();
  if (r.remaining > 0) a.networkModules = r.u8();
}

/** 0x0704 (count, type, length-prefixed reports) and the vendor 0x0210 (1-byte lengths). */
export function decodeLocationBatch(d: Jt808Decoding, r: ByteReader, shortLengths: boolean): Position[] {
  const positions: Position[] = [];
  let archive = false;
  if (!shortLengths) {
    r.skip(2); // count
    archive = r.u8() > 0; // 1 = reports stored while out of coverage
  }
  while (r.remaining > 0) {
    const length = shortLengths ? r.u8() : r.u16();
    const position = decodeLocation(r.sub(Math.min(length, r.remaining)), d.ctx.timeZoneMinutes, d.model);
    if (archive) position.attributes.archive = true;
    positions.push(position);
  }
  return positions;
}

/** 0x0702 driver identity (IC card inserted or removed). */
export function decodeDriverIdentity(d: Jt808Decoding, r: ByteReader): void {
  const a = d.attributes;
  a.cardStatus = r.u8();
  const time = readBcdTime(r, d.ctx.timeZoneMinutes);
  a.deviceTime = time.valid ? iso(time.epoch) : null;
  if (r.remaining === 0) return;
  a.cardResult = r.u8();
  a.driver = r.text(Math.min(r.u8(), r.remaining), 'gbk');
  a.cardCode = cleanText(r.text(Math.min(20, r.remaining)));
  if (r.remaining > 0) a.cardAgency = r.text(Math.min(r.u8(), r.remaining), 'gbk');
  if (r.remaining >= 4) a.cardValidity = r.hex(4);
}

/** 0x2070 acceleration samples: time, then x, y, z as sign + magnitude. */
export function decodeAcceleration(d: Jt808Decoding, r: ByteReader): void {
  const samples: string[] = [];
  const signed = (v: number) => ((v & 0x8000) !== 0 ? -(v & 0x7fff) : v & 0x7fff);
  while (r.remaining >= 12) {
    r.skip(6);
    samples.push(`[${signed(r.u16())},${signed(r.u16())},${signed(r.u16())}]`);
  }
  d.attributes.gSensor = `[${samples.join(',')}]`;
}

/** Value of `digits` BCD nibbles starting at the high nibble of bytes[0] (nibbles above 9 count as is). */
function bcdValue(bytes: Uint8Array, digits: number): number {
  let value = 0;
  for (let i = 0; i < digits; i++) {
    const b = bytes[i >> 1];
    value = value * 10 + ((i & 1) === 0 ? b >> 4 : b & 15);
  }
  return value;
}

/** Degrees from BCD "DDDMMmmmm" (minutes with four decimals). */
function bcdCoordinate(raw: number): number {
  const degrees = Math.trunc(raw / 1_000_000);
  return degrees + (raw % 1_000_000) / 10_000 / 60;
}

/**
 * 0x5501 / 0x5502 (JT701 electronic locks): BCD time (day first), BCD coordinates, flags, BCD speed,
 * course/2, then signal, satellites, mileage, battery, cell, product, status, alarm and items.
 */
export function decodeLockLocation(r: ByteReader, blind: boolean): Position {
  const a: Attributes = {};
  const t = r.bytes(6);
  const day = bcdByte(t[0]);
  const month = bcdByte(t[1]);
  const year = 2000 + bcdByte(t[2]);
  const hour = bcdByte(t[3]);
  const minute = bcdByte(t[4]);
  const second = bcdByte(t[5]);
  let lat = bcdCoordinate(bcdValue(r.bytes(4), 8));
  const lonBytes = r.bytes(5);
  let lon = bcdCoordinate(bcdValue(lonBytes, 9));
  const flags = lonBytes[4] & 0x0f;
  if ((flags & 0x02) === 0) lat = -lat;
  if ((flags & 0x04) === 0) lon = -lon;
  const speedKnots = bcdByte(r.u8());
  const course = r.u8() * 2;
  a.locationType = 'gps';
  const position = makePosition(
    wallClockToEpoch(year, month, day, hour, minute, second, 0),
    lat,
    lon,
    round(speedKnots * 1.852, 2),
    course,
    !blind && (flags & 0x01) !== 0 && isCalendarTime(year, month, day, hour, minute, second),
    a,
  );
  if (blind) a.archive = true;
  a.signal = r.u8();
  position.satellites = r.u8();
  a.mileage = r.u32() * 1000;
  const battery = r.u8();
  if (battery <= 100) a.batteryLevel = battery;
  else if (battery === 0xaa || battery === 0xab) a.charge = true;
  const cid = r.u32();
  const lac = r.u16();
  if (cid > 0 && lac > 0) a.cellTowers = [{ lac, cid }];
  const product = r.u8();
  const status = r.u16();
  const alarm = r.u16();
  const alarms = position.alarms;
  if (product === 1 || product === 2) {
    if (alarm & 0x01) addAlarm(alarms, Alarm.lowPower);
  } else if (product === 3) {
    a.blocked = (status & 0x20) !== 0;
    if (alarm & 0x01) addAlarm(alarms, Alarm.overspeed);
    if (alarm & 0x02) addAlarm(alarms, Alarm.lowPower);
    if (alarm & 0x04) addAlarm(alarms, Alarm.vibration);
    if (alarm & 0x08) addAlarm(alarms, Alarm.lowBattery);
    if (alarm & 0x20) addAlarm(alarms, Alarm.geofenceEnter);
    if (alarm & 0x40) addAlarm(alarms, Alarm.geofenceExit);
  }
  a.status = status;
  while (r.remaining >= 2) {
    const id = r.u8();
    const length = r.u8();
    if (length > r.remaining) break;
    const item = r.sub(length);
    if (id === 0x02 && length >= 2) position.altitude = item.i16();
    else if (id === 0x10 && length >= 1) a.wakeSource = item.u8();
    else if (id === 0x0b) decodeLockItem(item, length, a);
    else if (id === 0x0c && length >= 6) {
      const axis = () => {
        const v = item.u16();
        return v > 0x8000 ? v - 0x10000 : v;
      };
      a.tilt = `[${axis()},${axis()},${axis()}]`;
    } else if (id === 0xfc && length >= 1) a.geofence = item.u8();
  }
  return position;
}

/** 0x0801 multimedia data upload: media description and the location when it was taken. */
export function decodeMultimedia(d: Jt808Decoding, r: ByteReader): { mediaId: number; position: Position | null } {
  const a = d.attributes;
  const mediaId = r.u32();
  const media: Attributes = { id: mediaId, type: r.u8(), format: r.u8(), event: r.u8(), channel: r.u8() };
  let position: Position | null = null;
  if (r.remaining >= 28) {
    position = decodeLocation(r.sub(28), d.ctx.timeZoneMinutes, d.model);
    position.attributes.media = media;
  } else {
    a.media = media;
  }
  media.size = r.remaining;
  d.message.media = {
    id: mediaId,
    type: media.type as number,
    format: media.format as number,
    event: media.event as number,
    channel: media.channel as number,
    data: r.bytes(r.remaining).slice(),
  };
  return { mediaId, position };
}
