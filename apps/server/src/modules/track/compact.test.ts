import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCompactTrack, encodeCompactTrack, readDeltas } from './compact.ts';

describe('compact track encoding', () => {
  it('round-trips a track at the encoding precision (1e-5°, whole seconds, km/h, degrees)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dt: fc.integer({ min: 0, max: 7_776_000 }),
            lat: fc.double({ min: -90, max: 90, noNaN: true }),
            lon: fc.double({ min: -180, max: 180, noNaN: true }),
            speed: fc.integer({ min: 0, max: 400 }),
            course: fc.integer({ min: 0, max: 359 }),
          }),
          { maxLength: 200 },
        ),
        (steps) => {
          let t = 1_700_000_000;
          const times = steps.map((s) => (t += s.dt));
          const encoded = encodeCompactTrack({
            times,
            lats: steps.map((s) => s.lat),
            lons: steps.map((s) => s.lon),
            speeds: steps.map((s) => s.speed),
            courses: steps.map((s) => s.course),
          });
          const back = decodeCompactTrack(encoded);
          expect(back).toHaveLength(steps.length);
          back.forEach((p, i) => {
            expect(p.time).toBe(times[i] * 1000);
            expect(Math.abs(p.lat - steps[i].lat)).toBeLessThanOrEqual(0.000005 + 1e-9);
            expect(Math.abs(p.lon - steps[i].lon)).toBeLessThanOrEqual(0.000005 + 1e-9);
            expect(p.speed).toBe(steps[i].speed);
            expect(p.course).toBe(steps[i].course);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('matches the published polyline example for coordinates', () => {
    // Google's documented example: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453)
    const t = encodeCompactTrack({
      times: [0, 1, 2],
      lats: [38.5, 40.7, 43.252],
      lons: [-120.2, -120.95, -126.453],
      speeds: [0, 0, 0],
      courses: [0, 0, 0],
    });
    expect(t.coords).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(readDeltas(t.times)).toEqual([0, 1, 1]);
  });

  it('is much smaller than JSON for a long regular track', () => {
    const n = 10_000;
    const times = Array.from({ length: n }, (_, i) => 1_700_000_000 + i * 10);
    const lats = times.map((_, i) => 39.9 + Math.sin(i / 100) * 0.01);
    const lons = times.map((_, i) => 116.4 + Math.cos(i / 100) * 0.01);
    const speeds = times.map((_, i) => 30 + (i % 20));
    const courses = times.map((_, i) => (i * 3) % 360);
    const compact = JSON.stringify(encodeCompactTrack({ times, lats, lons, speeds, courses }));
    const plain = JSON.stringify(
      times.map((t, i) => ({
        time: new Date(t * 1000).toISOString(),
        lat: lats[i],
        lon: lons[i],
        speed: speeds[i],
        course: courses[i],
      })),
    );
    expect(compact.length * 8).toBeLessThan(plain.length);
  });
});
