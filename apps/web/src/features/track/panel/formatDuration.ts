// A stop's duration in the interface language: '1 d 2 h', '2 h 5 min', '12 min', '40 s'.
import type { TFunction } from 'i18next';
import { durationParts } from '../data/stops.ts';

export function formatDuration(ms: number, t: TFunction<'track'>): string {
  const { days, hours, minutes, seconds } = durationParts(ms);
  if (days > 0) return t('duration.daysHours', { days, hours });
  if (hours > 0) return t('duration.hoursMinutes', { hours, minutes });
  if (minutes > 0) return t('duration.minutes', { minutes });
  return t('duration.seconds', { seconds });
}
