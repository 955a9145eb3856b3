// The track query's limits (domain: ≤ 5 devices, ≤ 90 days, start before end) as keys of the track catalogue.
import { TRACK_MAX_DAYS, TRACK_MAX_DEVICES, trackDeviceCount, trackRange } from '@carhere/domain';

export type QueryProblem =
  | { key: 'validation.selectDevice' }
  | { key: 'validation.devices'; params: { max: number } }
  | { key: 'validation.days'; params: { days: number } }
  | { key: 'validation.order' }
  | { key: 'validation.rangeRequired' };

export function validateTrackQuery(deviceCount: number, start: number | null, end: number | null): QueryProblem | null {
  const count = trackDeviceCount(deviceCount);
  if (!count.ok) {
    return count.message === 'validation.trackDevices'
      ? { key: 'validation.devices', params: { max: TRACK_MAX_DEVICES } }
      : { key: 'validation.selectDevice' };
  }
  const range = trackRange(start, end);
  if (range.ok) return null;
  switch (range.message) {
    case 'validation.trackDays':
      return { key: 'validation.days', params: { days: TRACK_MAX_DAYS } };
    case 'validation.rangeOrder':
      return { key: 'validation.order' };
    default:
      return { key: 'validation.rangeRequired' };
  }
}
