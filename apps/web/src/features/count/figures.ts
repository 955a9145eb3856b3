// Figures of the statistics screens from the API's rows (pure, tested): rows summed per device and day by the
// domain rule, totals, the series of the charts, and the number formats.
import { sumStatisticsPerDay } from '@carhere/domain';
import type { BarSeries } from '../../charts/options.ts';
import type { AlarmCount, DayRow } from './api.ts';

/** The day counters a total adds up (maxSpeed is a maximum, not a sum). */
export const DAY_COUNTERS = [
  'mileage',
  'runSeconds',
  'stopCount',
  'stopSeconds',
  'engineSeconds',
  'idleSeconds',
  'overspeedCount',
  'alarmCount',
] as const;
type Counter = (typeof DAY_COUNTERS)[number];
export type DayTotals = Record<Counter, number> & { maxSpeed: number; devices: number; days: number };

/** Rows of the same device and day become one (spec §3, §7), ordered by day then device. */
export function mergeDays(rows: readonly DayRow[]): DayRow[] {
  return sumStatisticsPerDay(rows).map((r) => ({ ...r, displayName: r.displayName || r.terminalID }));
}

export function totalsOf(rows: readonly DayRow[]): DayTotals {
  const totals = Object.fromEntries(DAY_COUNTERS.map((c) => [c, 0])) as Record<Counter, number>;
  let maxSpeed = 0;
  for (const row of rows) {
    for (const c of DAY_COUNTERS) totals[c] += Number.isFinite(row[c]) ? row[c] : 0;
    if (Number.isFinite(row.maxSpeed)) maxSpeed = Math.max(maxSpeed, row.maxSpeed);
  }
  return {
    ...totals,
    maxSpeed,
    devices: new Set(rows.map((r) => r.terminalID)).size,
    days: new Set(rows.map((r) => r.statsticDate)).size,
  };
}

/** Per-device totals over the range, most mileage first. */
export function perDevice(rows: readonly DayRow[]): (DayTotals & { terminalID: string; displayName: string })[] {
  const groups = new Map<string, DayRow[]>();
  for (const row of rows) {
    const list = groups.get(row.terminalID) ?? [];
    list.push(row);
    groups.set(row.terminalID, list);
  }
  return [...groups.entries()]
    .map(([terminalID, list]) => ({ terminalID, displayName: list[0].displayName, ...totalsOf(list) }))
    .sort((a, b) => b.mileage - a.mileage || a.terminalID.localeCompare(b.terminalID));
}

/** Every day of the rows, in order. */
export function daysOf(rows: readonly DayRow[]): string[] {
  return [...new Set(rows.map((r) => r.statsticDate))].sort();
}

/**
 * Mileage per day as bars: one stacked series per device for up to `maxSeries` devices (the largest), the rest
 * summed into one series named `othersName`. The axis has every day of `rangeDays` and of the rows (a device's
 * days are its owner's, which may differ from the viewer's zone by one).
 */
export function mileageSeries(
  rows: readonly DayRow[],
  maxSeries: number,
  othersName: string,
  /** Every day of the searched range: days without any row are on the axis too, at 0 (not left out). */
  rangeDays: readonly string[] = [],
): { days: string[]; series: BarSeries[] } {
  const days = [...new Set([...rangeDays, ...daysOf(rows)])].sort();
  const index = new Map(days.map((d, i) => [d, i]));
  const ranked = perDevice(rows);
  const shown = ranked.slice(0, ranked.length > maxSeries ? maxSeries - 1 : maxSeries);
  const shownIds = new Map(shown.map((d, i) => [d.terminalID, i]));
  const series: BarSeries[] = shown.map((d) => ({ name: d.displayName, values: days.map(() => 0) }));
  const others: BarSeries = { name: othersName, values: days.map(() => 0) };
  for (const row of rows) {
    const day = index.get(row.statsticDate);
    if (day === undefined) continue;
    const s = shownIds.get(row.terminalID);
    (s === undefined ? others : series[s]).values[day] += row.mileage;
  }
  if (ranked.length > shown.length) series.push(others);
  return { days, series };
}

/** Alarm counts summed per alarm code over every device, most frequent first. */
export function alarmsByType(counts: readonly AlarmCount[]): { alarmType: number; count: number }[] {
  const sums = new Map<number, number>();
  for (const c of counts) sums.set(c.alarmType, (sums.get(c.alarmType) ?? 0) + c.count);
  return [...sums.entries()]
    .map(([alarmType, count]) => ({ alarmType, count }))
    .filter((a) => a.count > 0)
    .sort((a, b) => b.count - a.count || a.alarmType - b.alarmType);
}

/** Kilometres from metres, in the interface language: 1 decimal, 2 below 10 km. */
export function formatKm(metres: number, locale: string): string {
  const km = metres / 1000;
  const digits = Math.abs(km) < 10 ? 2 : 1;
  return new Intl.NumberFormat(intlLocale(locale), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(km);
}

export function formatNumber(value: number, locale: string, digits = 0, fixed = false): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    maximumFractionDigits: digits,
    minimumFractionDigits: fixed ? digits : 0,
  }).format(value);
}

/** Hours and minutes of a duration, as numbers for the catalogue's "{{h}} h {{m}} min". */
export function hoursMinutes(seconds: number): { h: number; m: number } {
  const total = Math.max(0, Math.round(seconds / 60));
  return { h: Math.floor(total / 60), m: total % 60 };
}

/** The BCP 47 tag Intl understands for an interface language ('cn' → 'zh-CN'). */
export function intlLocale(language: string): string {
  return language === 'cn' ? 'zh-CN' : language;
}
