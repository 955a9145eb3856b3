import { describe, expect, it } from 'vitest';
import { busProgress, project, type Stop } from './eta.ts';

// A straight route north along 116.40 E: stops every ~1.1 km.
const stops: Stop[] = [
  { name: 'A', lat: 39.9, lon: 116.4, radius: 50 },
  { name: 'B', lat: 39.91, lon: 116.4, radius: 50 },
  { name: 'C', lat: 39.92, lon: 116.4, radius: 50 },
];

describe('bus progress along a route', () => {
  it('measures distance along the line and off it', () => {
    const p = project(
      [
        [39.9, 116.4],
        [39.92, 116.4],
      ],
      [39.905, 116.401],
    );
    expect(p.along).toBeGreaterThan(550);
    expect(p.along).toBeLessThan(562);
    expect(p.off).toBeGreaterThan(80);
    expect(p.off).toBeLessThan(90);
  });

  it('names the next stop ahead and its ETA from the bus speed', () => {
    const r = busProgress(stops, [], { lat: 39.905, lon: 116.4, speed: 36 });
    expect(r.atStop).toBeNull();
    expect(r.nextStop).toBe(1);
    // ~556 m at 10 m/s
    expect(r.etaSeconds).toBeGreaterThan(50);
    expect(r.etaSeconds).toBeLessThan(60);
  });

  it('at a stop, the next one is the stop after it; a stopped bus counts 20 km/h', () => {
    const r = busProgress(stops, [], { lat: 39.9101, lon: 116.4, speed: 0 });
    expect(r.atStop).toBe(1);
    expect(r.nextStop).toBe(2);
    expect(r.etaSeconds).toBeGreaterThan(190);
    expect(r.etaSeconds).toBeLessThan(205);
  });

  it('has no next stop at the end of the line', () => {
    const r = busProgress(stops, [], { lat: 39.92, lon: 116.4, speed: 0 });
    expect(r).toMatchObject({ atStop: 2, nextStop: null, etaSeconds: null });
  });
});
