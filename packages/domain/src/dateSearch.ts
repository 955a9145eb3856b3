import { accept, refuse, type Validated } from './result.ts';
import { addCalendarDays, DEFAULT_TIME_ZONE, endOfDay, startOfDay, type TimeZone } from './time.ts';

export interface DateRange {
  readonly begin: number;
  readonly end: number;
}

/**
 * The date-search option of spec §5 as a range of instants in the user's zone:
 * 1 = today (00:00:00.000 to 23:59:59.999), an integer n > 1 = the last n calendar days including today,
 * anything else = the custom begin and end, which must both be given and in order.
 */
export function dateSearchRange(
  option: number,
  context: { now: number; zone?: TimeZone; custom?: { begin?: number | null; end?: number | null } },
): Validated<DateRange> {
  const zone = context.zone ?? DEFAULT_TIME_ZONE;
  const { now } = context;
  if (option === 1) return accept({ begin: startOfDay(now, zone), end: endOfDay(now, zone) });
  if (Number.isSafeInteger(option) && option > 1) {
    return accept({ begin: startOfDay(addCalendarDays(now, -(option - 1), zone), zone), end: endOfDay(now, zone) });
  }
  const begin = context.custom?.begin;
  const end = context.custom?.end;
  if (typeof begin !== 'number' || typeof end !== 'number' || !Number.isFinite(begin) || !Number.isFinite(end)) {
    return refuse('validation.rangeRequired');
  }
  if (begin > end) return refuse('validation.rangeOrder');
  return accept({ begin, end });
}
