import { Alarm, addAlarm } from '../alarms.ts';
import { makePosition, round } from '../position.ts';
import { type ByteReader, decodeText, isPrintable, toHex, trimControl } from '../reader.ts';
import { isCalendarTime, wallClockToEpoch } from '../time.ts';
import type { Gt06Decoding } from './decoding.ts';
import { readGpsBlock, readGt06Time } from './fields.ts';
import { buildGt06Frame } from './frame.ts';
import { isoOrNull, pushAttribute, readServingCell } from './network.ts';
import { Gt06Type as T } from './protocol-numbers.ts';

/** Decodes the content of a 7979 frame. */
export function decodeExtended(d: Gt06Decoding, r: ByteReader, type: number): void {
  switch (type) {
    case T.stringInfo:
      decodeStringInfo(d, r);
      return;
    case T.info:
      decodeInfo(d, r);
      return;
    case T.gpsLbsStatus4: // AZ735 GPS
    case T.wifi5: // AZ735 alarm
      decodeAz735(d, r, type);
      d.message.reply = buildGt06Frame(type, d.layout.serial, null, true);
      return;
    case T.obd:
      decodeObd(d, r);
      return;
    case T.gpsModular:
      decodeModular(d, r);
      d.message.reply = buildGt06Frame(T.gpsModular, d.layout.serial, null);
      return;
    case T.multimedia:
      // Photo chunks (WD-209): acknowledged; reassembling images is not supported.
      d.message.reply = buildGt06Frame(type, d.layout.serial, null, true);
      return;
    case T.serial:
      decodeSerialData(d, r);
      return;
    case 0x38: // 4G GPS report
      d.position = readGpsBlock(r, d.timeZone, d.attributes);
      return;
    case 0xf1: // timestamped status list
    case 0xf2:
      decodeTimedStatus(d, r, type);
      return;
    default:
      return;
  }
}

const LOCATION_TEXT =
  /^Current position!Lat:([NS])(\d+\.\d+),Lon:([EW])(\d+\.\d+),Course:(\d+\.\d+),Speed:(\d+\.\d+),DateTime:(\d{4})-(\d\d)-(\d\d) +(\d\d):(\d\d):(\d\d)/;

/** 0x21: command reply text (ASCII or UTF-16BE), possibly a "Current position!" answer. */
function decodeStringInfo(d: Gt06Decoding, r: ByteReader): void {
  const serverFlag = r.u32();
  const encoding = r.u8();
  const text = decodeText(r.bytes(r.remaining), encoding === 1 ? 'ascii' : 'utf16be');
  const m = LOCATION_TEXT.exec(text);
  if (m) {
    const year = Number(m[7]);
    const month = Number(m[8]);
    const day = Number(m[9]);
    const hour = Number(m[10]);
    const minute = Number(m[11]);
    const second = Number(m[12]);
    const lat = Number(m[2]) * (m[1] === 'S' ? -1 : 1);
    const lon = Number(m[4]) * (m[3] === 'W' ? -1 : 1);
    d.position = makePosition(
      wallClockToEpoch(year, month, day, hour, minute, second, 0),
      lat,
      lon,
      Number(m[6]) * 1.852, // the text gives knots
      Number(m[5]),
      isCalendarTime(year, month, day, hour, minute, second),
      d.attributes,
    );
    d.attributes.locationType = 'gps';
  }
  d.message.commandReply = { text, serverFlag };
}

const FUEL_TEXT = /^!AIOIL,\d+,\d+\.\d+,(\d+\.\d+),[^,]+,\d\d\d\d,(\d+\.\d+),[01],\d+,[0-9A-Fa-f]{2}/;

