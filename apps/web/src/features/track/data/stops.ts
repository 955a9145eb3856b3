// Stop points of a track: the product's one stay rule (`findStays` of @carhere/domain, issue 13) — the car
// stood within STAY_RADIUS_M at STATIONARY_SPEED_KMH or slower for at least DEFAULT_STAY_MIN_SECONDS. A device
// that sleeps while parked reports again from the same place, so the gap is part of the stop; a stop ends
// when the next fix leaves. The same rule answers /api/stay/find and the statistics' stop counts.
import { DEFAULT_STAY_MIN_SECONDS, findStays } from '@carhere/domain';
import type { TrackData } from './trackData.ts';

export const STOP_MIN_DURATION_MS = DEFAULT_STAY_MIN_SECONDS * 1000;

export interface StopPoint {
  /** First and last fix of the stop. */
  firstIndex: number;
  lastIndex: number;
  /** Centre of the stop. */
  lat: number;
  lon: number;
  start: number;
  end: number;
  durationMs: number;
}

export function findStops(track: TrackData, minDurationMs = STOP_MIN_DURATION_MS): StopPoint[] {
  return findStays(track, minDurationMs / 1000).map((s) => ({
    firstIndex: s.firstIndex,
    lastIndex: s.lastIndex,
    lat: s.lat,
    lon: s.lon,
    start: s.start,
    end: s.end,
    durationMs: s.end - s.start,
  }));
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
