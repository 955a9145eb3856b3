import { describe, expect, it } from 'vitest';
import { validateTrackQuery } from './validateQuery.ts';

const DAY = 86_400_000;

describe('track query limits', () => {
  it('needs 1 to 5 devices', () => {
    expect(validateTrackQuery(0, 0, DAY)).toEqual({ key: 'validation.selectDevice' });
    expect(validateTrackQuery(6, 0, DAY)).toEqual({ key: 'validation.devices', params: { max: 5 } });
    expect(validateTrackQuery(5, 0, DAY)).toBeNull();
  });

  it('allows at most 90 days, start before end', () => {
    expect(validateTrackQuery(1, 0, 90 * DAY)).toBeNull();
    expect(validateTrackQuery(1, 0, 90 * DAY + 1)).toEqual({ key: 'validation.days', params: { days: 90 } });
    expect(validateTrackQuery(1, DAY, 0)).toEqual({ key: 'validation.order' });
    expect(validateTrackQuery(1, null, DAY)).toEqual({ key: 'validation.rangeRequired' });
  });
});
