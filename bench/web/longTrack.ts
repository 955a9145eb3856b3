// The long-track part of the web benchmark: 90 days every 10 s (777,600 fixes) encoded by the server's
// compact encoder, then what the track page does with it in the browser, timed (Node runs the same code).
import { encodeCompactTrack } from '../../apps/server/src/modules/track/compact.ts';
import { findStops } from '../../apps/web/src/features/track/data/stops.ts';
import { trackFromAnswer } from '../../apps/web/src/features/track/data/trackData.ts';
import { TrackSimplifier } from '../../apps/web/src/features/track/data/trackSimplifier.ts';
import { prng } from './fleet.ts';

export const LONG_TRACK_FIXES = 777_600;

export interface LongTrackFigures {
  encodedMB: number;
  decodeMs: number;
  stopsMs: number;
  stops: number;
  simplifyMs: { zoom: number; ms: number; points: number }[];
}

/** The 90-day test track in the track API's compact format. */
export function longCompactTrack(n = LONG_TRACK_FIXES) {
  const rnd = prng(3);
  const times = new Float64Array(n);
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  const speeds = new Float64Array(n);
  const courses = new Float64Array(n);
  let lat = 39.9;
  let lon = 116.4;
  let heading = 0;
  const start = Date.UTC(2026, 0, 1) / 1000;
  for (let i = 0; i < n; i++) {
    // Drive by day with a 6-minute delivery stop every hour, park by night: about 13 stops a day, some
    // 1,170 over the 90 days (the stop pins the track page has to draw).
    const hour = Math.floor(((i * 10) % 86_400) / 3600);
    const minute = Math.floor(((i * 10) % 3600) / 60);
    const driving = hour >= 7 && hour < 19 && !(minute >= 30 && minute < 36);
    heading += (rnd() - 0.5) * 0.3;
    const speed = driving ? 30 + rnd() * 50 : 0;
    const step = (speed / 3.6) * 10;
    lat += (Math.cos(heading) * step) / 111_000;
    lon += (Math.sin(heading) * step) / 85_000;
    times[i] = start + i * 10;
    lats[i] = lat;
    lons[i] = lon;
    speeds[i] = speed;
    courses[i] = ((heading * 180) / Math.PI + 360) % 360;
  }
  return encodeCompactTrack({ times, lats, lons, speeds, courses });
}

export function longTrackFigures(): LongTrackFigures {
  const n = LONG_TRACK_FIXES;
  const compact = longCompactTrack(n);
  const encodedMB =
    (compact.times.length + compact.coords.length + compact.speeds.length + compact.courses.length) / 1e6;

  let t = performance.now();
  const track = trackFromAnswer({ deviceId: '1', terminalID: 'x', count: n, format: 'compact', compact });
  const decodeMs = performance.now() - t;
  t = performance.now();
  const stops = findStops(track);
  const stopsMs = performance.now() - t;
  const simplifier = new TrackSimplifier(track);
  const simplifyMs = [17, 14, 10].map((zoom) => {
    const s = performance.now();
    const points = simplifier.indexesAt(zoom).length;
    return { zoom, ms: performance.now() - s, points };
  });
  return { encodedMB, decodeMs, stopsMs, stops: stops.length, simplifyMs };
}
