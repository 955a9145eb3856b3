// Additional information items of a location report: id (1 byte), length (1 byte), value.
// 0x01-0x31 are JT/T 808 standard items; the others are vendor items whose meaning is known from devices
// in the field (and from the reference server's test vectors).

import { Alarm, type AlarmName, addAlarm } from '../alarms.ts';
import { round } from '../position.ts';
import { type ByteReader, isPrintable, trimControl } from '../reader.ts';
import type { Attributes, AttributeValue, Position } from '../types.ts';

const AOVX_MODELS = new Set(['AL300', 'GL100']);
const JC_MODELS = new Set(['JC371', 'JC181', 'JC182', 'JC450', 'JC451']);

function push(attributes: Attributes, key: string, value: AttributeValue): void {
  const list = attributes[key];
  if (Array.isArray(list)) list.push(value);
  else attributes[key] = [value];
}

function mac(r: ByteReader): string {
  const b = r.bytes(6);
  let out = '';
  for (let i = 0; i < 6; i++) out += (i > 0 ? ':' : '') + (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return out;
}

function startsWithText(m: ByteReader, text: string): boolean {
  if (m.remaining < text.length) return false;
  for (let i = 0; i < text.length; i++) if (m.buf[m.pos + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Temperatures sent as sign bit + magnitude in tenths. */
function signedTenths(value: number): number {
  return (value & 0x8000) !== 0 ? -round((value & 0x7fff) / 10, 1) : round(value / 10, 1);
}

/** Integer part with sign, fraction in 1/255 (sensor tags). */
function customDouble(r: ByteReader): number {
  const whole = r.i8();
  const fraction = r.u8();
  const sign = whole < 0 ? -1 : 1;
  return sign * (Math.abs(whole) + fraction / 255);
}

export function decodeLocationItem(id: number, length: number, m: ByteReader, position: Position, model: string) {
  const a = position.attributes;
  const alarms = position.alarms;
  const aovx = AOVX_MODELS.has(model);
  switch (id) {
    case 0x01: // mileage, 1/10 km
      a.mileage = m.u32() * 100;
      return;
    case 0x02: {
      // fuel, 1/10 L (top bit set: percent)
      const fuel = m.u16();
      a.fuel = (fuel & 0x8000) !== 0 ? fuel & 0x7fff : round(fuel / 10, 1);
      return;
    }
    case 0x03: // speed from the tachograph, 1/10 km/h
      a.obdSpeed = round(m.u16() / 10, 1);
      return;
    case 0x06:
      a.batteryLevel = m.u8();
      return;
    case 0x0b:
      decodeLockItem(m, length, a);
      return;
    case 0x14:
      a.videoAlarm = m.u32();
      return;
    case 0x25: // extended vehicle signals
      a.input = m.u32();
      return;
    case 0x2a: // IO status
      a.ioStatus = m.u16();
      return;
    case 0x2b:
    case 0xa7: // analog inputs
      a.adc1 = round(m.u16() / 100, 2);
      a.adc2 = round(m.u16() / 100, 2);
      return;
    case 0x30:
      a.signal = m.u8();
      return;
    case 0x31:
      position.satellites = m.u8();
      return;
    case 0x33:
      if (length === 1) {
        a.mode = m.u8();
      } else {
        const text = m.text(length);
        if (text.startsWith('*M00') && text.length >= 15) {
          const battery = Number.parseInt(text.substring(10, 13), 10);
          if (Number.isFinite(battery)) a.battery = battery / 100;
        }
      }
      return;
    case 0x51:
      if (length === 2 || length === 16) {
        for (let i = 1; i <= length / 2; i++) {
          const value = m.u16();
          if (value !== 0xffff) a[`temp${i}`] = signedTenths(value);
        }
      }
      return;
    case 0x56:
      a.batteryLevel = m.u8() * 10;
      return;
    case 0x57: {
      const driving = m.u16();
      if (driving & 0x100) addAlarm(alarms, Alarm.hardAcceleration);
      if (driving & 0x200) addAlarm(alarms, Alarm.hardBraking);
      if (driving & 0x400) addAlarm(alarms, Alarm.hardCornering);
      m.skip(2); // external switch state
      const more = m.u32();
      if ((model === 'MV810G' || model === 'MV710G') && more & 0x10000) addAlarm(alarms, Alarm.door);
      return;
    }
    case 0x60: {
      const event = m.u16();
      a.event = event;
      if (event >= 0x61 && event <= 0x66) {
        m.skip(6); // lock id
        a.driverUniqueId = m.text(8);
      }
      return;
    }
    case 0x63:
      for (let i = 1; i <= Math.floor(length / 11); i++) {
        a[`lock${i}Id`] = m.hex(6);
        a[`lock${i}Battery`] = round(m.u16() / 1000, 3);
        a[`lock${i}Seal`] = m.u8() === 0x31;
        m.skip(2); // physical state, signal
      }
      return;
    case 0x64:
    case 0x65:
      m.skip(5); // alarm serial number, status
      a[id === 0x64 ? 'adasAlarm' : 'dmsAlarm'] = m.u8();
      if (length >= 47) {
        m.pos = m.end - 16;
        a.alarmLabel = m.hex(16);
      }
      return;
    case 0x67:
      a.password = m.text(8);
      return;
    case 0x68:
      a.batteryLevel = round(m.u16() / 100, 2);
      return;
    case 0x69:
      a.battery = round(m.u16() / 100, 2);
      return;
    case 0x70: {
      m.skip(5); // alarm serial number, status
      const type = m.u8();
      if (type === 0x01) addAlarm(alarms, Alarm.hardAcceleration);
      else if (type === 0x02) addAlarm(alarms, Alarm.hardBraking);
      else if (type === 0x03) addAlarm(alarms, Alarm.hardCornering);
      else if (type === 0x16) addAlarm(alarms, Alarm.accident);
      return;
    }
    case 0x77: // tyre pressure monitoring
      while (m.remaining >= 7) {
        const index = m.u8();
        const sensorId = m.hex(3);
        const pressure = round((m.u16() & 0x3ff) / 40, 3); // bar
        const temperature = m.u8() - 50;
        const status = m.u8();
        push(a, 'tyres', { index, sensorId, pressure, temperature, status });
      }
      return;
    case 0x82:
      a.power = round(m.u16() / 10, 1);
      return;
    case 0x91: {
      a.battery = round(m.u16() / 10, 1);
      a.rpm = m.u16();
      a.obdSpeed = m.u8();
      a.throttle = Math.trunc((m.u8() * 100) / 255);
      a.engineLoad = Math.trunc((m.u8() * 100) / 255);
      a.coolantTemp = m.u8() - 40;
      m.skip(2);
      a.fuelConsumption = round(m.u16() / 100, 2);
      m.skip(8);
      a.fuelUsed = round(m.u16() / 100, 2);
      return;
    }
    case 0x94:
      if (length > 0) a.vin = m.text(length);
      return;
    case 0xac:
      a.mileage = m.u32();
      return;
    case 0xbc:
      a.driver = trimControl(m.text(length));
      return;
    case 0xbd:
      a.driverUniqueId = m.text(length);
      return;
    case 0xd0:
      if (m.u32() & 0x08) addAlarm(alarms, Alarm.vibration);
      return;
    case 0xd3:
      a.power = round(m.u16() / 10, 1);
      return;
    case 0xd4:
    case 0xe1:
    case 0xe9:
      decodeBatteryOrCells(id, length, m, a);
      return;
    case 0xd5:
      if (length === 2) {
        a.battery = round(m.u16() / 100, 2);
      } else {
        const count = m.u8();
        for (let i = 1; i <= count; i++) {
          a[`lock${i}Id`] = m.hex(5);
          a[`lock${i}Card`] = m.hex(5);
          a[`lock${i}Battery`] = m.u8();
          a[`lock${i}Locked`] = (m.u16() & 0x20) === 0;
        }
      }
      return;
    case 0xda: {
      m.skip(2); // string cut count
      const status = m.u8();
      a.string = (status & 0x01) !== 0;
      a.motion = (status & 0x04) !== 0;
      a.cover = (status & 0x08) !== 0;
      return;
    }
    case 0xe2:
      if (model !== 'DT800') a.fuel = round(m.u32() / 10, 1);
      return;
    case 0xe3:
      m.skip(1);
      a.batteryLevel = m.u8();
      a.battery = round(m.u16() / 100, 2);
      return;
    case 0xe4:
      if (m.u8() === 0) a.charge = true;
      a.batteryLevel = m.u8();
      return;
    case 0xe5:
      if (length === 1) a.motion = m.u8() === 1;
      return;
    case 0xe6:
      if (length >= 7 && startsWithText(m, '$OBD-RT')) {
        decodeObdRealtime(m.text(length, 'utf8'), a);
      } else if (length >= 11 && length % 11 === 0) {
        while (m.remaining >= 11) {
          const sensor = m.u8();
          m.skip(6); // MAC
          a[`temp${sensor}`] = customDouble(m);
          a[`humidity${sensor}`] = customDouble(m);
        }
      }
      return;
    case 0xe7:
      if (length === 8) {
        const flags = m.u16();
        if (flags & 0x01) addAlarm(alarms, Alarm.vibration);
        if ((flags >> 1) & 0x07) addAlarm(alarms, Alarm.sos);
      }
      return;
    case 0xe8:
      if (JC_MODELS.has(model)) decodeJimiItem(m, a, alarms);
      else a.lockStatus = m.u24();
      return;
    case 0xea:
      if (length > 2) decodeExternalSensors(m, a);
      return;
    case 0xeb:
      decodeExtendedItems(m, length, a, alarms);
      return;
    case 0xec:
    case 0xf4:
      while (m.remaining >= 7) {
        const address = mac(m);
        push(a, 'wifi', { mac: address, rssi: m.i8() });
      }
      return;
    case 0xed:
      a.card = trimControl(m.text(length));
      return;
    case 0xef:
      // Battery pack (BMS) item, Carhere layout (no public layout for pack data was found; README "Battery
      // packs"): pack voltage u16 1/100 V, current i16 1/100 A (+ charging, - discharging), state of charge u8 %,
      // temperature i8 °C, cycle count u16, fault bits u32 (bit n: battery alarm 50 + n, n 0..30).
      if (length >= 12) {
        const voltage = round(m.u16() / 100, 2);
        const current = round(m.i16() / 100, 2);
        const percentage = m.u8();
        const temperature = m.i8();
        const useCount = m.u16();
        const faults = m.u32() & 0x7fffffff;
        a.batteryPack = { voltage, current, percentage, temperature, useCount, faults };
      }
      return;
    case 0xee:
      if (length === 6) {
        a.signal = m.u8();
        a.power = round(m.u16() / 1000, 3);
        a.battery = round(m.u16() / 1000, 3);
        position.satellites = m.u8();
      }
      return;
    case 0xf0:
      while (m.remaining >= 13) {
        const mcc = m.u16();
        const mnc = m.u16();
        const cid = m.u32();
        const lac = m.u32();
        push(a, 'cellTowers', { mcc, mnc, lac, cid, rssi: m.u8() });
      }
      return;
    case 0xf1:
      a.power = round(m.u32() / 1000, 3);
      return;
    case 0xf2:
      a.versionFw = m.text(length);
      return;
    case 0xf3:
      if (aovx) decodeBleTags(m, a);
      else decodeObdItems(m, a);
      return;
    case 0xf5:
      if (length === 2) a.illuminance = m.u16();
      return;
    case 0xf6:
      decodeSensorItem(m, length, aovx, a);
      return;
    case 0xf7:
      if (length === 2) {
        a.humidity = round(m.u16() / 10, 1);
      } else {
        a.battery = round(m.u32() / 1000, 3);
        if (length >= 5) {
          const status = m.u8();
          if (status === 2 || status === 3) a.charge = true;
        }
        if (length >= 6) a.batteryLevel = m.u8();
      }
      return;
    case 0xf8:
      if (aovx) {
        m.skip(9); // working mode, IMEI
        a.iccid = m.hex(10);
      } else if (model === 'C5' || model === 'C5L') {
        a.steps = m.u16();
      } else {
        a.temp2 = round(m.u16() / 10 - 50, 1);
      }
      return;
    case 0xf9: {
      const mask = m.u16();
      if (mask & 0x01) m.skip(4); // GNSS age
      if (mask & 0x02) m.skip(4); // ACC on time
      if (mask & 0x04) a.hdop = round(m.u16() / 10, 1);
      if (mask & 0x08) m.skip(6); // GNSS time
      if (mask & 0x20) m.skip(8); // sampling and report interval
      if (mask & 0x40) a.temp3 = round(m.i16() / 10, 1);
      return;
    }
    case 0xfb:
      a.container = m.text(length);
      return;
    case 0xfc:
      a.geofence = m.u8();
      return;
    case 0xfe:
      decodeFeItem(m, length, a, alarms);
      return;
    default:
      return;
  }
}

export function decodeLockItem(m: ByteReader, length: number, a: Attributes): void {
  a.lockCommand = m.u8();
  if (length >= 5 && length <= 6) a.lockCard = m.u32();
  else if (length >= 7) a.lockPassword = m.text(6);
  if (length % 2 === 0) a.unlockResult = m.u8();
}

function decodeBatteryOrCells(id: number, length: number, m: ByteReader, a: Attributes): void {
  if (length === 1) {
    const level = m.u8();
    if (level === 0xff) a.charge = true;
    else a.batteryLevel = level;
  } else if (id === 0xe1 && length >= 12 && (length - 4) % 8 === 0) {
    const mcc = m.u16();
    const mnc = m.u16();
    while (m.remaining >= 8) {
      const lac = m.u24();
      const cid = m.u32();
      const rssi = m.u8();
      if (lac > 0 && lac <= 0xffff && cid <= 0xfffffff) push(a, 'cellTowers', { mcc, mnc, lac, cid, rssi });
    }
  } else if (id === 0xe1 && length === 2) {
    a.power = round(m.u16() / 10, 1);
  } else {
    a.driverUniqueId = String(m.u32());
  }
}

function decodeJimiItem(m: ByteReader, a: Attributes, alarms: AlarmName[]): void {
  const type = m.u16();
  switch (type) {
    case 0x2002:
      m.skip(1);
      a.uploadMode = m.u8();
      a.buffered = m.u8() === 1;
      return;
    case 0x2003: {
      m.skip(1);
      a.charge = m.u8() === 1;
      const level = m.u8();
      if (level >= 1 && level <= 6) a.batteryLevel = Math.trunc((level * 100) / 6);
      a.battery = round(m.u16() / 100, 2);
      a.signal = m.u8();
      a.power = round(m.u16() / 100, 2);
      return;
    }
    case 0x2005:
      m.skip(1);
      while (m.remaining >= 3) {
        const statusId = m.u16();
        const length = Math.min(m.u8(), m.remaining);
        const s = m.sub(length);
        if (statusId === 0x0001) a.battery = round(s.u16() / 100, 2);
        else if (statusId === 0x0002) a.dataUsage = s.u32();
        else if (statusId === 0x0003) a.batteryLevel = s.u8();
        else if (statusId === 0x0004) a.charge = s.u8() === 0;
        else if (statusId === 0x0005) a.iccid = s.hex(10).substring(0, 19);
        else if (statusId === 0x0007) a.hdop = round(s.u16() / 10, 1);
        else if (statusId === 0x2001) a.power = round(s.u16() / 10, 1);
      }
      return;
    case 0x0001:
      addAlarm(alarms, Alarm.fault);
      return;
    case 0x0400:
    case 0x0412:
      addAlarm(alarms, Alarm.hardAcceleration);
      return;
    case 0x0401:
    case 0x0413:
      addAlarm(alarms, Alarm.hardBraking);
      return;
    case 0x0402:
    case 0x0414:
      addAlarm(alarms, Alarm.hardCornering);
      return;
    case 0x0403:
      addAlarm(alarms, Alarm.overspeed);
      return;
    case 0x0405:
    case 0x0416:
    case 0x0417:
      addAlarm(alarms, Alarm.accident);
      return;
    case 0x0406:
      addAlarm(alarms, Alarm.vibration);
      return;
    case 0x0407:
      addAlarm(alarms, Alarm.tow);
      return;
    case 0x0408:
      addAlarm(alarms, Alarm.geofenceEnter);
      return;
    case 0x0409:
      addAlarm(alarms, Alarm.geofenceExit);
      return;
    case 0x040c:
      addAlarm(alarms, Alarm.door);
      return;
    case 0x0415:
      addAlarm(alarms, Alarm.laneChange);
      return;
    case 0x0c01:
      addAlarm(alarms, Alarm.sos);
      return;
    case 0x0c02:
      addAlarm(alarms, Alarm.lowPower);
      return;
    case 0x0c03:
      a.acc = true;
      return;
    case 0x0c04:
      a.acc = false;
      return;
    case 0x0c05:
      addAlarm(alarms, Alarm.general);
      return;
    case 0x0c0e:
      addAlarm(alarms, Alarm.powerCut);
      return;
    case 0x0c0f:
      addAlarm(alarms, Alarm.lowBattery);
      return;
    case 0x0c10:
      addAlarm(alarms, Alarm.powerOff);
      return;
    case 0x0c12:
      addAlarm(alarms, Alarm.tampering);
      return;
    default:
      return;
  }
}

function decodeExternalSensors(m: ByteReader, a: Attributes): void {
  m.skip(1); // extended info type
  while (m.remaining >= 2) {
    const type = m.u8();
    const length = m.u8();
    if (length > m.remaining) return;
    const s = m.sub(length);
    if (type === 0x11) {
      a.externalAlarms = s.u16();
      a.alarmThresholdType = s.u8();
    } else if (type === 0x13) {
      a.externalIlluminance = s.u16();
    } else if (type === 0x14) {
      a.externalAirPressure = s.u16();
    } else if (type === 0x15) {
      a.externalHumidity = round(s.u16() / 10, 1);
    } else if (type === 0x16) {
      a.externalTemp = round(s.u16() / 10 - 50, 1);
    }
  }
}

/** 0xEB: a cell list, a time zone text, or nested items of length (2), type (2), value. */
function decodeExtendedItems(m: ByteReader, length: number, a: Attributes, alarms: AlarmName[]): void {
  if (length >= 3 && ((m.buf[m.pos] << 8) | m.buf[m.pos + 1]) > 200 && (length - 3) % 5 === 0) {
    const mcc = m.u16();
    const mnc = m.u8();
    while (m.remaining >= 5) push(a, 'cellTowers', { mcc, mnc, lac: m.u16(), cid: m.u16(), rssi: m.u8() });
    return;
  }
  if (isPrintable(m.buf.subarray(m.pos, m.end))) {
    a.timezone = m.text(length, 'utf8');
    return;
  }
  while (m.remaining >= 4) {
    const itemLength = m.u16();
    if (itemLength < 2 || itemLength > m.remaining) return;
    const s = m.sub(itemLength);
    const type = s.u16();
    switch (type) {
      case 0x0001:
        a.fuel1 = round(s.u16() / 10, 1);
        break;
      case 0x0023: {
        const value = Number.parseFloat(s.text(6));
        if (Number.isFinite(value)) a.fuel2 = value;
        break;
      }
      case 0x002d:
        if (itemLength === 6) a.power = round(s.u32() / 1000, 3);
        else a.battery = round(s.u16() / 1000, 3);
        break;
      case 0x0089: {
        const flags = s.u32();
        if ((flags & 0x01) === 0) addAlarm(alarms, Alarm.powerOff);
        if ((flags & 0x1000) === 0) addAlarm(alarms, Alarm.removing);
        break;
      }
      case 0x00b2:
        a.iccid = s.hex(10).replace(/f+$/, '');
        break;
      case 0x00b9: {
        s.skip(1); // count
        const values = s.text(s.remaining).split(',');
        for (let i = 0; i + 1 < values.length; i += 2) {
          const rssi = Number.parseInt(values[i + 1], 10);
          push(a, 'wifi', Number.isFinite(rssi) ? { mac: values[i], rssi } : { mac: values[i] });
        }
        break;
      }
      case 0x00c5: {
        const flags = s.u32();
        if ((flags & 0x40) === 0) addAlarm(alarms, Alarm.vibration);
        const motion = (flags >>> 23) & 0x03;
        if (motion === 0) a.motion = true;
        else if (motion === 1) a.motion = false;
        break;
      }
      case 0x00c6: {
        const batteryAlarm = s.u8();
        if (batteryAlarm === 0x03 || batteryAlarm === 0x04) addAlarm(alarms, Alarm.lowBattery);
        a.batteryAlarm = batteryAlarm;
        break;
      }
      case 0x00ce:
        a.power = round(s.u16() / 100, 2);
        break;
      case 0x00d8:
        push(a, 'cellTowers', { mcc: s.u16(), mnc: s.u8(), lac: s.u16(), cid: s.u32() });
        break;
      case 0x00a8:
      case 0x00e1:
        a.batteryLevel = s.u8();
        break;
      default:
        break;
    }
  }
}

function decodeBleTags(m: ByteReader, a: Attributes): void {
  const mask = m.u8();
  let index = 0;
  while (m.remaining >= 7) {
    index++;
    a[`tag${index}Mac`] = m.hex(6);
    a[`tag${index}Rssi`] = m.i8();
    if (mask & 0x01) a[`tag${index}Name`] = trimControl(m.text(10));
    if (mask & 0x02) m.skip(2); // firmware version
    if (mask & 0x04) a[`tag${index}Battery`] = round(m.u16() / 1000, 3);
    if (mask & 0x08) a[`tag${index}Temp`] = round(m.i16() / 10, 1);
    if (mask & 0x10) a[`tag${index}Humidity`] = round(m.i16() / 10, 1);
    if (mask & 0x20) m.skip(6); // accelerometer
    if (mask & 0x40) m.skip(2);
    if (mask & 0x80) m.skip(2);
  }
}

function decodeObdItems(m: ByteReader, a: Attributes): void {
  while (m.remaining >= 3) {
    const type = m.u16();
    const length = Math.min(m.u8(), m.remaining);
    const s = m.sub(length);
    switch (type) {
      case 0x0002:
        a.obdSpeed = round(s.u16() / 10, 1);
        break;
      case 0x0003:
        a.rpm = s.u16();
        break;
      case 0x0004:
        a.power = round(s.u16() / 1000, 3);
        break;
      case 0x0005:
        a.obdOdometer = s.u32() * 100;
        break;
      case 0x0007:
        a.fuelConsumption = round(s.u16() / 10, 1);
        break;
      case 0x0008:
        a.engineLoad = round(s.u16() / 10, 1);
        break;
      case 0x0009:
        a.coolantTemp = s.u16() - 40;
        break;
      case 0x000b:
        a.intakePressure = s.u16();
        break;
      case 0x000c:
        a.intakeTemp = s.u16() - 40;
        break;
      case 0x000d:
        a.intakeFlow = s.u16();
        break;
      case 0x000e:
        a.throttle = Math.trunc((s.u16() * 100) / 255);
        break;
      case 0x0050:
        a.vin = s.text(Math.min(17, length)).replace(/\0.*$/, '');
        break;
      case 0x0051:
        if (length > 0) a.cvn = s.hex(length);
        break;
      case 0x0052:
        if (length > 0) a.calid = s.text(length).replace(/\0.*$/, '');
        break;
      case 0x0100:
        a.tripOdometer = round(s.u16() / 10, 1);
        break;
      case 0x0102:
        a.tripFuel = round(s.u16() / 10, 1);
        break;
      case 0x0112:
        a.hardAccelerationCount = s.u16();
        break;
      case 0x0113:
        a.hardDecelerationCount = s.u16();
        break;
      case 0x0114:
        a.hardCorneringCount = s.u16();
        break;
      default:
        break;
    }
  }
}

function decodeSensorItem(m: ByteReader, length: number, aovx: boolean, a: Attributes): void {
  if (!aovx && length === 2) {
    a.airPressure = m.u16();
    return;
  }
  if (!aovx && length === 8) {
    a.imei = m.hex(8).substring(1);
    return;
  }
  const event = m.u8();
  a.event = event;
  if (event === 2) a.motion = true;
  const mask = m.u8();
  if (mask & 0x01) a.lightSensor = m.u16();
  if (mask & 0x02) a.temp1 = round(m.i16() / 10, 1);
  if (mask & 0x04) a.humidity = round(m.i16() / 10, 1);
  if (mask & 0x08) a.gSensor = `[${m.i16()},${m.i16()},${m.i16()}]`;
  if (mask & 0x10) m.skip(10); // thresholds
  if (mask & 0x20) a.airPressure = m.u16();
}

function decodeFeItem(m: ByteReader, length: number, a: Attributes, alarms: AlarmName[]): void {
  if (length === 1) {
    a.batteryLevel = m.u8();
  } else if (length === 2) {
    a.power = round(m.u16() / 10, 1);
  } else if (length === 4) {
    a.mileage = m.u32();
  } else {
    const mark = m.u8();
    if (mark === 0x7c) {
      while (m.remaining >= 3) {
        const type = m.u8();
        const itemLength = m.u8();
        if (type === 0x01 && itemLength >= 4 && m.remaining >= 5) {
          const flags = m.u32();
          if (flags & 0x01) addAlarm(alarms, Alarm.hardAcceleration);
          if (flags & 0x02) addAlarm(alarms, Alarm.hardBraking);
          if (flags & 0x04) addAlarm(alarms, Alarm.hardCornering);
          if (flags & 0x08) addAlarm(alarms, Alarm.accident);
          if (flags & 0x10) addAlarm(alarms, Alarm.tampering);
          m.skip(itemLength - 4);
        } else {
          m.skip(Math.min(itemLength, m.remaining - 1));
        }
      }
    }
    if (m.remaining > 0) a.batteryLevel = m.u8();
  }
}

/** "$OBD-RT,power,rpm,speed,throttle,load,coolant,fuel rate,average fuel,trip,odometer,trip fuel,fuel used". */
export function decodeObdRealtime(text: string, a: Attributes): void {
  const values = text.split(',');
  const number = (i: number): number | null => {
    const v = values[i];
    if (v === undefined || v.trim() === '') return null;
    const n = Number.parseFloat(v);
    return Number.isFinite(n) ? n : null;
  };
  const set = (key: string, i: number) => {
    const n = number(i);
    if (n !== null) a[key] = n;
  };
  set('power', 1);
  set('rpm', 2);
  set('obdSpeed', 3);
  set('throttle', 4);
  set('engineLoad', 5);
  set('coolantTemp', 6);
  set('fuelConsumption', 7);
  set('fuelConsumption', 8); // average overrides the instant value
  set('tripOdometer', 9);
  set('obdOdometer', 10);
  set('tripFuelUsed', 11);
  set('fuelUsed', 12);
}

/** Item 0x80: the rest of the body is a second list of (id, length, value) OBD items. */
export function decodeObdExtension(r: ByteReader, a: Attributes): void {
  while (r.remaining >= 2) {
    const id = r.u8();
    const length = r.u8();
    if (length > r.remaining) return;
    const s = r.sub(length);
    try {
      decodeObdExtensionItem(id, length, s, a);
    } catch {
      // a malformed vendor item is skipped
    }
  }
}

function decodeObdExtensionItem(id: number, length: number, s: ByteReader, a: Attributes): void {
  switch (id) {
    case 0x01:
      a.mileage = s.u32() * 100;
      return;
    case 0x02:
      a.fuel = round(s.u16() / 10, 1);
      return;
    case 0x03:
      a.obdSpeed = round(s.u16() / 10, 1);
      return;
    case 0x56:
      s.skip(1);
      a.batteryLevel = s.u8();
      return;
    case 0x61:
      a.power = round(s.u16() / 100, 2);
      return;
    case 0x69:
      a.battery = round(s.u16() / 100, 2);
      return;
    case 0x80:
      a.obdSpeed = s.u8();
      return;
    case 0x81:
      a.rpm = s.u16();
      return;
    case 0x82:
      a.power = round(s.u16() / 10, 1);
      return;
    case 0x83:
      a.engineLoad = s.u8();
      return;
    case 0x84:
      a.coolantTemp = s.u8() - 40;
      return;
    case 0x85:
      a.fuelConsumption = s.u16();
      return;
    case 0x86:
      a.intakeTemp = s.u8() - 40;
      return;
    case 0x87:
      a.intakeFlow = s.u16();
      return;
    case 0x88:
      a.intakePressure = s.u8();
      return;
    case 0x89:
      a.throttle = s.u8();
      return;
    case 0x8b:
      a.vin = s.text(17);
      return;
    case 0x8c:
      a.obdOdometer = s.u32() * 100;
      return;
    case 0x8d:
      a.tripOdometer = s.u16() * 1000;
      return;
    case 0x8e:
      a.fuel = s.u8();
      return;
    case 0xa0:
      a.dtcs = s.text(length).replace(/,/g, ' ');
      return;
    case 0xcc:
      a.iccid = s.text(20);
      return;
    default:
      return;
  }
}
