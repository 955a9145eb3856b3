import { Alarm, type AlarmName, addAlarm } from '../alarms.ts';
import { DecodeError } from '../errors.ts';
import { round } from '../position.ts';
import { type ByteReader, trimControl } from '../reader.ts';
import { bcdByte, wallClockToEpoch } from '../time.ts';
import type { Gt06Decoding } from './decoding.ts';
import {
  batteryLevelFromVoltageByte,
  decodeTerminalInfo,
  gt06AlarmName,
  readGpsBlock,
  readGt06Time,
} from './fields.ts';
import { buildGt06Frame } from './frame.ts';
import { isoOrNull, macAddress, pushAttribute, readLbsList, readServingCell } from './network.ts';
import { Gt06Type as T } from './protocol-numbers.ts';

/** Bytes of the usual GPS block: time 6, satellites 1, latitude 4, longitude 4, speed 1, course/status 2. */
const GPS_BLOCK = 18;

function hasGps(type: number): boolean {
  switch (type) {
    case T.gps:
    case T.gpsLbs1:
    case T.gpsLbs2:
    case T.gpsLbs3:
    case T.gpsLbs4:
    case T.gpsLbs5:
    case T.gpsLbs6:
    case T.gpsLbs7:
    case T.gpsLbsStatus1:
    case T.gpsLbsStatus2:
    case T.gpsLbsStatus3:
    case T.gpsLbsStatus4:
    case T.wifi3: // GPS + LBS + status on LW 4G devices (variant lw4g)
    case T.gpsPhone:
    case T.gpsLbsExtend:
    case T.wifi: // GPS + LBS + RFID variant
    case T.fenceSingle:
    case T.fenceMulti:
      return true;
    default:
      return false;
  }
}

function hasLbs(type: number): boolean {
  switch (type) {
    case T.lbsStatus:
    case T.gpsLbs1:
    case T.gpsLbs2:
    case T.gpsLbs3:
    case T.gpsLbs4:
    case T.gpsLbs5:
    case T.gpsLbs6:
    case T.gpsLbs7:
    case T.gpsLbsStatus1:
    case T.gpsLbsStatus2:
    case T.gpsLbsStatus3:
    case T.gpsLbsStatus4:
    case T.wifi3:
    case T.wifi:
    case T.fenceSingle:
    case T.fenceMulti:
    case T.lbsAlarm:
    case T.lbsAddress:
      return true;
    default:
      return false;
  }
}

function hasStatus(type: number): boolean {
  switch (type) {
    case T.status:
    case T.status2:
    case T.lbsStatus:
    case T.gpsLbsStatus1:
    case T.gpsLbsStatus2:
    case T.gpsLbsStatus3:
    case T.gpsLbsStatus4:
    case T.wifi3:
    case T.fenceSingle:
    case T.fenceMulti:
    case T.lbsAlarm:
      return true;
    default:
      return false;
  }
}

/** Packets that carry only a fix: the protocol does not ask the server to acknowledge them. */
function isPlainLocation(type: number): boolean {
  switch (type) {
    case T.gps:
    case T.gpsLbs1:
    case T.gpsLbs2:
    case T.gpsLbs3:
    case T.gpsLbs4:
    case T.gpsLbs5:
    case T.gpsLbs6:
    case T.gpsLbs7:
    case T.gpsPhone:
    case T.gpsLbsExtend:
      return true;
    default:
      return false;
  }
}

