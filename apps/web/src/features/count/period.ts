// The spec's date search (§5) for the statistics screens, computed by the domain rule dateSearchRange in the
// signed-in user's time zone: 1 today, n > 1 the last n days, 0 a custom range of whole days.
import {
  DEFAULT_TIME_ZONE,
  dateSearchRange,
  fromWallClock,
  isValidTimeZone,
  type TimeZone,
  type Validated,
} from '@carhere/domain';
import type { Range } from './api.ts';

export const PERIOD_OPTIONS = [1, 7, 30, 0] as const;
export type PeriodOption = (typeof PERIOD_OPTIONS)[number];

/** A calendar day picked in a date picker. */
export interface PickedDay {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

export function userZone(zone: string | undefined): TimeZone {
  return zone && isValidTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** The instants of a date-search choice; custom days run from the first day's 00:00 to the last day's end. */
export function periodRange(
  option: PeriodOption,
  custom: [PickedDay, PickedDay] | null,
  zone: TimeZone,
  now: number,
): Validated<Range> {
  const begin = custom ? fromWallClock(custom[0], zone) : null;
  const end = custom ? fromWallClock({ ...custom[1], day: custom[1].day + 1 }, zone) - 1 : null;
  return dateSearchRange(option, { now, zone, custom: { begin, end } });
}
