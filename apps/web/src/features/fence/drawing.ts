// Drawing a fence with two clicks: a circle from its centre to a point on its edge, a rectangle from two
// opposite corners. Points are the map's lat/lng, which are WGS-84 whatever the provider (src/map/crs.ts).
import { FENCE_RADIUS_MAX_M, FENCE_RADIUS_MIN_M } from '@carhere/domain';
import { distanceMetres, type LatLon } from '../../map/coords.ts';
import type { FenceGeometry } from './api.ts';

/** Radius rounded to the metre and kept within 100–1000000 m (spec §5). */
export function clampRadius(metres: number): number {
  if (!Number.isFinite(metres)) return FENCE_RADIUS_MIN_M;
  return Math.min(FENCE_RADIUS_MAX_M, Math.max(FENCE_RADIUS_MIN_M, Math.round(metres)));
}

export function circleFrom(centre: LatLon, edge: LatLon): FenceGeometry {
  return {
    shape: 'circle',
    lat: round6(centre.lat),
    lon: round6(centre.lon),
    radius: clampRadius(distanceMetres(centre, edge)),
  };
}

/** The rectangle spanned by two opposite corners in any order; null when it has no area. */
export function rectangleFrom(a: LatLon, b: LatLon): FenceGeometry | null {
  const minLat = round6(Math.min(a.lat, b.lat));
  const maxLat = round6(Math.max(a.lat, b.lat));
  const minLon = round6(Math.min(a.lon, b.lon));
  const maxLon = round6(Math.max(a.lon, b.lon));
  if (minLat === maxLat || minLon === maxLon) return null;
  return { shape: 'rectangle', minLat, minLon, maxLat, maxLon };
}

/** [[south, west], [north, east]] of a geometry, for fitting the map to it. */
export function boundsOf(g: FenceGeometry): [[number, number], [number, number]] {
  if (g.shape === 'polygon') {
    const lats = g.points.map((p) => p[0]);
    const lons = g.points.map((p) => p[1]);
    return [
      [Math.min(...lats), Math.min(...lons)],
      [Math.max(...lats), Math.max(...lons)],
    ];
  }
  if (g.shape === 'rectangle') {
    return [
      [g.minLat, g.minLon],
      [g.maxLat, g.maxLon],
    ];
  }
  const dLat = g.radius / 111_195;
  const dLon = g.radius / (111_195 * Math.max(0.01, Math.cos((g.lat * Math.PI) / 180)));
  return [
    [g.lat - dLat, g.lon - dLon],
    [g.lat + dLat, g.lon + dLon],
  ];
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
