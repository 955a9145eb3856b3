import { describe, expect, it } from 'vitest';
import type { AlarmCount, DayRow } from './api.ts';
import { alarmsByType, formatKm, hoursMinutes, mergeDays, mileageSeries, perDevice, totalsOf } from './figures.ts';

function day(terminalID: string, statsticDate: string, mileage: number, extra: Partial<DayRow> = {}): DayRow {
  return {
    terminalID,
    displayName: `car ${terminalID}`,
    statsticDate,
    mileage,
    runSeconds: 60,
    stopCount: 1,
    stopSeconds: 30,
    engineSeconds: 90,
    idleSeconds: 30,
    maxSpeed: 50,
    overspeedCount: 0,
    alarmCount: 2,
    ...extra,
  };
}

describe('statistics figures', () => {
  it('merges rows of one device and day by adding their counters', () => {
    const merged = mergeDays([
      day('A', '2026-11-02', 100),
      day('A', '2026-11-02T00:00:00Z', 50),
      day('B', '2026-11-01', 7),
    ]);
    expect(merged.map((r) => [r.statsticDate, r.terminalID, r.mileage, r.alarmCount])).toEqual([
      ['2026-11-01', 'B', 7, 2],
      ['2026-11-02', 'A', 150, 4],
    ]);
  });

  it('totals sum the counters and keep the highest speed', () => {
    const t = totalsOf([
      day('A', '2026-11-01', 1000, { maxSpeed: 80 }),
      day('B', '2026-11-01', 500, { maxSpeed: 130 }),
    ]);
    expect(t).toMatchObject({ mileage: 1500, runSeconds: 120, alarmCount: 4, maxSpeed: 130, devices: 2, days: 1 });
    expect(totalsOf([])).toMatchObject({ mileage: 0, maxSpeed: 0, devices: 0, days: 0 });
  });

  it('ranks devices by mileage', () => {
    const rows = [day('A', '2026-11-01', 10), day('B', '2026-11-01', 30), day('A', '2026-11-02', 5)];
    expect(perDevice(rows).map((d) => [d.terminalID, d.mileage, d.days])).toEqual([
      ['B', 30, 1],
      ['A', 15, 2],
    ]);
  });

  it('stacks the largest devices per day and sums the rest into one series', () => {
    const rows = [
      day('A', '2026-11-01', 100),
      day('B', '2026-11-01', 50),
      day('C', '2026-11-02', 10),
      day('D', '2026-11-02', 1),
    ];
    const { days, series } = mileageSeries(rows, 3, 'others');
    expect(days).toEqual(['2026-11-01', '2026-11-02']);
    expect(series).toEqual([
      { name: 'car A', values: [100, 0] },
      { name: 'car B', values: [50, 0] },
      { name: 'others', values: [0, 11] },
    ]);
    expect(mileageSeries(rows.slice(0, 2), 3, 'others').series.map((s) => s.name)).toEqual(['car A', 'car B']);
  });

  it('puts every day of the searched range on the axis, days without rows at 0', () => {
    const rows = [day('A', '2026-11-02', 100), day('A', '2026-11-04', 40)];
    const { days, series } = mileageSeries(rows, 3, 'others', ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']);
    expect(days).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']);
    expect(series).toEqual([{ name: 'car A', values: [0, 100, 0, 40] }]);
  });

  it('sums alarms per type over devices, without empty types', () => {
    const counts: AlarmCount[] = [
      { terminalID: 'A', displayName: 'a', alarmType: 1, count: 2 },
      { terminalID: 'B', displayName: 'b', alarmType: 1, count: 3 },
      { terminalID: 'B', displayName: 'b', alarmType: 6, count: 9 },
      { terminalID: 'B', displayName: 'b', alarmType: 4, count: 0 },
    ];
    expect(alarmsByType(counts)).toEqual([
      { alarmType: 6, count: 9 },
      { alarmType: 1, count: 5 },
    ]);
  });

  it('formats kilometres and durations', () => {
    expect(formatKm(12345, 'en')).toBe('12.3');
    expect(formatKm(1234, 'en')).toBe('1.23');
    expect(formatKm(1234567, 'fr')).toMatch(/^1\s?234,6$/);
    expect(hoursMinutes(3 * 3600 + 29 * 60 + 40)).toEqual({ h: 3, m: 30 });
    expect(hoursMinutes(-5)).toEqual({ h: 0, m: 0 });
  });
});
