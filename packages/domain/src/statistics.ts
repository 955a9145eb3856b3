import { DEFAULT_TIME_ZONE, dayKey, type TimeZone } from './time.ts';

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
