// Coordinate systems of the map providers (spec §1). Positions are stored and answered in WGS-84; Chinese
// providers draw in GCJ-02 (AMap, Google and Bing road maps in China) or BD-09 (Baidu). Pure math, the published
// GCJ-02 / BD-09 formulas (the same ones gcoord uses, so the web's maps draw exactly as before): the server
// converts answers for `coordType`, the web converts for its tiles. Outside China GCJ-02 equals WGS-84.

export type CoordSystem = 'wgs84' | 'gcj02' | 'bd09';
export const COORD_SYSTEMS: readonly CoordSystem[] = ['wgs84', 'gcj02', 'bd09'];

export interface LatLon {
  lat: number;
  lon: number;
}

/** Krasovsky 1940 semi-major axis and eccentricity squared, as in the GCJ-02 algorithm. */
const A = 6378245.0;
const EE = 0.006693421622965943;
const BAIDU_FACTOR = (Math.PI * 3000.0) / 180.0;

function inChinaBox(lon: number, lat: number): boolean {
  return lon >= 72.004 && lon <= 137.8347 && lat >= 0.8293 && lat <= 55.8271;
}

function transformLat(x: number, y: number): number {
  const { sin, sqrt, abs, PI } = Math;
  let r = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * sqrt(abs(x));
  r += ((20 * sin(6 * x * PI) + 20 * sin(2 * x * PI)) * 2) / 3;
  r += ((20 * sin(y * PI) + 40 * sin((y / 3) * PI)) * 2) / 3;
  r += ((160 * sin((y / 12) * PI) + 320 * sin((y * PI) / 30)) * 2) / 3;
  return r;
}

function transformLon(x: number, y: number): number {
  const { sin, sqrt, abs, PI } = Math;
  let r = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * sqrt(abs(x));
  r += ((20 * sin(6 * x * PI) + 20 * sin(2 * x * PI)) * 2) / 3;
  r += ((20 * sin(x * PI) + 40 * sin((x / 3) * PI)) * 2) / 3;
  r += ((150 * sin((x / 12) * PI) + 300 * sin((x / 30) * PI)) * 2) / 3;
  return r;
}

function wgsToGcj(lon: number, lat: number): [number, number] {
  if (!inChinaBox(lon, lat)) return [lon, lat];
  const radLat = (lat / 180) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  const dLon = (transformLon(lon - 105, lat - 35) * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  const dLat = (transformLat(lon - 105, lat - 35) * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  return [lon + dLon, lat + dLat];
}

/** The inverse by iteration, to 1e-6° (a tenth of a metre). */
function gcjToWgs(lon: number, lat: number): [number, number] {
  if (!inChinaBox(lon, lat)) return [lon, lat];
  let wLon = lon;
  let wLat = lat;
  for (let i = 0; i < 30; i++) {
    const [gLon, gLat] = wgsToGcj(wLon, wLat);
    const dx = gLon - lon;
    const dy = gLat - lat;
    if (Math.abs(dx) <= 1e-6 && Math.abs(dy) <= 1e-6) break;
    wLon -= dx;
    wLat -= dy;
  }
  return [wLon, wLat];
}

function gcjToBd(lon: number, lat: number): [number, number] {
  const z = Math.sqrt(lon * lon + lat * lat) + 0.00002 * Math.sin(lat * BAIDU_FACTOR);
  const theta = Math.atan2(lat, lon) + 0.000003 * Math.cos(lon * BAIDU_FACTOR);
  return [z * Math.cos(theta) + 0.0065, z * Math.sin(theta) + 0.006];
}

function bdToGcj(lon: number, lat: number): [number, number] {
  const x = lon - 0.0065;
  const y = lat - 0.006;
  const z = Math.sqrt(x * x + y * y) - 0.00002 * Math.sin(y * BAIDU_FACTOR);
  const theta = Math.atan2(y, x) - 0.000003 * Math.cos(x * BAIDU_FACTOR);
  return [z * Math.cos(theta), z * Math.sin(theta)];
}

function isFiniteLatLon(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** Converts a point between two systems; invalid input comes back unchanged. */
export function convertCoords(point: LatLon, from: CoordSystem, to: CoordSystem): LatLon {
  if (from === to || !isFiniteLatLon(point.lat, point.lon)) return { lat: point.lat, lon: point.lon };
  let lonLat: [number, number] = [point.lon, point.lat];
  // Through GCJ-02: WGS-84 ↔ GCJ-02 ↔ BD-09.
  if (from === 'wgs84') lonLat = wgsToGcj(...lonLat);
  else if (from === 'bd09') lonLat = bdToGcj(...lonLat);
  if (to === 'wgs84') lonLat = gcjToWgs(...lonLat);
  else if (to === 'bd09') lonLat = gcjToBd(...lonLat);
  return { lat: lonLat[1], lon: lonLat[0] };
}

/** A stored WGS-84 point in the caller's system (null coordinates stay null). */
export function wgsTo<T extends { lat: number | null; lon: number | null }>(point: T, system: CoordSystem): T {
  if (system === 'wgs84' || point.lat === null || point.lon === null) return point;
  const { lat, lon } = convertCoords({ lat: point.lat, lon: point.lon }, 'wgs84', system);
  return { ...point, lat, lon };
}
