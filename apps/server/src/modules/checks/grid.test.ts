import { describe, expect, it } from 'vitest';
import { boxAround, CELL_COLUMNS, cellOf, cellRanges, passages } from './grid.ts';

describe('vehicle-check grid', () => {
  it('numbers cells row-major so one latitude band of a box is one range', () => {
    const box = { minLat: 39.901, maxLat: 39.925, minLon: 116.391, maxLon: 116.415 };
    const { lo, hi } = cellRanges(box);
    expect(lo.length).toBe(3);
    expect(hi.map((h, i) => h - lo[i])).toEqual([2, 2, 2]);
    expect(lo[1] - lo[0]).toBe(CELL_COLUMNS);
    // every corner's cell lies in one of the ranges
    for (const [lat, lon] of [
      [box.minLat, box.minLon],
      [box.maxLat, box.maxLon],
      [39.912, 116.4],
    ]) {
      const c = cellOf(lat, lon);
      expect(lo.some((l, i) => c >= l && c <= hi[i])).toBe(true);
    }
  });

  it('covers the whole circle with its box, at the equator and far north', () => {
    for (const lat of [0, 39.9, 69]) {
      const b = boxAround(lat, 10, 1000);
      expect(b.maxLat - lat).toBeGreaterThan(1000 / 111_195);
      expect(b.maxLon - 10).toBeGreaterThan(1000 / (111_195 * Math.cos((lat * Math.PI) / 180)));
    }
  });

  it('splits fixes into passages at gaps longer than ten minutes', () => {
    const m = 60_000;
    const list = passages([
      { time: 0, lat: 0, lon: 0, distance: 90 },
      { time: 2 * m, lat: 0, lon: 0, distance: 30 },
      { time: 30 * m, lat: 0, lon: 0, distance: 50 },
    ]);
    expect(list).toEqual([
      { enteredAt: 0, leftAt: 2 * m, fixes: 2, closest: 30 },
      { enteredAt: 30 * m, leftAt: 30 * m, fixes: 1, closest: 50 },
    ]);
  });
});