/** Decodes the content of a 7878 frame. */
export function decodeBasic(d: Gt06Decoding, r: ByteReader, type: number): void {
  switch (type) {
    case T.login:
      decodeLogin(d, r);
      return;
    case T.heartbeat:
      decodeHeartbeat(d, r);
      return;
    case T.addressRequest:
      d.message.reply = addressReply();
      return;
    case T.timeRequest:
      d.message.reply = timeReply(d.ctx.now());
      return;
    case T.x1PhotoInfo:
      // Photo transfer (X1) is not supported; the device gives up when no data request follows.
      return;
    case T.info:
      d.attributes.power = round(r.i16() * 0.01, 2);
      return;
    case T.string:
      decodeStringReply(d, r);
      return;
    case T.bms:
      decodeBms(d, r);
      d.ack = true;
      return;
    case T.alarm:
      decodeAlarmPacket(d, r);
      d.ack = true;
      return;
    case T.command0:
    case T.command1:
    case T.command2:
      return; // platform-to-device commands echoed back: nothing to do
    default:
      break;
  }

  if (d.variant === 'imeiReport') {
    decodeImeiReport(d, r, type);
    d.ack = type !== T.gpsLbs2 || d.ctx.ackLocations;
    return;
  }
  if (type === 0x61) {
    decodeDriverReport(d, r);
    d.ack = true;
    return;
  }
  if (type === T.x1Gps && d.variant !== 'sl4x') {
    decodeX1Gps(d, r);
    return;
  }
  if ((type === T.wifi && d.variant !== 'rfid') || type === T.wifi2 || type === T.wifi4) {
    decodeWifi(d, r, type);
    return;
  }
  if (type === T.lbsMultiple3 && d.variant === 'sr411Mini') {
    d.position = readGpsBlock(r, d.timeZone, d.attributes);
    readServingCell(r, type, d.variant, false, d.attributes);
    d.attributes.acc = r.u8() > 0;
    d.attributes.power = round(r.u16() * 0.01, 2);
    d.attributes.battery = round(r.u16() * 0.01, 2);
    d.ack = true;
    return;
  }
  if (
    type === T.lbsMultiple1 ||
    type === T.lbsMultiple2 ||
    type === T.lbsMultiple3 ||
    type === T.lbsExtend ||
    type === T.lbsWifi ||
    type === T.lbs2 ||
    type === T.x1Gps ||
    (type === T.wifi3 && d.variant !== 'lw4g') ||
    type === T.wifi5
  ) {
    readLbsList(r, type, d.variant, d.timeZone, d.attributes);
    d.attributes.locationType = 'lbs';
    d.ack = true;
    return;
  }
  if (type === T.status && r.remaining === 16) {
    decodeLongStatus(d, r);
    d.ack = true;
    return;
  }
  if (type === T.fenceSingle && d.layout.declaredLength === 0x18) {
    decodePedometer(d, r);
    d.ack = true;
    return;
  }
  if (hasGps(type) || hasLbs(type) || hasStatus(type)) {
    decodeReport(d, r, type);
    d.ack = !isPlainLocation(type) || d.ctx.ackLocations;
    return;
  }
  // Anything else: acknowledge (when the frame has a serial) so the device does not resend it.
  d.ack = d.layout.regular;
}

function decodeLogin(d: Gt06Decoding, r: ByteReader): void {
  const imeiBytes = r.bytes(8);
  let digits = '';
  for (let i = 0; i < 8; i++) {
    const b = imeiBytes[i];
    if ((b & 0xf0) > 0x90 || (b & 0x0f) > 0x09) throw new DecodeError('bad_value', 'login IMEI is not BCD digits');
    digits += String.fromCharCode(0x30 + (b >> 4), 0x30 + (b & 15));
  }
  const imei = digits.slice(1);
  if (r.remaining >= 2) d.attributes.deviceType = r.u16();
  if (r.remaining >= 2 && d.layout.declaredLength - 5 > 10) {
    // Extension bits: time zone (value/100 hours, value%100 minutes), bit 3 = west; low bits = language.
    const bits = r.u16();
    const value = bits >> 4;
    let offset = Math.trunc(value / 100) * 60 + (value % 100);
    if ((bits & 0x08) !== 0) offset = -offset;
    d.ctx.loginTimeZoneMinutes = offset;
    d.attributes.timeZoneMinutes = offset;
  }
  d.ctx.terminalId = imei;
  d.message.terminalId = imei;
  d.ack = true;
}

function decodeHeartbeat(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  const status = r.u8();
  a.armed = (status & 0x01) !== 0;
  a.acc = (status & 0x02) !== 0;
  a.charge = (status & 0x04) !== 0;
  if (r.remaining >= 2) a.battery = round(r.u16() * 0.01, 2);
  if (r.remaining >= 1) a.signal = r.u8();
  d.ack = true;
}

function decodeStringReply(d: Gt06Decoding, r: ByteReader): void {
  let length = r.u8();
  // Some devices send 0 here and still append the server flag and text.
  if (length < 4) length = r.remaining;
  if (length < 4 || r.remaining < 4) return;
  const serverFlag = r.u32();
  const text = r.text(Math.min(length - 4, r.remaining)).replace(/\0+$/, '');
  if (text.startsWith('<ICCID:')) {
    d.attributes.iccid = text.substring(7, 27);
  } else {
    d.message.commandReply = { text, serverFlag };
  }
}

