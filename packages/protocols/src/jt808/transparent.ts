// 0x0900 transparent uplink: a type byte and vendor data (OBD, driver cards, sensor tags, ...).

import { Alarm, type AlarmName, addAlarm } from '../alarms.ts';
import { makePosition, round } from '../position.ts';
import { type ByteReader, trimControl } from '../reader.ts';
import type { Attributes, Position } from '../types.ts';
import type { Jt808Decoding } from './decoding.ts';
import { decodeObdRealtime } from './items.ts';
import { readBasicLocation, readBcdTime } from './location.ts';

function iso(epoch: number): string | null {
  return Number.isFinite(epoch) ? new Date(epoch).toISOString() : null;
}

/** Returns a position when the data carries a fix; otherwise fills d.attributes. */
export function decodeTransparent(d: Jt808Decoding, r: ByteReader): Position | null {
  const a = d.attributes;
  const tz = d.ctx.timeZoneMinutes;
  const type = r.u8();
  a.transparentType = type;
  switch (type) {
    case 0x40: {
      const text = trimControl(r.text(r.remaining));
      if (text.startsWith('GTSL')) {
        const values = text.split('|');
        if (values.length > 4) a.driverUniqueId = values[4];
      } else if (text.length > 0) {
        a.data = text;
      }
      return null;
    }
    case 0x41:
      decodeObdRealtime(trimControl(r.text(r.remaining)), a);
      return null;
    case 0xf0:
      return decodeVehicleData(d, r);
    case 0xff: {
      const time = readBcdTime(r, tz);
      const lat = r.i32() / 1e6;
      const lon = r.i32() / 1e6;
      const altitude = r.i16();
      const speed = r.u16() / 10;
      const course = r.u16();
      a.locationType = 'gps';
      const position = makePosition(time.epoch, lat, lon, speed, course, time.valid, a);
      position.altitude = altitude;
      return position;
    }
    case 0xf3:
      while (r.remaining >= 4) {
        const subtype = r.u16();
        const length = Math.min(r.u16(), r.remaining);
        const s = r.sub(length);
        if (subtype === 0x0002 && length >= 2) a.collision = s.u16() / 256 / 100;
        else if (subtype === 0x0006 && length >= 6) {
          const time = readBcdTime(s, tz);
          a.deviceTime = time.valid ? iso(time.epoch) : null;
        }
      }
      return null;
    case 0x53:
    case 0x54:
      return decodeSensorReport(d, r, type);
    default:
      if (r.remaining > 0) a.data = r.hex(r.remaining);
      return null;
  }
}

/** 0xF0: vehicle data (OBD values, fault codes, driving events, trips) with time and coordinates. */
function decodeVehicleData(d: Jt808Decoding, r: ByteReader): Position | null {
  const a: Attributes = d.attributes;
  const alarms = d.alarms;
  const tz = d.ctx.timeZoneMinutes;
  const time = readBcdTime(r, tz);
  a.deviceTime = time.valid ? iso(time.epoch) : null;
  if (r.u8() > 0) a.archive = true;
  r.skip(1); // vehicle type
  const subtype = r.u8();
  switch (subtype) {
    case 0x01: {
      const count = r.u8();
      for (let i = 0; i < count && r.remaining >= 3; i++) {
        const id = r.u16();
        const length = Math.min(r.u8(), r.remaining);
        decodeVehicleValue(id, length, r.sub(length), a);
      }
      break;
    }
    case 0x02: {
      const codes: string[] = [];
      const count = r.u16();
      for (let i = 0; i < count; i++) {
        r.skip(4); // system id
        const codeCount = r.u16();
        for (let j = 0; j < codeCount; j++) {
          r.skip(8); // dtc, status
          codes.push(trimControl(r.text(r.u16())));
        }
      }
      a.dtcs = codes.join(' ');
      break;
    }
    case 0x03: {
      const count = r.u8();
      for (let i = 0; i < count; i++) {
        const id = r.u8();
        const length = r.u8();
        const alarm = drivingEventAlarm(id);
        if (alarm) addAlarm(alarms, alarm);
        r.skip(Math.min(length, r.remaining));
      }
      break;
    }
    case 0x04: {
      const tripType = r.u8();
      a.tripNumber = r.u32();
      r.skip(6); // start time
      if (tripType === 0x02) {
        r.skip(6 + 8 + 8 + 1); // end time, start and end location, flags
        a.idlingCount = r.u16();
        a.idlingTime = r.u16();
        a.tripOdometer = r.u16() * 100;
        a.tripFuel = round(r.u16() / 100, 2);
      }
      return null;
    }
    case 0x0b:
      if (r.u8() > 0) a.vin = r.text(17);
      return null;
    case 0x15: {
      const event = r.i32();
      const alarm =
        event === 51
          ? Alarm.hardAcceleration
          : event === 52
            ? Alarm.hardBraking
            : event === 53
              ? Alarm.hardCornering
              : event === 54
                ? Alarm.laneChange
                : event === 56
                  ? Alarm.accident
                  : null;
      if (alarm) addAlarm(alarms, alarm);
      else a.event = event;
      return null;
    }
    default:
      return null;
  }
  // Sub-types 1-3 end with the status word and coordinates of the basic location block.
  if (r.remaining < 8) return null;
  const status = r.u32();
  let lat = r.u32() / 1e6;
  let lon = r.u32() / 1e6;
  if (status & 0x04) lat = -lat;
  if (status & 0x08) lon = -lon;
  a.acc = (status & 0x01) !== 0;
  a.locationType = 'gps';
  return makePosition(time.epoch, lat, lon, 0, 0, (status & 0x02) !== 0 && time.valid, a);
}

