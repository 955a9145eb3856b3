import { alarmType } from '@carhere/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CircleGeometry,
  containsPoint,
  crossing,
  distanceMetres,
  FENCE_ENTER_ALARM,
  FENCE_EXIT_ALARM,
  fenceAlarmCode,
} from './detect.ts';

describe('fence detection', () => {
  it('uses the catalogue codes for entering and leaving a fence', () => {
    expect(alarmType(FENCE_ENTER_ALARM)?.en).toBe('Fence (enter)');
    expect(alarmType(FENCE_EXIT_ALARM)?.en).toBe('Fence (exit)');
  });

  it('measures great-circle distances', () => {
    // One degree of latitude is about 111.2 km everywhere.
    expect(distanceMetres(39, 116, 40, 116)).toBeGreaterThan(111_000);
    expect(distanceMetres(39, 116, 40, 116)).toBeLessThan(111_400);
    // Beijing to Shanghai is about 1,067 km.
    const bjSh = distanceMetres(39.915, 116.404, 31.2304, 121.4737);
    expect(bjSh).toBeGreaterThan(1_060_000);
    expect(bjSh).toBeLessThan(1_075_000);
  });

  it('tells inside from outside for a circle, the boundary included', () => {
    const fence: CircleGeometry = { shape: 'circle', lat: 39.915, lon: 116.404, radius: 500 };
    expect(containsPoint(fence, 39.915, 116.404)).toBe(true);
    expect(containsPoint(fence, 39.919, 116.404)).toBe(true); // ~445 m north
    expect(containsPoint(fence, 39.92, 116.404)).toBe(false); // ~556 m north
    expect(containsPoint(fence, Number.NaN, 116.404)).toBe(false);
  });

  it('tells inside from outside for a rectangle', () => {
    const fence = { shape: 'rectangle', minLat: 39.9, minLon: 116.3, maxLat: 40, maxLon: 116.5 } as const;
    expect(containsPoint(fence, 39.95, 116.4)).toBe(true);
    expect(containsPoint(fence, 39.9, 116.3)).toBe(true);
    expect(containsPoint(fence, 40.01, 116.4)).toBe(false);
    expect(containsPoint(fence, 39.95, 116.51)).toBe(false);
  });

  it('raises no alarm for a first observation or an unchanged side', () => {
    expect(crossing(null, true)).toBeNull();
    expect(crossing(true, true)).toBeNull();
    expect(crossing(false, true)).toBe('enter');
    expect(crossing(true, false)).toBe('exit');
  });

  it('raises alarms by the fence alarm type', () => {
    expect(fenceAlarmCode('in', false, true)).toBe(FENCE_ENTER_ALARM);
    expect(fenceAlarmCode('in', true, false)).toBeNull();
    expect(fenceAlarmCode('out', true, false)).toBe(FENCE_EXIT_ALARM);
    expect(fenceAlarmCode('out', false, true)).toBeNull();
    expect(fenceAlarmCode('inOut', false, true)).toBe(FENCE_ENTER_ALARM);
    expect(fenceAlarmCode('inOut', true, false)).toBe(FENCE_EXIT_ALARM);
    expect(fenceAlarmCode('inOut', null, false)).toBeNull();
  });

  it('a point due north of the centre is inside exactly when its offset is within the radius (property)', () => {
    const metresPerDegree = (6_371_008.8 * Math.PI) / 180;
    fc.assert(
      fc.property(
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        (lat, lon, radius, share) => {
          const offset = radius * share;
          fc.pre(Math.abs(offset - radius) > 1);
          const fence: CircleGeometry = { shape: 'circle', lat, lon, radius };
          expect(containsPoint(fence, lat + offset / metresPerDegree, lon)).toBe(offset < radius);
        },
      ),
    );
  });
});
