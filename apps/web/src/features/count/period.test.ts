import { describe, expect, it } from 'vitest';
import { periodRange, userZone } from './period.ts';

// 2026-11-25 10:00 at +08:00
const now = Date.UTC(2026, 10, 25, 2, 0, 0);

describe('statistics date search', () => {
  it('today and the last n days are whole days of the user zone', () => {
    expect(periodRange(1, null, '+08:00', now)).toEqual({
      ok: true,
      value: { begin: Date.UTC(2026, 10, 24, 16), end: Date.UTC(2026, 10, 25, 16) - 1 },
    });
    expect(periodRange(7, null, '+08:00', now)).toEqual({
      ok: true,
      value: { begin: Date.UTC(2026, 10, 18, 16), end: Date.UTC(2026, 10, 25, 16) - 1 },
    });
    expect(periodRange(1, null, '+00:00', now)).toEqual({
      ok: true,
      value: { begin: Date.UTC(2026, 10, 25), end: Date.UTC(2026, 10, 26) - 1 },
    });
  });

  it('a custom range covers both picked days and must be given in order', () => {
    const first = { year: 2026, month: 10, day: 30 };
    const last = { year: 2026, month: 11, day: 2 };
    expect(periodRange(0, [first, last], '+08:00', now)).toEqual({
      ok: true,
      value: { begin: Date.UTC(2026, 9, 29, 16), end: Date.UTC(2026, 10, 2, 16) - 1 },
    });
    expect(periodRange(0, null, '+08:00', now)).toEqual({ ok: false, message: 'validation.rangeRequired' });
    expect(periodRange(0, [last, first], '+08:00', now)).toEqual({ ok: false, message: 'validation.rangeOrder' });
  });

  it('falls back to the spec zone for a missing or unknown zone', () => {
    expect(userZone(undefined)).toBe('+08:00');
    expect(userZone('Not/AZone')).toBe('+08:00');
    expect(userZone('Europe/Paris')).toBe('Europe/Paris');
  });
});