/** 0x94: information packets, one sub-type each. */
function decodeInfo(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  const subType = r.u8();
  d.attributes.infoType = subType;
  switch (subType) {
    case 0x00:
      a.adc1 = round(r.u16() * 0.01, 2);
      return;
    case 0x04: {
      // Device settings as text: ALM1=..;ALM2=..;STA1=..;DYD=..;SOS=..;CENTER=..
      const text = r.text(r.remaining);
      for (const pair of text.split(';')) {
        const [key, value] = pair.split('=');
        if (value === undefined) continue;
        const number = Number.parseInt(value, 16);
        if (/^ALM[123]$/.test(key) && Number.isFinite(number)) a[`alarm${key[3]}Status`] = number;
        else if (key === 'STA1' && Number.isFinite(number)) a.otherStatus = number;
        else if (key === 'DYD' && Number.isFinite(number)) a.engineStatus = number;
      }
      return;
    }
    case 0x05: {
      if (r.remaining >= 7) {
        const time = readGt06Time(r, d.timeZone);
        a.deviceTime = time.valid ? isoOrNull(time.epoch) : null;
      }
      const flags = r.u8();
      a.door = (flags & 0x01) !== 0;
      a.io1 = (flags & 0x04) !== 0;
      return;
    }
    case 0x0a:
      r.skip(8); // IMEI
      r.skip(8); // IMSI
      a.iccid = r.hex(10).replace(/f/g, '');
      return;
    case 0x0b:
      // One byte: network type; two bytes: external voltage.
      if (r.remaining >= 2) a.power = round(r.u16() / 100, 2);
      else a.networkTechnology = r.i8() > 0 ? '4G' : '2G';
      return;
    case 0x0d: {
      if (r.peek() !== 0x21) r.skip(6); // '!'
      const m = FUEL_TEXT.exec(r.text(r.remaining));
      if (m) {
        a.temp1 = Number(m[1]);
        a.fuelLevel = Number(m[2]);
      }
      return;
    }
    case 0x1b: {
      const first = r.peek();
      const isLetter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
      if (isLetter) {
        a.serial = trimControl(r.text(r.remaining));
      } else {
        r.skip(2); // header, type
        a.driverUniqueId = r.hex(4);
      }
      return;
    }
    case 0x1e: // temperature and humidity sensor
      a.temp1 = round(r.i32() / 10, 1);
      a.humidity = round(r.u32() / 10, 1);
      return;
    default:
      return;
  }
}

/**
 * 0xF1/0xF2: a UTC timestamp, then items of type (2 bytes), length (1 byte) and value. F1 item 5 is the
 * battery voltage (1/100 V); the other items' meaning is not published and they are skipped.
 */
function decodeTimedStatus(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  a.deviceTime = isoOrNull(r.u32() * 1000);
  while (r.remaining >= 3) {
    const itemType = r.u16();
    const length = Math.min(r.u8(), r.remaining);
    const item = r.sub(length);
    if (type === 0xf1 && itemType === 0x0005 && length >= 2) a.power = round(item.u16() / 100, 2);
  }
}

function decodeAz735(d: Gt06Decoding, r: ByteReader, type: number): void {
  const a = d.attributes;
  const timeStart = r.pos;
  d.position = readGpsBlock(r, d.timeZone, a, { hasLength: true });
  if (!d.position) {
    r.pos = timeStart;
    const time = readGt06Time(r, d.timeZone);
    a.deviceTime = time.valid ? isoOrNull(time.epoch) : null;
    r.skip(1); // zero length
  }
  const before = r.pos;
  readServingCell(r, type, d.variant, true, a);
  if (r.buf[before] !== 0) a.signal = r.u8();
  r.skip(r.u8()); // additional cell towers
  r.skip(r.u8()); // wifi access points
  const status = r.u8();
  a.status = status;
  if (type === T.wifi5) {
    switch (status) {
      case 0xa0:
        a.armed = true;
        break;
      case 0xa1:
        a.armed = false;
        break;
      case 0xa2:
      case 0xa3:
        addAlarm(d.alarms, Alarm.lowBattery);
        break;
      case 0xa4:
        addAlarm(d.alarms, Alarm.general);
        break;
      case 0xa5:
        addAlarm(d.alarms, Alarm.door);
        break;
      default:
        break;
    }
  }
  r.skip(r.u8()); // reserved extension
}

/** 0x8C: OBD data as text pairs "hexid=hexvalue,...". */
function decodeObd(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  const time = readGt06Time(r, d.timeZone);
  a.deviceTime = time.valid ? isoOrNull(time.epoch) : null;
  a.acc = r.u8() > 0;
  const text = r.text(Math.max(0, r.remaining - 12));
  for (const pair of text.split(',')) {
    const values = pair.split('=');
    if (values.length < 2 || values[0].length < 2) continue;
    const id = Number.parseInt(values[0].substring(0, 2), 16);
    const value = Number.parseInt(values[1], 16);
    if (!Number.isFinite(value) && id !== 74) continue;
    switch (id) {
      case 40:
        a.mileage = round(value * 0.01, 2);
        break;
      case 43:
        a.fuelLevel = round(value * 0.01, 2);
        break;
      case 45:
        a.coolantTemp = round(value * 0.01, 2);
        break;
      case 53:
        a.obdSpeed = round(value * 0.01, 2);
        break;
      case 54:
        a.rpm = round(value * 0.01, 2);
        break;
      case 71:
        a.fuelUsed = round(value * 0.01, 2);
        break;
      case 73:
        a.engineHours = round(value * 0.01, 2);
        break;
      case 74:
        a.vin = values[1];
        break;
      default:
        break;
    }
  }
}

