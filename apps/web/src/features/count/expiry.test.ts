import { describe, expect, it } from 'vitest';
import { daysLeft, expiryLink, firstExpiry } from './expiry.ts';

const now = Date.UTC(2026, 10, 25, 12);

describe('past-due figures', () => {
  it('counts whole days left, negative once expired', () => {
    expect(daysLeft('2026-11-26T12:00:00.000Z', now)).toBe(1);
    expect(daysLeft('2026-11-26T13:00:00.000Z', now)).toBe(2);
    expect(daysLeft('2026-11-20T12:00:00.000Z', now)).toBe(-5);
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft('soon', now)).toBeNull();
  });

  it('takes the earlier expiry', () => {
    expect(firstExpiry('2026-12-01T00:00:00Z', '2026-11-30T00:00:00Z')).toBe('2026-11-30T00:00:00Z');
    expect(firstExpiry(null, '2026-11-30T00:00:00Z')).toBe('2026-11-30T00:00:00Z');
    expect(firstExpiry(null, null)).toBeNull();
  });

  it('links to the expiry screen with the IMEIs', () => {
    expect(expiryLink(['123', '456'])).toBe('/index/device/deviceUpdateTime?imeis=123%2C456');
  });
});
