import { alarmType, protocolAlarmCode } from '@carhere/domain';
import { Alarm, type Position } from '@carhere/protocols';
import { describe, expect, it } from 'vitest';
import { prepareMessage } from './prepare.ts';
import {
  derivedAlarms,
  deviceAlarms,
  EARLIEST_FIX_MS,
  FUTURE_TOLERANCE_MS,
  LOW_BATTERY_ALARM,
  newDerivedAlarmMemory,
  OVERSPEED_ALARM,
  POWER_CUT_ALARM,
  rejectReason,
  statusPatchOf,
  toStoredPosition,
} from './rules.ts';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

function fix(over: Partial<Position> = {}): Position {
  return {
    time: new Date(NOW - 1000),
    lat: 39.915,
    lon: 116.404,
    altitude: 50,
    speedKmh: 40,
    course: 90,
    valid: true,
    alarms: [],
    attributes: {},
    ...over,
  };
}

const place = { time: NOW, lat: 39.9, lon: 116.4, speed: 10, course: 0 };

describe('which fixes are stored', () => {
  it('keeps a normal fix and rejects out-of-range coordinates, 0,0 and impossible times', () => {
    expect(rejectReason(fix(), NOW)).toBeNull();
    expect(rejectReason(fix({ lat: 91 }), NOW)).toBe('range');
    expect(rejectReason(fix({ lon: -180.5 }), NOW)).toBe('range');
    expect(rejectReason(fix({ lat: 0, lon: 0 }), NOW)).toBe('range');
    expect(rejectReason(fix({ lat: Number.NaN }), NOW)).toBe('range');
    expect(rejectReason(fix({ time: new Date(EARLIEST_FIX_MS - 1) }), NOW)).toBe('time');
    expect(rejectReason(fix({ time: new Date(NOW + FUTURE_TOLERANCE_MS + 1) }), NOW)).toBe('time');
    expect(rejectReason(fix({ time: new Date(NOW + FUTURE_TOLERANCE_MS - 1) }), NOW)).toBeNull();
    expect(rejectReason(fix({ time: new Date(Number.NaN) }), NOW)).toBe('time');
  });

  it('a fix without GPS fix (valid false) is still stored, flagged', () => {
    expect(rejectReason(fix({ valid: false }), NOW)).toBeNull();
    expect(toStoredPosition(fix({ valid: false })).valid).toBe(false);
  });

  it('reads acc, mileage, battery % and the location type from the attributes', () => {
    const p = toStoredPosition(
      fix({ satellites: 9, attributes: { acc: true, mileage: 1234.5, batteryLevel: 101.2, locationType: 'BD' } }),
    );
    expect(p).toMatchObject({
      acc: true,
      mileage: 1234.5,
      battery: 100,
      locationType: 'beidou',
      satellites: 9,
      speed: 40,
    });
    expect(toStoredPosition(fix()).locationType).toBe('gps');
    expect(toStoredPosition(fix({ valid: false })).locationType).toBeNull();
  });
});

