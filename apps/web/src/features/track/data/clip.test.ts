import { describe, expect, it } from 'vitest';
import { visibleRuns } from './clip.ts';

describe('clipping a long track to the view', () => {
  it('keeps the runs in view plus the neighbours that make edge-crossing segments', () => {
    // 10 fixes along a line of longitude 0..9; the view covers lon 3..5
    const lats = Array.from({ length: 10 }, () => 0);
    const lons = Array.from({ length: 10 }, (_, i) => i);
    const idx = Uint32Array.from({ length: 10 }, (_, i) => i);
    expect(visibleRuns(idx, lats, lons, { south: -1, north: 1, west: 3, east: 5 })).toEqual([[2, 3, 4, 5, 6]]);
  });

  it('splits a track that leaves the view and comes back, and draws nothing far away', () => {
    const lons = [0, 1, 9, 9, 9, 1, 0];
    const lats = lons.map(() => 0);
    const idx = Uint32Array.from({ length: 7 }, (_, i) => i);
    expect(visibleRuns(idx, lats, lons, { south: -1, north: 1, west: -0.5, east: 1.5 })).toEqual([
      [0, 1, 2],
      [4, 5, 6],
    ]);
    expect(visibleRuns(idx, lats, lons, { south: 5, north: 6, west: 5, east: 6 })).toEqual([]);
  });
});
