// What the track page shows of one device's track.
import { findStops, type StopPoint } from './data/stops.ts';
import type { TrackData } from './data/trackData.ts';
import { TrackSimplifier } from './data/trackSimplifier.ts';

export const TRACK_COLORS = ['#1677ff', '#eb2f96', '#13a8a8', '#fa8c16', '#722ed1'];

export interface TrackView {
  name: string;
  color: string;
  data: TrackData;
  stops: StopPoint[];
  simplifier: TrackSimplifier;
  /** The server counted more fixes than it sent (the track was not fully loaded). */
  truncated: boolean;
}

export function trackView(data: TrackData, name: string, index: number, expectedCount: number): TrackView {
  return {
    name,
    color: TRACK_COLORS[index % TRACK_COLORS.length],
    data,
    stops: findStops(data),
    simplifier: new TrackSimplifier(data),
    truncated: expectedCount > data.length,
  };
}