function drivingEventAlarm(id: number): AlarmName | null {
  switch (id) {
    case 0x01:
      return Alarm.powerRestored;
    case 0x02:
      return Alarm.powerCut;
    case 0x0e:
      return Alarm.idle;
    case 0x1a:
      return Alarm.hardAcceleration;
    case 0x1b:
      return Alarm.hardBraking;
    case 0x1c:
      return Alarm.hardCornering;
    case 0x1d:
    case 0x1e:
    case 0x1f:
      return Alarm.laneChange;
    case 0x23:
      return Alarm.fatigueDriving;
    case 0x25:
      return Alarm.overspeed;
    case 0x26:
    case 0x27:
    case 0x28:
      return Alarm.accident;
    case 0x31:
    case 0x32:
      return Alarm.door;
    default:
      return null;
  }
}

function decodeVehicleValue(id: number, length: number, s: ByteReader, a: Attributes): void {
  switch (id) {
    case 0x0102:
    case 0x0528:
    case 0x0546:
      a.mileage = s.u32() * 100;
      return;
    case 0x0103:
      a.fuel = round(s.u32() / 100, 2);
      return;
    case 0x0111:
      a.fuelTemp = s.u8() - 40;
      return;
    case 0x012e:
      a.oilLevel = round(s.u16() / 10, 1);
      return;
    case 0x052a:
      a.fuel = round(s.u16() / 100, 2);
      return;
    case 0x0105:
    case 0x052c:
      a.fuelUsed = round(s.u32() / 100, 2);
      return;
    case 0x014a:
    case 0x0537:
    case 0x0538:
    case 0x0539:
      a.fuelConsumption = round(s.u16() / 100, 2);
      return;
    case 0x052b:
      a.fuel = s.u8();
      return;
    case 0x052d:
      a.coolantTemp = s.u8() - 40;
      return;
    case 0x052e:
      a.airTemp = s.u8() - 40;
      return;
    case 0x0530:
      a.power = round(s.u16() / 1000, 3);
      return;
    case 0x0535:
      a.obdSpeed = round(s.u16() / 10, 1);
      return;
    case 0x0536:
      a.rpm = s.u16();
      return;
    case 0x053d:
      a.intakePressure = round(s.u16() / 10, 1);
      return;
    case 0x0544:
      a.liquidLevel = s.u8();
      return;
    case 0x0547:
    case 0x0548:
      a.throttle = s.u8();
      return;
    case 0xfeec:
      a.vin = s.text(length);
      return;
    default:
      if (length === 1) a[`io${id}`] = s.u8();
      else if (length === 2) a[`io${id}`] = s.u16();
      else if (length === 4) a[`io${id}`] = s.u32();
      return;
  }
}

/** 0x53 (Bluetooth tags) and 0x54 (sensor samples) after a basic location block. */
function decodeSensorReport(d: Jt808Decoding, r: ByteReader, type: number): Position {
  const a: Attributes = d.attributes;
  const position = readBasicLocation(r, d.ctx.timeZoneMinutes, d.model, a);
  if (type === 0x53) {
    r.skip(1); // node count across packets
    while (r.remaining >= 8) {
      const index = r.u8() + 1;
      a[`tag${index}Mac`] = r.hex(6);
      a[`tag${index}Rssi`] = r.i8();
      a[`tag${index}Data`] = r.hex(Math.min(r.u8(), r.remaining));
    }
  } else {
    while (r.remaining >= 8) {
      const mask = r.u16();
      r.skip(6); // sample time
      if (mask & 0x01) a.lightSensor = r.u16();
      if (mask & 0x02) {
        a.deviceTemp = round(r.i16() / 10, 1);
        a.humidity = round(r.i16() / 10, 1);
      }
      if (mask & 0x04) a.temp3 = round(r.i16() / 10, 1);
      if (mask & 0x08) r.skip(6); // acceleration
      if (mask & 0x10) a.airPressure = r.u16();
    }
  }
  return position;
}
