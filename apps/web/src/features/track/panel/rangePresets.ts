// Quick ranges of the track query. Today and the last n days are the spec's date search (§5, §9: 1 = today,
// n = the last n days, anything else custom), computed by the domain rule dateSearchRange in the user's time zone:
// the one implementation the alarm and statistics screens use too. "Last hour" is a custom range ending now.
import { DEFAULT_TIME_ZONE, dateSearchRange, MS_PER_HOUR, type TimeZone } from '@carhere/domain';
import dayjs, { type Dayjs } from 'dayjs';

export type RangePreset = 'lastHour' | 'today' | 'last3Days' | 'last7Days';
export const RANGE_PRESETS: RangePreset[] = ['lastHour', 'today', 'last3Days', 'last7Days'];
const DATE_SEARCH_OPTION: Record<Exclude<RangePreset, 'lastHour'>, number> = { today: 1, last3Days: 3, last7Days: 7 };

/** The range of a quick pick; a day range ends now rather than at the day's end (no track lies ahead). */
export function presetRange(preset: RangePreset, zone: TimeZone = DEFAULT_TIME_ZONE, now = Date.now()): [Dayjs, Dayjs] {
  if (preset === 'lastHour') return [dayjs(now - MS_PER_HOUR), dayjs(now)];
  const range = dateSearchRange(DATE_SEARCH_OPTION[preset], { now, zone });
  if (!range.ok) throw new Error(`date search refused ${preset}: ${range.message}`);
  return [dayjs(range.value.begin), dayjs(Math.min(range.value.end, now))];
}