function decodeX1Gps(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  r.skip(4); // data and alarm
  d.position = readGpsBlock(r, d.timeZone, a);
  r.skip(2); // terminal info
  a.mileage = r.u32();
  pushAttribute(a, 'cellTowers', { mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() });
  const driverId = r.u32();
  if (driverId > 0) a.driverUniqueId = String(driverId);
  a.battery = round(r.u16() * 0.01, 2);
  a.power = round(r.u16() * 0.01, 2);
  const portInfo = r.u32();
  a.input = r.u8();
  a.output = r.u8();
  const adcCount = (portInfo >>> 20) & 0x0f;
  for (let i = 1; i <= adcCount; i++) a[`adc${i}`] = round(r.u16() * 0.01, 2);
}

function decodeWifi(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  const timeStart = r.pos;
  const t = r.bytes(6); // BCD
  const year = 2000 + bcdByte(t[0]);
  const epoch = wallClockToEpoch(year, bcdByte(t[1]), bcdByte(t[2]), bcdByte(t[3]), bcdByte(t[4]), bcdByte(t[5]), 0);
  a.deviceTime = isoOrNull(epoch);
  a.locationType = 'wifi';
  // 0x17/0x69 put the access point count in the length byte; 0xF3 has its own count byte.
  const wifiCount = type === T.wifi4 ? r.u8() : d.frame[2];
  for (let i = 0; i < wifiCount; i++) {
    if (type === T.wifi4) r.skip(2);
    const mac = macAddress(r);
    if (type === T.wifi4) pushAttribute(a, 'wifi', { mac });
    else pushAttribute(a, 'wifi', { mac, rssi: r.u8() });
  }
  if (type === T.wifi4) return;
  const cellCount = r.u8();
  const mcc = r.u16();
  const mnc = r.u8();
  for (let i = 0; i < cellCount; i++) {
    pushAttribute(a, 'cellTowers', { mcc, mnc, lac: r.u16(), cid: r.u16(), rssi: r.u8() });
  }
  // The device expects 7878 00 <type> <its time> 0D0A.
  const reply = Buffer.allocUnsafe(12);
  reply[0] = 0x78;
  reply[1] = 0x78;
  reply[2] = 0x00;
  reply[3] = type;
  reply.set(d.frame.subarray(timeStart, timeStart + 6), 4);
  reply[10] = 0x0d;
  reply[11] = 0x0a;
  d.message.reply = reply;
}

function decodeBms(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  r.skip(8); // battery serial number
  a.deviceTime = isoOrNull(r.u32() * 1000);
  a.relativeCapacity = r.u8();
  a.remainingCapacity = r.u16();
  a.absoluteCapacity = r.u8();
  a.fullCapacity = r.u16();
  a.batteryHealth = r.u8();
  a.batteryTemp = round(r.u16() * 0.1 - 273.1, 1);
  a.current = r.u16();
  a.battery = round(r.u16() * 0.001, 3);
  a.cycleIndex = r.u16();
  const cells: number[] = [];
  for (let i = 1; i <= 14; i++) cells.push(round(r.u16() * 0.001, 3));
  a.batteryCells = cells;
  a.currentChargeInterval = r.u16();
  a.maxChargeInterval = r.u16();
  a.barcode = trimControl(r.text(16));
  a.batteryVersion = r.u16();
  a.manufacturer = trimControl(r.text(16));
  a.batteryStatus = r.u32();
  a.controllerStatus = r.u32();
  a.controllerFault = r.u32();
}

/** 0x13 with a 16-byte body: a long status format with battery level and temperature. */
function decodeLongStatus(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  r.skip(1); // information content
  r.skip(2); // satellites
  r.skip(1); // alarm
  r.skip(1); // language
  a.batteryLevel = r.u8();
  r.skip(1); // working mode
  r.skip(2); // working voltage
  r.skip(1); // reserved
  r.skip(2); // working times
  r.skip(2); // working time
  const value = r.u16();
  const magnitude = round((value & 0x7fff) * 0.1, 1);
  a.temp1 = (value & 0x8000) !== 0 ? -magnitude : magnitude;
}

/** 0xA3 with length 0x18 on pedometer models: time, status and counters instead of a fence alarm. */
function decodePedometer(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  const time = readGt06Time(r, d.timeZone);
  a.deviceTime = time.valid ? isoOrNull(time.epoch) : null;
  a.status = r.u8();
  r.skip(4); // reserved
  a.steps = r.u16();
}