/** 0x70: a list of typed modules (Jimi 4G devices). */
function decodeModular(d: Gt06Decoding, r: ByteReader): void {
  const a = d.attributes;
  let tagCount = 0;
  while (r.remaining >= 4) {
    const moduleType = r.u16();
    const length = r.u16();
    const end = Math.min(r.pos + length, r.end);
    const m = r.sub(end - r.pos);
    switch (moduleType) {
      case 0x01:
        a.imei = m.hex(8).replace(/^0/, '');
        break;
      case 0x03:
        a.iccid = m.hex(10);
        break;
      case 0x09:
        a.satellites = m.u8();
        break;
      case 0x0a:
        a.satellitesVisible = m.u8();
        break;
      case 0x11: {
        const mcc = m.u16();
        const mnc = m.u16();
        const lac = m.u16();
        const cid = m.u24();
        const rssi = m.u8();
        if (cid > 0) pushAttribute(a, 'cellTowers', { mcc, mnc, lac, cid, rssi });
        break;
      }
      case 0x18:
        a.battery = round(m.u16() * 0.01, 2);
        break;
      case 0x28:
        a.hdop = round(m.u8() * 0.1, 1);
        break;
      case 0x29:
        a.index = m.u32();
        break;
      case 0x2a: {
        const input = m.u8();
        a.door = (input & 0x0f) > 0;
        a.tamper = input >> 4 > 0;
        break;
      }
      case 0x2c:
        a.deviceTime = isoOrNull(m.u32() * 1000);
        break;
      case 0x43: {
        const mcc = m.u16();
        const mnc = m.u16();
        const lac = m.u16();
        const cid = m.u32();
        const rssi = m.u8();
        if (cid > 0) pushAttribute(a, 'cellTowers', { mcc, mnc, lac, cid, rssi });
        break;
      }
      case 0x7f: {
        // Bluetooth sensor tags: MAC, 2 reserved bytes, battery %, temperature and humidity (1/10), flags.
        while (m.remaining >= 14) {
          const index = ++tagCount;
          a[`tag${index}Mac`] = m.hex(6);
          m.skip(2);
          a[`tag${index}BatteryLevel`] = m.u8();
          a[`tag${index}Temp`] = round(m.i16() / 10, 1);
          a[`tag${index}Humidity`] = round(m.u16() / 10, 1);
          m.skip(1);
        }
        break;
      }
      case 0x2b: {
        const event = m.u8();
        if (event === 0x11) addAlarm(d.alarms, Alarm.lowBattery);
        else if (event === 0x12) addAlarm(d.alarms, Alarm.lowPower);
        else if (event === 0x13) addAlarm(d.alarms, Alarm.powerCut);
        else if (event === 0x14) addAlarm(d.alarms, Alarm.removing);
        a.event = event;
        break;
      }
      case 0x2e:
        a.mileage = m.u32le();
        break;
      case 0x33: {
        const time = m.u32() * 1000;
        const satellites = m.u8();
        const altitude = m.i16();
        let lat = m.u32() / 1800000;
        let lon = m.u32() / 1800000;
        const speed = m.u8();
        const flags = m.u16();
        if (time === 0 && lat === 0 && lon === 0) break; // no fix yet
        if ((flags & 0x0400) === 0) lat = -lat;
        if ((flags & 0x0800) !== 0) lon = -lon;
        a.locationType = 'gps';
        const position = makePosition(time, lat, lon, speed, flags & 0x03ff, (flags & 0x1000) !== 0, a);
        position.satellites = satellites;
        position.altitude = altitude;
        d.position = position;
        break;
      }
      case 0x34:
        a.event = m.u8();
        break;
      default:
        break;
    }
    r.pos = end;
  }
  if (d.position && typeof a.satellites === 'number') {
    d.position.satellites = a.satellites;
    delete a.satellites;
  }
}

/** 0x9B: data passed through from an external serial device (RFID reader, sensor). */
function decodeSerialData(d: Gt06Decoding, r: ByteReader): void {
  r.skip(1); // external device type
  const data = r.bytes(r.remaining);
  d.attributes.serialData = isPrintable(data) ? trimControl(decodeText(data)) : toHex(data);
}
