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
  throw localizedError(req, FENCE_TEXTS, 'geometryMissing');
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
}): FenceGeometry {
  if (row.shape === 'circle') return { shape: 'circle', lat: row.lat ?? 0, lon: row.lon ?? 0, radius: row.radius ?? 0 };
  return {
    shape: 'rectangle',
    minLat: row.min_lat ?? 0,
    minLon: row.min_lon ?? 0,
    maxLat: row.max_lat ?? 0,
    maxLon: row.max_lon ?? 0,
  };
}