/** GPS / LBS / status reports: the common packet family (0x10-0x12, 0x16, 0x19, 0x22, 0x26, 0x27, 0xA0, ...). */
function decodeReport(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  const variant = d.variant;
  if (type === T.lbsStatus && variant === 'space10x') return; // multi-LBS list, no fix
  const gpsType = hasGps(type) || variant === 'vl103';

  if (variant === 'qh302r') a.imei = readImei(r);
  if (gpsType && r.remaining >= GPS_BLOCK) {
    d.position = readGpsBlock(r, d.timeZone, a);
  }
  if (variant === 'vl103' && d.position !== null && r.remaining >= 9) {
    pushAttribute(a, 'cellTowers', { mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() });
  } else if (hasLbs(type) && r.remaining >= 8 && (d.position !== null || !gpsType)) {
    const hasLength =
      hasStatus(type) &&
      type !== T.lbsStatus &&
      type !== T.lbsAlarm &&
      (type !== T.gpsLbsStatus1 || variant !== 'vxt01') &&
      type !== T.wifi3;
    readServingCell(r, type, variant, hasLength, a);
  }

  if (variant === 'vl103') {
    d.message.messageType = 'location';
    decodeVl103Status(d, r);
    return;
  }

  if (hasStatus(type) && r.remaining > 0) decodeStatusBlock(d, r, type);

  if (type === T.status2) {
    if (r.remaining > 0) r.skip(1); // language
    while (r.remaining >= 3) {
      const moduleType = r.u16();
      const length = r.u8();
      const end = Math.min(r.pos + length, r.end);
      const m = r.sub(end - r.pos);
      if (moduleType === 0x0018 && length >= 2) a.battery = round(m.u16() / 100, 2);
      else if (moduleType === 0x0032 && length >= 1) a.startupStatus = m.u8();
      else if (moduleType === 0x006a && length >= 1) a.batteryLevel = m.u8();
    }
  }

  if (type === T.wifi3) {
    r.skip(1); // language
    a.mileage = r.u32();
    a.engineHours = round(r.u32() / 3600, 2);
    r.skip(8); // terminal id
    a.input = r.u16();
  }

  if (type === T.gpsLbs1) decodeGpsLbs1Variant(d, r);

  if (type === T.gpsLbs2 && variant === 'seeworld') {
    a.acc = r.u8() > 0;
    r.skip(1); // reporting mode
    r.skip(1); // supplementary transmission
    a.mileage = r.u32();
    r.skip(4); // travel time
    const t = r.u16();
    a.temp1 = round(((t & 0x8000) !== 0 ? -(t & 0x7fff) : t) * 0.01, 2);
    a.humidity = round(r.u16() * 0.01, 2);
  }

  if (type === T.gpsLbsStatus4 && variant === 'sl4x' && r.remaining >= 2) {
    const altitude = r.i16();
    if (d.position) d.position.altitude = altitude;
  }

  if (
    (type === T.gpsLbs2 || type === T.gpsLbs3 || type === T.gpsLbs4 || type === T.gpsLbs5) &&
    variant !== 'seeworld' &&
    r.remaining >= 3
  ) {
    a.acc = r.u8() > 0;
    a.event = r.u8(); // upload reason
    a.archive = r.u8() > 0; // re-upload of stored data
    if (variant === 'sl4x' && r.remaining >= 2) {
      if (r.remaining > 2) a.mileage = r.u32();
      const altitude = r.i16();
      if (d.position) d.position.altitude = altitude;
    }
  }

  if (type === T.gpsLbs3 && r.remaining >= 3) {
    const module = r.u16();
    const length = r.u8();
    if (module === 0x0027) a.power = round(r.u16() * 0.01, 2);
    else if (module === 0x002e) a.mileage = r.u32();
    else if (module === 0x003b) a.accuracy = round(r.u16() * 0.01, 2);
    else r.skip(Math.min(length, r.remaining));
  }

  if (type === T.wifi && variant === 'rfid') {
    a.driverUniqueId = r.hex(8);
    r.skip(1); // validity
  }

  if ((type === T.gpsLbsStatus3 || type === T.fenceMulti) && r.remaining > 0) {
    // Language byte(s), then the fence number last.
    r.skip(r.remaining - 1);
    a.geofence = r.u8();
    return;
  }
  if (type === T.gpsLbsStatus1 && r.remaining >= 9) {
    r.skip(r.remaining - 8); // language
    const driver = r.hex(8);
    if (driver !== '0000000000000000') a.driverUniqueId = driver;
    return;
  }

  if (r.remaining === 3 || r.remaining === 7) {
    a.acc = r.u8() > 0;
    r.skip(1); // upload mode
    if (r.u8() > 0) a.archive = true;
  }
  if (r.remaining === 4) a.mileage = r.u32();
}

