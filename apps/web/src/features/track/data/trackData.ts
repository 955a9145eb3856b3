// A track as columns of typed arrays: 777,600 fixes (90 days every 10 s) take ~25 MB this way instead of
// hundreds as objects, and every pass over them (distance, stops, decimation, chart) is a tight loop.
import { distanceMetres } from '../../../map/coords.ts';
import type { TrackAnswer } from '../api.ts';
import { decodeCompactInto } from './compactTrack.ts';

export interface TrackData {
  deviceId: string;
  terminalID: string;
  length: number;
  /** Epoch ms */
  times: Float64Array;
  /** WGS-84 */
  lats: Float64Array;
  lons: Float64Array;
  /** km/h */
  speeds: Float32Array;
  courses: Float32Array;
  /** Metres from the first fix to fix i. */
  distance: Float64Array;
}

export function emptyTrack(deviceId: string, terminalID: string, length: number): TrackData {
  return {
    deviceId,
    terminalID,
    length,
    times: new Float64Array(length),
    lats: new Float64Array(length),
    lons: new Float64Array(length),
    speeds: new Float32Array(length),
    courses: new Float32Array(length),
    distance: new Float64Array(length),
  };
}

export function fillDistances(track: TrackData): void {
  const { lats, lons, distance } = track;
  let total = 0;
  for (let i = 1; i < track.length; i++) {
    total += distanceMetres({ lat: lats[i - 1], lon: lons[i - 1] }, { lat: lats[i], lon: lons[i] });
    distance[i] = total;
  }
}

/** Turns an API answer (list or compact) into columns. */
export function trackFromAnswer(answer: TrackAnswer): TrackData {
  let track: TrackData;
  if (answer.compact) {
    track = decodeCompactInto(answer.compact, (n) => emptyTrack(answer.deviceId, answer.terminalID, n));
  } else {
    const points = answer.points ?? [];
    track = emptyTrack(answer.deviceId, answer.terminalID, points.length);
    points.forEach((p, i) => {
      track.times[i] = Date.parse(p.time);
      track.lats[i] = p.lat;
      track.lons[i] = p.lon;
      track.speeds[i] = p.speed;
      track.courses[i] = p.course;
    });
  }
  fillDistances(track);
  return track;
}

/** Total length in metres. */
export function trackDistance(track: TrackData): number {
  return track.length > 0 ? track.distance[track.length - 1] : 0;
}

/** Index of the last fix at or before `time` (0 when before the first). */
export function indexAtTime(track: TrackData, time: number): number {
  const { times } = track;
  let lo = 0;
  let hi = track.length - 1;
  if (hi < 0 || time <= times[0]) return 0;
  if (time >= times[hi]) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface TrackPosition {
  lat: number;
  lon: number;
  course: number;
  speed: number;
  time: number;
  distance: number;
}

/** The position at a fractional index (playback moves smoothly between two fixes). */
export function positionAt(track: TrackData, at: number): TrackPosition | null {
  if (track.length === 0) return null;
  const clamped = Math.max(0, Math.min(track.length - 1, at));
  const i = Math.floor(clamped);
  const j = Math.min(track.length - 1, i + 1);
  const f = clamped - i;
  const mix = (a: Float64Array | Float32Array) => a[i] + (a[j] - a[i]) * f;
  return {
    lat: mix(track.lats),
    lon: mix(track.lons),
    course: track.courses[f < 0.5 ? i : j],
    speed: track.speeds[f < 0.5 ? i : j],
    time: mix(track.times),
    distance: mix(track.distance),
  };
}
