import { describe, expect, it } from 'vitest';
import { boundsOf, circleFrom, clampRadius, rectangleFrom } from './drawing.ts';

describe('fence drawing', () => {
  it('makes a circle from its centre and a point on the edge, within 100–1000000 m', () => {
    const c = circleFrom({ lat: 39.915, lon: 116.404 }, { lat: 39.92, lon: 116.404 });
    expect(c.shape).toBe('circle');
    if (c.shape !== 'circle') return;
    expect(c.radius).toBeGreaterThan(550);
    expect(c.radius).toBeLessThan(560);
    const tiny = circleFrom({ lat: 39.915, lon: 116.404 }, { lat: 39.9151, lon: 116.404 });
    expect(tiny.shape === 'circle' && tiny.radius).toBe(100);
    expect(clampRadius(5_000_000)).toBe(1_000_000);
    expect(clampRadius(Number.NaN)).toBe(100);
    expect(clampRadius(1234.4)).toBe(1234);
  });

  it('makes a rectangle from two opposite corners in any order', () => {
    const r = rectangleFrom({ lat: 40, lon: 116.5 }, { lat: 39.9, lon: 116.3 });
    expect(r).toEqual({ shape: 'rectangle', minLat: 39.9, minLon: 116.3, maxLat: 40, maxLon: 116.5 });
    expect(rectangleFrom({ lat: 40, lon: 116.5 }, { lat: 40, lon: 116.3 })).toBeNull();
  });

  it('bounds a circle by its radius', () => {
    const [[s, w], [n, e]] = boundsOf({ shape: 'circle', lat: 0, lon: 0, radius: 111_195 });
    expect(n).toBeCloseTo(1, 3);
    expect(s).toBeCloseTo(-1, 3);
    expect(e).toBeCloseTo(1, 3);
    expect(w).toBeCloseTo(-1, 3);
  });
});
