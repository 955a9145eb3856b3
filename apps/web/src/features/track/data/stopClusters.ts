// Stop pins for one zoom level. A long track (90 days, hundreds of thousands of fixes) can hold thousands of
// stops, many of them at the same few places (home, depot); one marker each would bury the map and make every
// pan slow. Stops whose pins would fall into the same screen cell at this zoom share one pin that carries
// their count and total duration; a cell with a single stop keeps the stop's own pin at its exact place.
// Pure functions over a projection, so the grouping is tested without a map.
import type { StopPoint } from './stops.ts';

/** Side of a clustering cell in screen pixels (about one and a half pin widths). */
export const STOP_CLUSTER_CELL_PX = 48;

export interface LatLonBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface StopPin {
  /** Stable for a zoom level: the cell of the pin. */
  key: string;
  /** A single stop's place, or the mean place of the grouped stops. */
  lat: number;
  lon: number;
  /** Indexes into the stops array, in track order. */
  stops: number[];
  /** Sum of the grouped stops' durations. */
  totalMs: number;
  bounds: LatLonBounds;
}

/** Pixel coordinates of a place at the zoom being clustered (e.g. Leaflet's map.project at that zoom). */
export type Project = (lat: number, lon: number) => { x: number; y: number };

/**
 * Groups the stops by screen cell: one pin per non-empty cell, in the order of each cell's first stop.
 * Linear in the number of stops.
 */
export function clusterStops(
  stops: readonly StopPoint[],
  project: Project,
  cellPx: number = STOP_CLUSTER_CELL_PX,
): StopPin[] {
  const cells = new Map<
    string,
    { stops: number[]; latSum: number; lonSum: number; totalMs: number; b: LatLonBounds }
  >();
  for (let i = 0; i < stops.length; i++) {
    const s = stops[i];
    const p = project(s.lat, s.lon);
    const key = `${Math.floor(p.x / cellPx)}:${Math.floor(p.y / cellPx)}`;
    const cell = cells.get(key);
    if (!cell) {
      cells.set(key, {
        stops: [i],
        latSum: s.lat,
        lonSum: s.lon,
        totalMs: s.durationMs,
        b: { south: s.lat, west: s.lon, north: s.lat, east: s.lon },
      });
      continue;
    }
    cell.stops.push(i);
    cell.latSum += s.lat;
    cell.lonSum += s.lon;
    cell.totalMs += s.durationMs;
    if (s.lat < cell.b.south) cell.b.south = s.lat;
    if (s.lat > cell.b.north) cell.b.north = s.lat;
    if (s.lon < cell.b.west) cell.b.west = s.lon;
    if (s.lon > cell.b.east) cell.b.east = s.lon;
  }
  const pins: StopPin[] = [];
  for (const [key, c] of cells) {
    const n = c.stops.length;
    const single = n === 1 ? stops[c.stops[0]] : null;
    pins.push({
      key,
      lat: single ? single.lat : c.latSum / n,
      lon: single ? single.lon : c.lonSum / n,
      stops: c.stops,
      totalMs: c.totalMs,
      bounds: c.b,
    });
  }
  return pins;
}

/** The pins whose place lies inside the bounds (the part of the map worth having markers for). */
export function pinsWithin(pins: readonly StopPin[], b: LatLonBounds): StopPin[] {
  return pins.filter((p) => p.lat >= b.south && p.lat <= b.north && p.lon >= b.west && p.lon <= b.east);
}
