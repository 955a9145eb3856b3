// Fence geometry from a request: a circle (centre + radius 100–1000000 m, the domain rule) or a rectangle.
import { type FenceShape, fenceRadius } from '@carhere/domain';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import type { FenceGeometry } from './detect.ts';
import { localizedError } from './localized.ts';
import { FENCE_TEXTS } from './texts.ts';

export interface GeometryInput {
  shape?: FenceShape;
  lat?: number | null;
  lon?: number | null;
  radius?: number | null;
  minLat?: number | null;
  minLon?: number | null;
  maxLat?: number | null;
  maxLon?: number | null;
  points?: [number, number][] | null;
}

const isNum = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

export function parseGeometry(req: FastifyRequest, input: GeometryInput): FenceGeometry {
  if (input.shape === 'circle') {
    if (!isNum(input.lat) || !isNum(input.lon) || input.radius == null) {
      throw localizedError(req, FENCE_TEXTS, 'geometryMissing');
    }
    const radius = fenceRadius(input.radius);
    if (!radius.ok) throw new ApiError(400, radius.message, 400, { ...radius.params });
    return { shape: 'circle', lat: input.lat, lon: input.lon, radius: radius.value };
  }
  if (input.shape === 'rectangle') {
    const { minLat, minLon, maxLat, maxLon } = input;
    if (!isNum(minLat) || !isNum(minLon) || !isNum(maxLat) || !isNum(maxLon)) {
      throw localizedError(req, FENCE_TEXTS, 'geometryMissing');
    }
    if (!(minLat < maxLat && minLon < maxLon)) throw localizedError(req, FENCE_TEXTS, 'rectangleBounds');
    return { shape: 'rectangle', minLat, minLon, maxLat, maxLon };
  }
  if (input.shape === 'polygon') {
    const points = input.points;
    if (!points || points.length < 3) throw localizedError(req, FENCE_TEXTS, 'geometryMissing');
    if (polygonArea(points) === 0) throw localizedError(req, FENCE_TEXTS, 'rectangleBounds');
    return { shape: 'polygon', points: points.map(([lat, lon]) => [lat, lon] as [number, number]) };
  }
  throw localizedError(req, FENCE_TEXTS, 'geometryMissing');
}

/** Twice the signed area in squared degrees (shoelace); 0 for a polygon with no area. */
function polygonArea(points: readonly [number, number][]): number {
  let a = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    a += points[j][1] * points[i][0] - points[i][1] * points[j][0];
  }
  return a;
}

/** The columns of a geometry (the other shape's columns cleared). */
export function geometryColumns(g: FenceGeometry) {
  if (g.shape === 'circle') {
    return {
      shape: g.shape,
      lat: g.lat,
      lon: g.lon,
      radius: g.radius,
      min_lat: null,
      min_lon: null,
      max_lat: null,
      max_lon: null,
      points: null,
    };
  }
  if (g.shape === 'polygon') {
    const lats = g.points.map((p) => p[0]);
    const lons = g.points.map((p) => p[1]);
    // The bounding box is kept too: lists and the map fit to it without reading the vertices.
    return {
      shape: g.shape,
      lat: null,
      lon: null,
      radius: null,
      min_lat: Math.min(...lats),
      min_lon: Math.min(...lons),
      max_lat: Math.max(...lats),
      max_lon: Math.max(...lons),
      points: JSON.stringify(g.points),
    };
  }
  return {
    shape: g.shape,
    lat: null,
    lon: null,
    radius: null,
    min_lat: g.minLat,
    min_lon: g.minLon,
    max_lat: g.maxLat,
    max_lon: g.maxLon,
    points: null,
  };
}

export function geometryOfRow(row: {
  shape: FenceShape;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  min_lat: number | null;
  min_lon: number | null;
  max_lat: number | null;
  max_lon: number | null;
  points?: [number, number][] | null;
}): FenceGeometry {
  if (row.shape === 'circle') return { shape: 'circle', lat: row.lat ?? 0, lon: row.lon ?? 0, radius: row.radius ?? 0 };
  if (row.shape === 'polygon') return { shape: 'polygon', points: row.points ?? [] };
  return {
    shape: 'rectangle',
    minLat: row.min_lat ?? 0,
    minLon: row.min_lon ?? 0,
    maxLat: row.max_lat ?? 0,
    maxLon: row.max_lon ?? 0,
  };
}
