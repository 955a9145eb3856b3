// Typed calls of track playback (gateway issue's track API, see apps/server/src/gateway/README.md).
import { api } from '../../api/client.ts';

export interface TrackListPoint {
  /** ISO-8601 UTC */
  time: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

/** Delta-encoded columns in the polyline character encoding (see data/compactTrack.ts). */
export interface CompactTrack {
  /** First fix, epoch seconds. */
  start: number;
  times: string;
  coords: string;
  speeds: string;
  courses: string;
}

export interface TrackAnswer {
  deviceId: string;
  terminalID: string;
  count: number;
  format: 'list' | 'compact';
  points?: TrackListPoint[];
  compact?: CompactTrack;
}

/** Valid fixes of up to 5 devices between two times (≤ 90 days), in time order. */
export function findTracks(terminalIDs: string[], startTime: number, endTime: number, signal?: AbortSignal) {
  return api<TrackAnswer[]>(
    '/track/find',
    {
      terminalIDs,
      startTime: new Date(startTime).toISOString(),
      endTime: new Date(endTime).toISOString(),
      format: 'compact',
    },
    { signal },
  );
}
