// Compact track encoding for long ranges. Each column is a stream of integer deltas; each delta is written
// zigzag-encoded in 5-bit groups as printable characters (value + 63, 0x20 = "more groups follow"), the
// character encoding of Google's encoded polylines. A 90-day track at 10 s intervals (777,600 fixes) takes
// a few MB instead of tens.
//
//   start    first fix time, epoch seconds
//   times    seconds since the previous fix (the first one: 0)
//   coords   lat, lon pairs × 1e5, each the delta from the previous fix's lat (or lon)
//   speeds   km/h rounded, delta from the previous fix
//   courses  degrees rounded, delta from the previous fix

import { type CoordSystem, convertCoords } from '@carhere/domain';

export interface CompactTrack {
  start: number;
  times: string;
  coords: string;
  speeds: string;
  courses: string;
}

export interface TrackColumns {
  /** Epoch seconds (rounded to whole seconds here). */
  times: ArrayLike<number>;
  lats: ArrayLike<number>;
  lons: ArrayLike<number>;
  speeds: ArrayLike<number>;
  courses: ArrayLike<number>;
}

export interface TrackPoint {
  /** Epoch milliseconds. */
  time: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

/** Appends zigzag/5-bit encoded integers; builds the string in chunks to keep it fast for long tracks. */
export class DeltaStream {
  private readonly parts: string[] = [];
  private codes: number[] = [];

  push(delta: number): void {
    let v = delta < 0 ? ~(delta << 1) : delta << 1;
    while (v >= 0x20) {
      this.codes.push((0x20 | (v & 0x1f)) + 63);
      v >>>= 5;
    }
    this.codes.push(v + 63);
    if (this.codes.length >= 8192) this.spill();
  }

  private spill(): void {
    this.parts.push(String.fromCharCode.apply(null, this.codes));
    this.codes = [];
  }

  toString(): string {
    this.spill();
    return this.parts.join('');
  }
}

/** Columns already in the encoding's units: epoch seconds, lat/lon × 1e5, km/h and degrees, all whole numbers. */
export interface ScaledTrackColumns {
  times: ArrayLike<number>;
  lats: ArrayLike<number>;
  lons: ArrayLike<number>;
  speeds: ArrayLike<number>;
  courses: ArrayLike<number>;
}

/** One delta on its own (to join separately encoded streams). */
export function encodeDelta(delta: number): string {
  const s = new DeltaStream();
  s.push(delta);
  return s.toString();
}

export function encodeCompactTrack(c: TrackColumns): CompactTrack {
  const n = c.times.length;
  const scaled = {
    times: new Float64Array(n),
    lats: new Int32Array(n),
    lons: new Int32Array(n),
    speeds: new Int32Array(n),
    courses: new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    scaled.times[i] = Math.round(c.times[i]);
    scaled.lats[i] = Math.round(c.lats[i] * 1e5);
    scaled.lons[i] = Math.round(c.lons[i] * 1e5);
    scaled.speeds[i] = Math.round(c.speeds[i]);
    scaled.courses[i] = Math.round(c.courses[i]);
  }
  return encodeScaledTrack(scaled);
}

export function encodeScaledTrack(c: ScaledTrackColumns): CompactTrack {
  const times = new DeltaStream();
  const coords = new DeltaStream();
  const speeds = new DeltaStream();
  const courses = new DeltaStream();
  const n = c.times.length;
  const start = n > 0 ? c.times[0] : 0;
  let t0 = start;
  let lat0 = 0;
  let lon0 = 0;
  let speed0 = 0;
  let course0 = 0;
  for (let i = 0; i < n; i++) {
    const t = c.times[i];
    const lat = c.lats[i];
    const lon = c.lons[i];
    const speed = c.speeds[i];
    const course = c.courses[i];
    times.push(t - t0);
    coords.push(lat - lat0);
    coords.push(lon - lon0);
    speeds.push(speed - speed0);
    courses.push(course - course0);
    t0 = t;
    lat0 = lat;
    lon0 = lon;
    speed0 = speed;
    course0 = course;
  }
  return {
    start,
    times: times.toString(),
    coords: coords.toString(),
    speeds: speeds.toString(),
    courses: courses.toString(),
  };
}

/** The deltas of one stream. */
export function readDeltas(s: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < s.length) {
    let shift = 0;
    let v = 0;
    let b: number;
    do {
      b = s.charCodeAt(i++) - 63;
      v |= (b & 0x1f) << shift;
      shift += 5;
    } while (b >= 0x20 && i < s.length);
    out.push(v & 1 ? ~(v >> 1) : v >> 1);
  }
  return out;
}

/** The reference decoder (the web copies it): one object per fix, in time order. */
export function decodeCompactTrack(track: CompactTrack): TrackPoint[] {
  const dt = readDeltas(track.times);
  const dc = readDeltas(track.coords);
  const ds = readDeltas(track.speeds);
  const dk = readDeltas(track.courses);
  const points: TrackPoint[] = [];
  let t = track.start;
  let lat = 0;
  let lon = 0;
  let speed = 0;
  let course = 0;
  for (let i = 0; i < dt.length; i++) {
    t += dt[i];
    lat += dc[2 * i];
    lon += dc[2 * i + 1];
    speed += ds[i];
    course += dk[i];
    points.push({ time: t * 1000, lat: lat / 1e5, lon: lon / 1e5, speed, course });
  }
  return points;
}

/** The same track with its coordinates in another system (coordType); the other streams are kept as they are. */
export function convertCompactCoords(track: CompactTrack, system: CoordSystem): CompactTrack {
  if (system === 'wgs84') return track;
  const deltas = readDeltas(track.coords);
  const out = new DeltaStream();
  let lat = 0;
  let lon = 0;
  let prevLat = 0;
  let prevLon = 0;
  for (let i = 0; i + 1 < deltas.length; i += 2) {
    lat += deltas[i];
    lon += deltas[i + 1];
    const p = convertCoords({ lat: lat / 1e5, lon: lon / 1e5 }, 'wgs84', system);
    const sLat = Math.round(p.lat * 1e5);
    const sLon = Math.round(p.lon * 1e5);
    out.push(sLat - prevLat);
    out.push(sLon - prevLon);
    prevLat = sLat;
    prevLon = sLon;
  }
  return { ...track, coords: out.toString() };
}
