// Quick ranges of the track query: last hour, today, yesterday, last 3 and 7 days (end: now or day end).
import dayjs, { type Dayjs } from 'dayjs';

export type RangePreset = 'lastHour' | 'today' | 'yesterday' | 'last3Days' | 'last7Days';
export const RANGE_PRESETS: RangePreset[] = ['lastHour', 'today', 'yesterday', 'last3Days', 'last7Days'];

export function presetRange(preset: RangePreset, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  switch (preset) {
    case 'lastHour':
      return [now.subtract(1, 'hour'), now];
    case 'today':
      return [now.startOf('day'), now];
    case 'yesterday': {
      const y = now.subtract(1, 'day');
      return [y.startOf('day'), y.endOf('day')];
    }
    case 'last3Days':
      return [now.subtract(3, 'day'), now];
    case 'last7Days':
      return [now.subtract(7, 'day'), now];
  }
}
