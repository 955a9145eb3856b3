import { describe, expect, it } from 'vitest';
import { gpxParts } from '../export/gpx.ts';
import { degreesPerPixel, keptBefore, simplifyIndexes } from './decimate.ts';
import { advance, pointsPerSecond } from './playback.ts';
import { durationParts, findStops } from './stops.ts';
import { emptyTrack, fillDistances, indexAtTime, positionAt, trackDistance, trackFromAnswer } from './trackData.ts';

const T0 = Date.parse('2026-03-01T08:00:00Z');

/** The documented stream format: zigzag integer deltas in 5-bit groups + 63 (Google's polyline characters). */
function stream(values: number[]): string {
  let out = '';
  let prev = 0;
  for (const value of values) {
    const delta = value - prev;
    prev = value;
    let v = delta < 0 ? ~(delta << 1) : delta << 1;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>>= 5;
    }
    out += String.fromCharCode(v + 63);
  }
  return out;
}

function encodeCompactTrack(c: {
  times: number[];
  lats: number[];
  lons: number[];
  speeds: number[];
  courses: number[];
}) {
  const lat5 = c.lats.map((v) => Math.round(v * 1e5));
  const lon5 = c.lons.map((v) => Math.round(v * 1e5));
  // coords interleave lat and lon; each column is its own delta chain
  let coords = '';
  let pl = 0;
  let po = 0;
  for (let i = 0; i < lat5.length; i++) {
    coords += stream([lat5[i] - pl]) + stream([lon5[i] - po]);
    pl = lat5[i];
    po = lon5[i];
  }
  return {
    start: c.times[0],
    times: stream(c.times.map((t) => t - c.times[0])),
    coords,
    speeds: stream(c.speeds),
    courses: stream(c.courses),
  };
}

/** A track from rows [seconds after T0, lat, lon, speed]. */
function build(rows: [number, number, number, number][]) {
  const t = emptyTrack('1', '860000000000001', rows.length);
  rows.forEach(([s, lat, lon, speed], i) => {
    t.times[i] = T0 + s * 1000;
    t.lats[i] = lat;
    t.lons[i] = lon;
    t.speeds[i] = speed;
    t.courses[i] = 90;
  });
  fillDistances(t);
  return t;
}

