import { describe, expect, it } from 'vitest';
import { formatDistance } from './distanceFormat.ts';

describe('distance tool units', () => {
  it('metric: metres below 1 km, then km with 2 decimals', () => {
    expect(formatDistance(999.4, 'metric')).toBe('999 m');
    expect(formatDistance(1000, 'metric')).toBe('1.00 km');
    expect(formatDistance(12_345, 'metric')).toBe('12.35 km');
  });

  it('US: feet below a tenth of a mile, then miles', () => {
    expect(formatDistance(100, 'us')).toBe('328 ft');
    expect(formatDistance(1609.344, 'us')).toBe('1.00 mi');
  });

  it('refuses nonsense', () => {
    expect(formatDistance(Number.NaN, 'metric')).toBe('-');
    expect(formatDistance(-5, 'us')).toBe('-');
  });
});
