// The track's quick ranges come from the spec's date search (dateSearchRange) in the user's zone.
import { describe, expect, it } from 'vitest';
import { presetRange } from './rangePresets.ts';

// 2026-01-10 10:00 in UTC+8 (02:00 UTC).
const now = Date.UTC(2026, 0, 10, 2, 0);

describe('track range presets', () => {
  it('today is the day of the user zone up to now', () => {
    const [from, to] = presetRange('today', '+08:00', now);
    expect(from.valueOf()).toBe(Date.UTC(2026, 0, 9, 16, 0));
    expect(to.valueOf()).toBe(now);
  });

  it('the last n days include today', () => {
    expect(presetRange('last3Days', '+08:00', now)[0].valueOf()).toBe(Date.UTC(2026, 0, 7, 16, 0));
    expect(presetRange('last7Days', '+08:00', now)[0].valueOf()).toBe(Date.UTC(2026, 0, 3, 16, 0));
  });

  it('follows the zone, not the browser', () => {
    // In UTC-5 it is still 2026-01-09 21:00.
    expect(presetRange('today', '-05:00', now)[0].valueOf()).toBe(Date.UTC(2026, 0, 9, 5, 0));
  });

  it('last hour ends now', () => {
    const [from, to] = presetRange('lastHour', '+08:00', now);
    expect(to.valueOf() - from.valueOf()).toBe(3_600_000);
  });
});
