import { addCalendarDays, DEFAULT_TIME_ZONE, dayKey, fromWallClock, startOfDay, type TimeZone } from './time.ts';

/** A statistics row of spec §3: identity fields plus numeric counters (mileage, alarm counts, …). */
export interface StatisticsRow {
  readonly terminalID: string;
  /** The day: 'YYYY-MM-DD…' text (its first 10 characters are the day) or epoch ms. */
  readonly statsticDate: string | number;
  readonly statsticState?: unknown;
  readonly id?: unknown;
  readonly [counter: string]: unknown;
}

/** Page size used to fetch statistics in one go (spec §7, §9). */
export const STATISTICS_PAGE_SIZE = 100_000;

const IDENTITY_FIELDS = new Set(['terminalID', 'statsticDate', 'statsticState', 'id']);

function dayOf(date: string | number, zone: TimeZone): string | undefined {
  if (typeof date === 'number') return Number.isFinite(date) ? dayKey(date, zone) : undefined;
  const day = String(date).trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
}

/**
 * Rows summed per device and day (spec §3, §7): rows of the same terminalID and day become one, whose
 * numeric counters are the sums and whose other fields come from the first row; statsticDate becomes
 * the 'YYYY-MM-DD' day. Output is ordered by day, then terminalID. Rows without a readable day are
 * dropped; a counter that is not a finite number adds nothing. Numeric ms dates are read in `zone`.
 */
export function sumStatisticsPerDay<T extends StatisticsRow>(
  rows: readonly T[],
  zone: TimeZone = DEFAULT_TIME_ZONE,
): (T & { statsticDate: string })[] {
  const merged = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const day = dayOf(row.statsticDate, zone);
    if (day === undefined) continue;
    const key = `${day}\u0000${row.terminalID}`;
    const existing = merged.get(key);
    if (!existing) {
      const copy: Record<string, unknown> = { ...row, statsticDate: day };
      for (const [field, value] of Object.entries(copy)) {
        if (!IDENTITY_FIELDS.has(field) && typeof value === 'number' && !Number.isFinite(value)) copy[field] = 0;
      }
      merged.set(key, copy);
      continue;
    }
    for (const [field, value] of Object.entries(row)) {
      if (IDENTITY_FIELDS.has(field) || typeof value !== 'number' || !Number.isFinite(value)) continue;
      const current = existing[field];
      existing[field] = (typeof current === 'number' && Number.isFinite(current) ? current : 0) + value;
    }
  }
  return [...merged.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row as T & { statsticDate: string });
}

/** The zone statistics days are counted in when the owning account has none (spec: +8). */
export const STATISTICS_DEFAULT_ZONE: TimeZone = 'Asia/Shanghai';

/** [start, end) instants of a 'YYYY-MM-DD' day in a zone. */
export function dayBounds(day: string, zone: TimeZone = STATISTICS_DEFAULT_ZONE): { start: number; end: number } {
  const [year, month, date] = day.split('-').map(Number);
  return {
    start: fromWallClock({ year, month, day: date }, zone),
    end: fromWallClock({ year, month, day: date + 1 }, zone),
  };
}

/**
 * The days (in `zone`) that overlap [startTime, endTime]: every day of the owning account's calendar a
 * statistics request covers (issue 13: "a range includes every such day that overlaps it").
 */
export function daysOverlapping(
  startTime: number,
  endTime: number,
  zone: TimeZone = STATISTICS_DEFAULT_ZONE,
): string[] {
  if (!(endTime >= startTime)) return [];
  const days: string[] = [];
  let at = startOfDay(startTime, zone);
  for (let guard = 0; at <= endTime && guard < 100_000; guard++) {
    days.push(dayKey(at, zone));
    at = addCalendarDays(at, 1, zone);
  }
  return days;
}
