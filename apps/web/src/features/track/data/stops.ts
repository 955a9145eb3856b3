// Stop points of a track: the car stayed within STOP_RADIUS_M at STOP_MAX_SPEED_KMH or slower for at least
// STOP_MIN_DURATION_MS. A device that sleeps while parked reports again from the same place, so the gap is
// part of the stop; a stop ends when the next fix leaves.
import { distanceMetres } from '../../../map/coords.ts';
import type { TrackData } from './trackData.ts';

export const STOP_RADIUS_M = 50;
export const STOP_MAX_SPEED_KMH = 5;
export const STOP_MIN_DURATION_MS = 3 * 60_000;

export interface StopPoint {
  /** First and last fix of the stop. */
  firstIndex: number;
  lastIndex: number;
  lat: number;
  lon: number;
  start: number;
  end: number;
  durationMs: number;
}

export function findStops(track: TrackData, minDurationMs = STOP_MIN_DURATION_MS): StopPoint[] {
  const { lats, lons, speeds, times, length } = track;
  const stops: StopPoint[] = [];
  let i = 0;
  while (i < length) {
    if (speeds[i] > STOP_MAX_SPEED_KMH) {
      i++;
      continue;
    }
    const origin = { lat: lats[i], lon: lons[i] };
    let j = i;
    while (
      j + 1 < length &&
      speeds[j + 1] <= STOP_MAX_SPEED_KMH &&
      distanceMetres(origin, { lat: lats[j + 1], lon: lons[j + 1] }) <= STOP_RADIUS_M
    ) {
      j++;
    }
    const end = j + 1 < length ? times[j + 1] : times[j];
    if (end - times[i] >= minDurationMs) {
      stops.push({
        firstIndex: i,
        lastIndex: j,
        lat: origin.lat,
        lon: origin.lon,
        start: times[i],
        end,
        durationMs: end - times[i],
      });
    }
    i = j + 1;
  }
  return stops;
}

/** '2 h 05 min', '12 min', '45 s' style parts: [days, hours, minutes, seconds]. */
export function durationParts(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.round(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}
