// Decoder of the track API's compact format (apps/server/src/modules/track/compact.ts): each column is a
// stream of zigzag integer deltas in 5-bit groups + 63, as Google's encoded polylines. Decoded straight into
// typed arrays, without an object per fix.
import type { CompactTrack } from '../api.ts';
import type { TrackData } from './trackData.ts';

/** Counts the values of a stream (a value ends at a character below 63 + 0x20). */
export function countDeltas(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) - 63 < 0x20) n++;
  return n;
}

/** Calls `onValue` with each running total (first value + deltas) of a stream; returns how many. */
function readRunning(s: string, onValue: (index: number, value: number) => void, stride = 1, offset = 0): void {
  const running = new Array<number>(stride).fill(0);
  let index = 0;
  let i = 0;
  while (i < s.length) {
    let shift = 0;
    let v = 0;
    let b: number;
    do {
      b = s.charCodeAt(i++) - 63;
      v += (b & 0x1f) * 2 ** shift;
      shift += 5;
    } while (b >= 0x20 && i < s.length);
    const delta = v % 2 === 1 ? -(v + 1) / 2 : v / 2;
    const column = index % stride;
    running[column] += delta;
    onValue(Math.floor(index / stride) + offset, running[column]);
    index++;
  }
}

export function decodeCompactInto(compact: CompactTrack, make: (length: number) => TrackData): TrackData {
  const n = countDeltas(compact.times);
  const track = make(n);
  readRunning(compact.times, (i, seconds) => {
    if (i < n) track.times[i] = (compact.start + seconds) * 1000;
  });
  let pair = 0;
  readRunning(
    compact.coords,
    (i, value) => {
      if (i >= n) return;
      if (pair % 2 === 0) track.lats[i] = value / 1e5;
      else track.lons[i] = value / 1e5;
      pair++;
    },
    2,
  );
  readRunning(compact.speeds, (i, v) => {
    if (i < n) track.speeds[i] = v;
  });
  readRunning(compact.courses, (i, v) => {
    if (i < n) track.courses[i] = v;
  });
  return track;
}
