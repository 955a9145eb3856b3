// Fence geometry and crossing detection: pure functions, no I/O. Coordinates are WGS-84 degrees.
import type { FenceAlarmType } from '@carhere/domain';

export interface CircleGeometry {
  shape: 'circle';
  lat: number;
  lon: number;
  /** metres */
  radius: number;
}

export interface RectangleGeometry {
  shape: 'rectangle';
  minLat: number;
  minLon: number;
  maxLat: number;
  maxLon: number;
}

/** A polygon by its vertices [lat, lon] in order (closed implicitly), 3 to 200 of them. */
export interface PolygonGeometry {
  shape: 'polygon';
  points: [number, number][];
}

export type FenceGeometry = CircleGeometry | RectangleGeometry | PolygonGeometry;

/** Alarm codes of the domain catalogue: 4 'Fence (enter)', 5 'Fence (exit)'. */
export const FENCE_ENTER_ALARM = 4;
export const FENCE_EXIT_ALARM = 5;

const EARTH_RADIUS_M = 6_371_008.8;
const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** True when the point lies inside the fence (on the boundary counts as inside). */
export function containsPoint(fence: FenceGeometry, lat: number, lon: number): boolean {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return false;
  if (fence.shape === 'circle') return distanceMetres(fence.lat, fence.lon, lat, lon) <= fence.radius;
  if (fence.shape === 'polygon') return insidePolygon(fence.points, lat, lon);
  return lat >= fence.minLat && lat <= fence.maxLat && lon >= fence.minLon && lon <= fence.maxLon;
}

export type Crossing = 'enter' | 'exit';

/** The crossing between two observations; none when the side is unchanged or the earlier side is unknown. */
export function crossing(wasInside: boolean | null, isInside: boolean): Crossing | null {
  if (wasInside === null || wasInside === isInside) return null;
  return isInside ? 'enter' : 'exit';
}

/** Whether a fence with this alarm type raises an alarm for a crossing. */
export function alarmsOn(alarmType: FenceAlarmType, cross: Crossing): boolean {
  if (alarmType === 'inOut') return true;
  return (alarmType === 'in' && cross === 'enter') || (alarmType === 'out' && cross === 'exit');
}

/** The alarm code to write for a crossing of a fence, or null when its alarm type ignores the crossing. */
export function fenceAlarmCode(alarmType: FenceAlarmType, wasInside: boolean | null, isInside: boolean): number | null {
  const cross = crossing(wasInside, isInside);
  if (!cross || !alarmsOn(alarmType, cross)) return null;
  return cross === 'enter' ? FENCE_ENTER_ALARM : FENCE_EXIT_ALARM;
}

/**
 * Point in polygon by ray casting over plain lat/lon (fences are small enough for the plane to hold); a point on
 * an edge or a vertex counts as inside, as for the other shapes.
 */
export function insidePolygon(points: readonly (readonly [number, number])[], lat: number, lon: number): boolean {
  const n = points.length;
  if (n < 3) return false;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const [yi, xi] = points[i];
    const [yj, xj] = points[j];
    if (onSegment(yi, xi, yj, xj, lat, lon)) return true;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onSegment(y1: number, x1: number, y2: number, x2: number, y: number, x: number): boolean {
  const cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
  if (Math.abs(cross) > 1e-12) return false;
  return x >= Math.min(x1, x2) && x <= Math.max(x1, x2) && y >= Math.min(y1, y2) && y <= Math.max(y1, y2);
}