/** Terminal info, voltage, GSM signal and alarm of status-bearing packets (the language byte is left). */
function decodeStatusBlock(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  if (type === T.wifi3) r.skip(1); // network indicator
  decodeTerminalInfo(r.u8(), a, d.alarms, d.variant === 'vxt01');
  if (d.variant === 'obd6') {
    const signal = r.u16();
    a.satellites = ((signal >> 10) & 0x1f) + ((signal >> 5) & 0x1f);
    a.signal = signal & 0x1f;
    addAlarmCode(d, r.u8());
    r.skip(1); // language
    a.batteryLevel = r.u8();
    r.skip(1); // working mode
    a.power = round(r.u16() / 100, 2);
    if (r.remaining >= 5) {
      r.skip(3); // reserved
      a.temp1 = signMagnitude(r.u16(), 0.1);
    }
    return;
  }
  if (type === T.wifi3) a.power = round(r.u16() * 0.01, 2);
  if (type === T.status && d.model === 'R11') {
    a.power = round(r.u16() * 0.01, 2);
  } else if (r.remaining > 0) {
    const level = batteryLevelFromVoltageByte(r.u8());
    if (level !== null) a.batteryLevel = level;
  }
  if (r.remaining === 0) return;
  a.signal = r.u8();
  if (r.remaining === 0) return;
  if (type === T.status && d.lwModel && r.remaining >= 2) {
    a.power = round((r.u16() & 0x0fff) / 10, 1);
  } else {
    const extension = r.u8();
    if (type === T.status && d.model === 'SEEWORLD') a.power = extension;
    else if (d.variant !== 'vxt01') addAlarmCode(d, extension);
  }
}

/** The alarm byte: a named alarm when known; the raw code is kept as `event`. */
function addAlarmCode(d: Gt06Decoding, code: number): void {
  if (code === 0) return;
  const alarm = gt06AlarmName(code, d.lwModel, d.model);
  if (alarm) addAlarm(d.alarms, alarm);
  d.attributes.event = code;
}

function signMagnitude(value: number, scale: number): number {
  const magnitude = round((value & 0x7fff) * scale, 3);
  return (value & 0x8000) !== 0 ? -magnitude : magnitude;
}

function readImei(r: ByteReader): string {
  return r.hex(8).replace(/^0/, '');
}

/** VL103 0x36: GPS, cell, then status with battery voltage and an optional 8-byte driver id. */
function decodeVl103Status(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  if (r.remaining < 21) return;
  a.acc = r.u8() > 0;
  r.skip(5); // reserved
  const level = batteryLevelFromVoltageByte(r.u8());
  if (level !== null) a.batteryLevel = level;
  r.skip(1); // working mode
  a.signal = r.u8();
  a.battery = round(r.u8() / 10, 1);
  r.skip(2); // reserved
  a.status = r.u8();
  const driver = r.hex(8);
  if (driver !== '0000000000000000') a.driverUniqueId = driver;
}

/** NT20 / XT40: 01, IMEI, device time, GPS, cell, status, power, battery, signal, acc, mode, mileage, hours. */
function decodeImeiReport(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  r.skip(1); // 01
  a.imei = readImei(r);
  r.skip(6); // device time
  d.position = readGpsBlock(r, d.timeZone, a);
  readServingCell(r, type, d.variant, true, a);
  if (type !== T.gpsLbs2) r.skip(1); // cell count
  decodeTerminalInfo(r.u8(), a, d.alarms, false);
  a.power = round(r.u16() / 100, 2);
  a.battery = round(r.u8() / 10, 1);
  a.signal = r.u8();
  a.acc = r.u8() > 0;
  r.skip(1); // upload mode
  a.mileage = r.u32();
  a.engineHours = round(r.u16() / 60, 2);
  if (r.remaining > 1) {
    const length = Math.min(r.u8(), r.remaining);
    if (length > 1) {
      r.skip(1); // card type
      a.driverUniqueId = r.hex(length - 1);
    }
  }
}