describe('alarms', () => {
  it('maps device alarm names to catalogue codes once each, ignoring unknown names', () => {
    const a = deviceAlarms(['sos', 'sos', 'powerCut', 'somethingNew'], place);
    expect(a.map((x) => [x.type, x.name, x.source])).toEqual([
      [1, 'sos', 'device'],
      [2, 'powerCut', 'device'],
    ]);
    expect(a[0]).toMatchObject({ time: NOW, lat: 39.9, lon: 116.4 });
  });

  it('every alarm name the decoders have becomes one alarm row with its domain catalogue code', () => {
    for (const name of Object.values(Alarm)) {
      const rows = deviceAlarms([name], place);
      if (protocolAlarmCode(name) === null) {
        expect(rows, name).toEqual([]); // powerRestored, lock, unlock: events, not alarms
        continue;
      }
      expect(
        rows.map((r) => [r.type, r.name]),
        name,
      ).toEqual([[protocolAlarmCode(name), name]]);
      expect(alarmType(rows[0].type), name).toBeDefined();
    }
    // Names without a code of their own share the catch-all 0 and are stored once per message.
    expect(deviceAlarms(['fault', 'gpsAntennaCut', 'toString'], place).map((r) => [r.type, r.name])).toEqual([
      [0, 'fault'],
    ]);
  });

  it('raises overspeed once the speed has been over the limit (120 km/h by default) for 10 s, once per event', () => {
    const m = newDerivedAlarmMemory();
    let t = fix().time.getTime();
    const at = (speed: number, afterSeconds = 5) => {
      t += afterSeconds * 1000;
      return derivedAlarms(m, { ...toStoredPosition(fix()), time: t, speed }, {}, [], place).map((a) => a.type);
    };
    expect(at(120)).toEqual([]);
    expect(at(121)).toEqual([]);
    expect(at(125)).toEqual([]);
    expect(at(150)).toEqual([OVERSPEED_ALARM]);
    expect(at(150)).toEqual([]);
    expect(at(80)).toEqual([]);
    expect(at(130)).toEqual([]); // a single fix over the limit is no event
    expect(at(80)).toEqual([]);
    const slow = newDerivedAlarmMemory(60);
    const t0 = fix().time.getTime();
    const step = (s: number) =>
      derivedAlarms(slow, { ...toStoredPosition(fix()), time: t0 + s * 1000, speed: 70 }, {}, [], place);
    expect(step(0)).toEqual([]);
    expect(step(10).map((a) => a.type)).toEqual([OVERSPEED_ALARM]);
  });

  it('does not derive overspeed from an invalid fix, nor repeat one the device reported', () => {
    const m = newDerivedAlarmMemory();
    expect(derivedAlarms(m, { ...toStoredPosition(fix({ valid: false })), speed: 200 }, {}, [], place)).toEqual([]);
    expect(derivedAlarms(m, { ...toStoredPosition(fix()), speed: 200 }, {}, [OVERSPEED_ALARM], place)).toEqual([]);
  });

  it('raises low battery at 10 % or less, once until it recovers', () => {
    const m = newDerivedAlarmMemory();
    const at = (level: number) => derivedAlarms(m, null, { batteryLevel: level }, [], place).map((a) => a.type);
    expect(at(11)).toEqual([]);
    expect(at(10)).toEqual([LOW_BATTERY_ALARM]);
    expect(at(5)).toEqual([]);
    expect(at(50)).toEqual([]);
    expect(at(9)).toEqual([LOW_BATTERY_ALARM]);
  });

  it('raises power cut when external power falls from over 5 V to under 1 V', () => {
    const m = newDerivedAlarmMemory();
    const at = (power: number) => derivedAlarms(m, null, { power }, [], place).map((a) => a.type);
    expect(at(0.2)).toEqual([]); // no earlier reading
    expect(at(12.4)).toEqual([]);
    expect(at(0.5)).toEqual([POWER_CUT_ALARM]);
    expect(at(0.4)).toEqual([]);
  });
});

describe('status and message preparation', () => {
  it('keeps only known status values', () => {
    expect(statusPatchOf({})).toBeNull();
    expect(statusPatchOf({ acc: false, batteryLevel: 55, power: 12.1, signal: 4, iccid: '8986', other: 'x' })).toEqual({
      acc: false,
      battery: 55,
      attributes: { power: 12.1, signal: 4, iccid: '8986' },
    });
    expect(statusPatchOf({ tyres: [{ pressure: 230 }] })).toEqual({ tyres: [{ pressure: 230 }] });
  });

  it('prepares a message: stored fixes, rejected count, device and derived alarms at the latest fix', () => {
    const m = newDerivedAlarmMemory();
    // over the limit since 10 s before this message: the overspeed event is established by its fix
    m.overspeed = { since: NOW - 10_500, last: NOW - 5_500, raised: false };
    const msg = {
      positions: [fix({ lat: 95 }), fix({ speedKmh: 130, time: new Date(NOW - 500) })],
      alarms: [Alarm.sos],
      attributes: {},
    };
    const p = prepareMessage(msg, m, NOW);
    expect(p.rejected).toBe(1);
    expect(p.positions).toHaveLength(1);
    expect(p.alarms.map((a) => a.type).sort()).toEqual([1, 6]);
    expect(p.alarms.every((a) => a.time === NOW - 500)).toBe(true);
  });

  it('places an alarm without a fix at the receive time without coordinates', () => {
    const p = prepareMessage({ positions: [], alarms: ['powerCut'], attributes: {} }, newDerivedAlarmMemory(), NOW);
    expect(p.alarms).toEqual([
      { type: 2, name: 'powerCut', source: 'device', time: NOW, lat: null, lon: null, speed: null, course: null },
    ]);
  });
});

describe('battery-pack alarms (50–80)', () => {
  const packFix = (faults: number): Position =>
    fix({
      attributes: {
        batteryPack: { voltage: 52, current: -3, percentage: 60, temperature: 25, useCount: 10, faults },
      },
    });

  it('a fault bit raises its alarm once, when it appears', () => {
    const memory = newDerivedAlarmMemory();
    const first = prepareMessage({ positions: [packFix(0b101)], alarms: [], attributes: {} }, memory, NOW);
    expect(first.alarms.map((a) => a.type)).toEqual([50, 52]);
    expect(first.status?.batteryPack).toMatchObject({ voltage: 52, faults: 0b101 });
    const again = prepareMessage({ positions: [packFix(0b101)], alarms: [], attributes: {} }, memory, NOW);
    expect(again.alarms).toEqual([]);
    const more = prepareMessage({ positions: [packFix(0b110 | (1 << 30))], alarms: [], attributes: {} }, memory, NOW);
    expect(more.alarms.map((a) => a.type)).toEqual([51, 80]);
    for (const code of [50, 51, 52, 80]) expect(alarmType(code)?.kind).toBe('battery');
  });
});