describe('track data', () => {
  it('decodes the server compact format exactly like its list format', () => {
    const times = [1_772_352_000, 1_772_352_010, 1_772_352_020, 1_772_355_620];
    const lats = [39.915, 39.91512, 39.9149, -33.86];
    const lons = [116.404, 116.40433, 116.405, 151.21];
    const speeds = [0, 35, 121, 8];
    const courses = [0, 90, 359, 180];
    const compact = encodeCompactTrack({ times, lats, lons, speeds, courses });
    const track = trackFromAnswer({ deviceId: '7', terminalID: 'x', count: 4, format: 'compact', compact });
    expect(track.length).toBe(4);
    expect([...track.times]).toEqual(times.map((s) => s * 1000));
    expect([...track.lats].map((v) => Number(v.toFixed(5)))).toEqual(lats);
    expect([...track.lons].map((v) => Number(v.toFixed(5)))).toEqual(lons);
    expect([...track.speeds]).toEqual(speeds);
    expect([...track.courses]).toEqual(courses);
    const list = trackFromAnswer({
      deviceId: '7',
      terminalID: 'x',
      count: 1,
      format: 'list',
      points: [{ time: '2026-03-01T08:00:00.000Z', lat: 1, lon: 2, speed: 3, course: 4 }],
    });
    expect(list.times[0]).toBe(T0);
    expect(list.speeds[0]).toBe(3);
  });

  it("reads coordinates in Google's documented polyline example", () => {
    const track = trackFromAnswer({
      deviceId: '1',
      terminalID: 'x',
      count: 3,
      format: 'compact',
      compact: {
        start: 0,
        times: stream([0, 10, 20]),
        coords: '_p~iF~ps|U_ulLnnqC_mqNvxq`@',
        speeds: stream([0, 0, 0]),
        courses: stream([0, 0, 0]),
      },
    });
    expect([...track.lats]).toEqual([38.5, 40.7, 43.252]);
    expect([...track.lons]).toEqual([-120.2, -120.95, -126.453]);
  });

  it('measures distance and interpolates positions', () => {
    const t = build([
      [0, 0, 0, 10],
      [10, 0, 0.01, 10],
      [20, 0, 0.02, 10],
    ]);
    expect(trackDistance(t)).toBeCloseTo(2224, -1);
    expect(indexAtTime(t, T0 + 15_000)).toBe(1);
    expect(indexAtTime(t, T0 - 1)).toBe(0);
    expect(indexAtTime(t, T0 + 99_000)).toBe(2);
    const mid = positionAt(t, 0.5);
    expect(mid?.lon).toBeCloseTo(0.005, 9);
    expect(mid?.time).toBe(T0 + 5000);
    expect(positionAt(t, 99)?.lon).toBeCloseTo(0.02, 9);
  });

  it('finds stops with their duration, including a parked sleep gap', () => {
    const t = build([
      [0, 30, 120, 40],
      [10, 30, 120.001, 0],
      [20, 30, 120.001, 0],
      [3600, 30, 120.0011, 0], // slept an hour where it parked
      [3610, 30, 120.01, 45], // leaves
      [3620, 30, 120.02, 3], // slow for a moment: not a stop
      [3630, 30, 120.03, 50],
    ]);
    const stops = findStops(t);
    expect(stops).toHaveLength(1);
    expect(stops[0].firstIndex).toBe(1);
    expect(stops[0].lastIndex).toBe(3);
    expect(stops[0].durationMs).toBe(3600_000);
    expect(durationParts(3_723_000)).toEqual({ days: 0, hours: 1, minutes: 2, seconds: 3 });
  });

  it('decimates a long wiggly track to a small fraction and keeps its ends', () => {
    const n = 200_000;
    const t = emptyTrack('1', 'x', n);
    for (let i = 0; i < n; i++) {
      t.lats[i] = 39.9 + i * 1e-6 + Math.sin(i / 50) * 1e-4;
      t.lons[i] = 116.4 + i * 1e-6;
    }
    const kept = simplifyIndexes(t.lats, t.lons, n, degreesPerPixel(14));
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(n - 1);
    expect(kept.length).toBeLessThan(n / 10);
    expect(kept.length).toBeGreaterThan(100);
    for (let k = 1; k < kept.length; k++) expect(kept[k]).toBeGreaterThan(kept[k - 1]);
    // finer zoom keeps more
    expect(simplifyIndexes(t.lats, t.lons, n, degreesPerPixel(18)).length).toBeGreaterThan(kept.length);
    expect(keptBefore(kept, kept[3] + 0)).toBe(3);
    expect(keptBefore(Uint32Array.from([5, 9]), 2)).toBe(-1);
  });

  it('plays a track in about three minutes at 1× and 32 times faster at 32×', () => {
    const n = 777_600;
    expect(n / pointsPerSecond(n, 1)).toBeCloseTo(180, 0);
    expect(n / pointsPerSecond(n, 32)).toBeCloseTo(180 / 32, 1);
    expect(advance(0, 1000, 10, 1)).toBe(2);
    expect(advance(8, 10_000, 10, 32)).toBe(9);
  });

  it('writes GPX with escaped names and metres per second', () => {
    const t = build([[0, 39.9, 116.4, 36]]);
    const xml = gpxParts([{ name: 'A&B <1>', track: t }]).join('');
    expect(xml).toContain('<name>A&amp;B &lt;1&gt;</name>');
    expect(xml).toContain('lat="39.900000" lon="116.400000"');
    expect(xml).toContain('<speed>10.00</speed>');
    expect(xml).toContain('<time>2026-03-01T08:00:00.000Z</time>');
  });
});
