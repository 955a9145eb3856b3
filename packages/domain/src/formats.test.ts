import { describe, expect, it } from 'vitest';
import { dateSearchRange } from './dateSearch.ts';
import { formatMileage, formatRadius, HEADINGS, headingOf } from './formats.ts';
import { sumStatisticsPerDay } from './statistics.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './table.ts';
import { formatDateTime } from './time.ts';
import { isTimeZoneOffsetHours, TIME_ZONE_OPTIONS } from './timeZones.ts';

describe('mileage and radius', () => {
  it('mileage: m below 1000, else km with 1 decimal', () => {
    expect(formatMileage(0)).toBe('0 m');
    expect(formatMileage(999)).toBe('999 m');
    expect(formatMileage(999.4)).toBe('999 m');
    expect(formatMileage(999.5)).toBe('1.0 km');
    expect(formatMileage(1000)).toBe('1.0 km');
    expect(formatMileage(12_345)).toBe('12.3 km');
    expect(formatMileage(-5)).toBe('0 m');
    expect(formatMileage(Number.NaN)).toBe('-');
  });

  it('radius: m below 1000, else km with 2 decimals', () => {
    expect(formatRadius(100)).toBe('100 m');
    expect(formatRadius(999)).toBe('999 m');
    expect(formatRadius(1000)).toBe('1.00 km');
    expect(formatRadius(1500)).toBe('1.50 km');
    expect(formatRadius(1_000_000)).toBe('1000.00 km');
  });
});

describe('heading', () => {
  it('8 sectors of 45° centred on their direction', () => {
    expect(HEADINGS).toHaveLength(8);
    const cases: [number, string][] = [
      [0, 'north'],
      [22.4, 'north'],
      [22.5, 'northEast'],
      [45, 'northEast'],
      [67.5, 'east'],
      [90, 'east'],
      [135, 'southEast'],
      [180, 'south'],
      [225, 'southWest'],
      [270, 'west'],
      [315, 'northWest'],
      [337.4, 'northWest'],
      [337.5, 'north'],
      [359.9, 'north'],
      [360, 'north'],
      [-45, 'northWest'],
      [405, 'northEast'],
    ];
    for (const [deg, name] of cases) expect(headingOf(deg), String(deg)).toBe(name);
    expect(headingOf(Number.NaN)).toBeUndefined();
  });
});

describe('time zone options', () => {
  it('west 12 … east 12, zone 0 included', () => {
    expect(TIME_ZONE_OPTIONS).toHaveLength(25);
    expect(TIME_ZONE_OPTIONS[0]).toEqual({ offsetHours: -12, zone: '-12:00', cn: '西十二区', en: 'UTC-12:00' });
    expect(TIME_ZONE_OPTIONS[12]).toEqual({ offsetHours: 0, zone: '+00:00', cn: '零时区', en: 'UTC+00:00' });
    expect(TIME_ZONE_OPTIONS[24].cn).toBe('东十二区');
    expect(isTimeZoneOffsetHours(12)).toBe(true);
    expect(isTimeZoneOffsetHours(1.5)).toBe(false);
  });
});

describe('dateSearchRange', () => {
  const now = Date.parse('2024-07-10T04:00:00Z'); // 12:00 on 10 July at UTC+8

  it('1 = today in the zone', () => {
    const r = dateSearchRange(1, { now });
    expect(r.ok && [formatDateTime(r.value.begin), formatDateTime(r.value.end, undefined, 'HH:mm:ss.SSS')]).toEqual([
      '2024-07-10 00:00:00',
      '23:59:59.999',
    ]);
  });

  it('n > 1 = the last n days including today', () => {
    const r = dateSearchRange(7, { now });
    expect(r.ok && formatDateTime(r.value.begin)).toBe('2024-07-04 00:00:00');
    expect(r.ok && formatDateTime(r.value.end)).toBe('2024-07-10 23:59:59');
    const two = dateSearchRange(2, { now, zone: 'UTC' });
    expect(two.ok && formatDateTime(two.value.begin, 'UTC')).toBe('2024-07-09 00:00:00');
  });

  it('anything else = custom range, given and in order', () => {
    expect(dateSearchRange(0, { now, custom: { begin: 1, end: 2 } })).toEqual({
      ok: true,
      value: { begin: 1, end: 2 },
    });
    expect(dateSearchRange(2.5, { now, custom: { begin: 1, end: 1 } }).ok).toBe(true);
    expect(dateSearchRange(0, { now, custom: { begin: 3, end: 2 } })).toEqual({
      ok: false,
      message: 'validation.rangeOrder',
    });
    expect(dateSearchRange(-1, { now })).toEqual({ ok: false, message: 'validation.rangeRequired' });
    expect(dateSearchRange(0, { now, custom: { begin: null, end: 2 } }).ok).toBe(false);
  });
});

describe('sumStatisticsPerDay', () => {
  it('adds counters of rows of the same device and day', () => {
    const rows = [
      { terminalID: 'A', statsticDate: '2024-07-02 10:00:00', id: 1, mileage: 100, alarms: 1, note: 'x' },
      { terminalID: 'A', statsticDate: '2024-07-01', id: 2, mileage: 50, alarms: 0, note: 'y' },
      { terminalID: 'A', statsticDate: '2024-07-02 23:00:00', id: 3, mileage: 25.5, alarms: 2, note: 'z' },
      { terminalID: 'B', statsticDate: '2024-07-02', id: 4, mileage: 7, alarms: 0, note: 'w' },
    ];
    expect(sumStatisticsPerDay(rows)).toEqual([
      { terminalID: 'A', statsticDate: '2024-07-01', id: 2, mileage: 50, alarms: 0, note: 'y' },
      { terminalID: 'A', statsticDate: '2024-07-02', id: 1, mileage: 125.5, alarms: 3, note: 'x' },
      { terminalID: 'B', statsticDate: '2024-07-02', id: 4, mileage: 7, alarms: 0, note: 'w' },
    ]);
    expect(rows[0].mileage).toBe(100);
  });

  it('reads ms dates in the zone, ignores bad counters and undated rows', () => {
    const late = Date.parse('2024-07-01T17:00:00Z'); // 2 July at UTC+8, 1 July in UTC
    const rows = [
      { terminalID: 'A', statsticDate: late, mileage: 1 },
      { terminalID: 'A', statsticDate: late + 1000, mileage: Number.NaN },
      { terminalID: 'A', statsticDate: 'not a date', mileage: 1000 },
    ];
    expect(sumStatisticsPerDay(rows)).toEqual([{ terminalID: 'A', statsticDate: '2024-07-02', mileage: 1 }]);
    expect(sumStatisticsPerDay(rows, 'UTC')[0].statsticDate).toBe('2024-07-01');
    expect(sumStatisticsPerDay([{ terminalID: 'A', statsticDate: late, mileage: Number.NaN }])[0].mileage).toBe(0);
  });
});

describe('table defaults', () => {
  it('page size 15, options 10 to 100 step 10', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(15);
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });
});
