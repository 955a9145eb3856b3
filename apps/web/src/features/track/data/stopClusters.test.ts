import { describe, expect, it } from 'vitest';
import { clusterStops, pinsWithin, STOP_CLUSTER_CELL_PX } from './stopClusters.ts';
import type { StopPoint } from './stops.ts';

/** Web-Mercator pixels at a zoom, as Leaflet's map.project computes them for EPSG:3857. */
function mercator(zoom: number) {
  const scale = 256 * 2 ** zoom;
  return (lat: number, lon: number) => {
    const s = Math.sin((lat * Math.PI) / 180);
    return { x: ((lon + 180) / 360) * scale, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * scale };
  };
}

function stop(lat: number, lon: number, minutes: number, i = 0): StopPoint {
  const start = Date.parse('2026-03-01T00:00:00Z') + i * 3_600_000;
  return {
    firstIndex: i * 10,
    lastIndex: i * 10 + 5,
    lat,
    lon,
    start,
    end: start + minutes * 60_000,
    durationMs: minutes * 60_000,
  };
}

describe('stop pin clustering', () => {
  it('keeps stops far apart on screen as single pins at their own place', () => {
    const stops = [stop(39.9, 116.3, 10, 0), stop(39.95, 116.45, 20, 1), stop(40.1, 116.6, 30, 2)];
    const pins = clusterStops(stops, mercator(14));
    expect(pins).toHaveLength(3);
    expect(pins.map((p) => p.stops)).toEqual([[0], [1], [2]]);
    expect(pins[1]).toMatchObject({ lat: 39.95, lon: 116.45, totalMs: 20 * 60_000 });
  });

  it('groups stops that share a screen cell, with count, total duration, mean place and bounds', () => {
    // Two stops about 30 m apart and one 11 km away; at zoom 10 a 48-px cell is about 7 km wide.
    const stops = [stop(39.9, 116.3, 10, 0), stop(39.90027, 116.3, 15, 1), stop(40.0, 116.3, 5, 2)];
    const far = clusterStops(stops, mercator(10));
    const group = far.find((p) => p.stops.length === 2);
    expect(group).toBeDefined();
    expect(group?.stops).toEqual([0, 1]);
    expect(group?.totalMs).toBe(25 * 60_000);
    expect(group?.lat).toBeCloseTo(39.900135, 6);
    expect(group?.bounds).toEqual({ south: 39.9, west: 116.3, north: 39.90027, east: 116.3 });
    expect(far.reduce((n, p) => n + p.stops.length, 0)).toBe(3);
    // Zoomed in to street level (about 0.1 m per pixel at zoom 21) they come apart again.
    expect(clusterStops(stops, mercator(21)).map((p) => p.stops.length)).toEqual([1, 1, 1]);
  });

  it('turns the stops of a 90-day track into a bounded number of pins, every stop counted once', () => {
    // 90 days × 40 stops around a city, many at the same depot: 3,600 stops.
    const stops: StopPoint[] = [];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 3_600; i++) {
      const atDepot = i % 4 === 0;
      stops.push(stop(atDepot ? 39.9 : 39.7 + rnd() * 0.4, atDepot ? 116.4 : 116.2 + rnd() * 0.4, 5 + (i % 60), i));
    }
    const project = mercator(11);
    const pins = clusterStops(stops, project);
    // At most one pin per cell of the area the stops span (about 0.4° × 0.4°).
    const a = project(40.1, 116.2);
    const b = project(39.7, 116.6);
    const cells =
      (Math.floor(b.x / STOP_CLUSTER_CELL_PX) - Math.floor(a.x / STOP_CLUSTER_CELL_PX) + 1) *
      (Math.floor(b.y / STOP_CLUSTER_CELL_PX) - Math.floor(a.y / STOP_CLUSTER_CELL_PX) + 1);
    expect(pins.length).toBeLessThanOrEqual(cells);
    expect(pins.length).toBeLessThan(stops.length / 10);
    const seen = pins.flatMap((p) => p.stops).sort((x, y) => x - y);
    expect(seen).toEqual(stops.map((_, i) => i));
    const depot = pins.find((p) => p.stops.includes(0));
    expect(depot?.stops.length).toBeGreaterThanOrEqual(900);
    const total = stops.reduce((n, s) => n + s.durationMs, 0);
    expect(pins.reduce((n, p) => n + p.totalMs, 0)).toBe(total);
  });

  it('picks the pins within the bounds', () => {
    const pins = clusterStops([stop(39.9, 116.3, 10, 0), stop(41, 118, 10, 1)], mercator(12));
    expect(pinsWithin(pins, { south: 39, west: 116, north: 40, east: 117 }).map((p) => p.stops)).toEqual([[0]]);
    expect(clusterStops([], mercator(12))).toEqual([]);
  });
});