/** 0x61: IMEI, GPS, cell and the driver's card number. */
function decodeDriverReport(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  a.imei = readImei(r);
  d.position = readGpsBlock(r, d.timeZone, a);
  pushAttribute(a, 'cellTowers', { mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() });
  if (r.remaining >= 4) {
    r.skip(r.remaining - 4);
    const driverId = r.u32();
    if (driverId > 0) a.driverUniqueId = String(driverId);
  }
}

function decodeGpsLbs1Variant(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  switch (d.variant) {
    case 'gt06eCard': {
      a.mileage = r.u32();
      const card = r.text(r.u8());
      r.skip(2); // alarm, swiped
      a.card = trimControl(card);
      return;
    }
    case 'benway': {
      const mask = r.u16();
      a.acc = (mask & 0x8000) !== 0;
      a.in2 = (mask & 0x4000) !== 0;
      if ((mask & 0x1000) !== 0) {
        const value = mask & 0x01ff;
        a.temp1 = (mask & 0x0200) !== 0 ? -value : value;
      } else {
        const value = mask & 0x03ff;
        a.adc1 = (mask & 0x2000) !== 0 ? value : round(value * 0.1, 1);
      }
      return;
    }
    case 'vxt01':
      decodeTerminalInfo(r.u8(), a, d.alarms, true);
      a.power = round(r.u16() * 0.01, 2);
      a.signal = r.u8();
      r.skip(1); // alarm extension
      return;
    case 's5': {
      decodeTerminalInfo(r.u8(), a, d.alarms, false);
      a.power = round(r.u16() * 0.01, 2);
      a.signal = r.u8();
      addAlarmCode(d, r.u8());
      a.oil = r.u16();
      const t = r.u8();
      a.temp1 = (t & 0x80) !== 0 ? -(t & 0x7f) : t;
      a.mileage = r.u32() * 10;
      return;
    }
    case 'wetrust':
      a.mileage = r.u32();
      a.card = r.text(r.u8());
      if (r.u8() > 0) addAlarm(d.alarms, Alarm.general);
      a.cardStatus = r.u8();
      a.drivingTime = r.u16();
      return;
    default:
      return;
  }
}

/** 0x95 alarm packets (JC100/JC400 dash cameras). */
function decodeAlarmPacket(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  const jc400 = d.variant === 'jc400';
  const withGps = d.layout.declaredLength - 5 > 7;
  if (withGps) {
    if (jc400) r.skip(3); // marker FFFF, version
    d.position = readGpsBlock(r, d.timeZone, a, {
      hasSatellites: jc400,
      hasSpeed: jc400,
      longSpeed: jc400,
      speedAfterFlags: jc400,
    });
  } else {
    const time = readGt06Time(r, d.timeZone);
    a.deviceTime = time.valid ? isoOrNull(time.epoch) : null;
  }
  if (jc400) a.power = round(r.u16() * 0.1, 1);
  const event = r.u8();
  a.event = event;
  addAlarm(d.alarms, jc100AlarmName(event, withGps));
  if (r.remaining > 2) {
    r.skip(2);
    const files = r.text(r.remaining).replace(/\0+$/, '');
    if (files.length > 0)
      a.eventFiles = files
        .split(/[\0;,]+/)
        .filter((f) => f.length > 0)
        .join(',');
  }
}

function jc100AlarmName(event: number, withGps: boolean): AlarmName | null {
  switch (event) {
    case 0x01:
      return withGps ? Alarm.sos : Alarm.general;
    case 0x0e:
      return Alarm.lowPower;
    case 0x76:
      return Alarm.temperature;
    case 0x80:
      return Alarm.vibration;
    case 0x87:
      return Alarm.overspeed;
    case 0x88:
      return Alarm.powerCut;
    case 0x90:
      return Alarm.hardAcceleration;
    case 0x91:
      return Alarm.hardBraking;
    case 0x92:
      return Alarm.hardCornering;
    case 0x93:
      return Alarm.accident;
    default:
      return null;
  }
}

function addressReply(): Buffer {
  const text = 'NA&&NA&&0##';
  const content = Buffer.alloc(5 + text.length);
  content[0] = text.length;
  content.write(text, 5, 'latin1');
  return buildGt06Frame(T.addressResponse, 0, content, true);
}

function timeReply(now: number): Buffer {
  const t = new Date(now);
  const content = Buffer.from([
    t.getUTCFullYear() - 2000,
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
  ]);
  return buildGt06Frame(T.timeRequest, 0, content);
}
