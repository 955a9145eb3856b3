// Coordinate systems of the map providers (spec §1, DESIGN "Web"). Positions are stored in WGS-84; Chinese
// providers draw their tiles in GCJ-02 (AMap, Google and Bing road maps in China) or BD-09 (Baidu). The
// conversions come from gcoord (pinned); outside China GCJ-02 and WGS-84 are the same.
import gcoord from 'gcoord';

export type CoordSystem = 'wgs84' | 'gcj02' | 'bd09';

export interface LatLon {
  lat: number;
  lon: number;
}

const GCOORD = { wgs84: gcoord.WGS84, gcj02: gcoord.GCJ02, bd09: gcoord.BD09 } as const;

function isFiniteLatLon(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** Converts a point between two systems; invalid input comes back unchanged. */
export function convert(point: LatLon, from: CoordSystem, to: CoordSystem): LatLon {
  if (from === to || !isFiniteLatLon(point.lat, point.lon)) return { lat: point.lat, lon: point.lon };
  const [lon, lat] = gcoord.transform([point.lon, point.lat], GCOORD[from], GCOORD[to]);
  return { lat, lon };
}

/** A stored WGS-84 position as the provider's tiles expect it. */
export function wgsToDisplay(point: LatLon, system: CoordSystem): LatLon {
  return convert(point, 'wgs84', system);
}

/** The reverse: a point read off a provider's map (a drawn fence, a clicked spot) back to WGS-84. */
export function displayToWgs(point: LatLon, system: CoordSystem): LatLon {
  return convert(point, system, 'wgs84');
}

/** BD-09 longitude/latitude to Baidu's planar metres (BD-09 Mercator), the unit of Baidu's tile grid. */
export function bd09ToMercator(point: LatLon): { x: number; y: number } {
  const [x, y] = gcoord.transform([point.lon, point.lat], gcoord.BD09, gcoord.BD09MC);
  return { x, y };
}

export function mercatorToBd09(x: number, y: number): LatLon {
  const [lon, lat] = gcoord.transform([x, y], gcoord.BD09MC, gcoord.BD09);
  return { lat, lon };
}

/** Great-circle distance in metres (haversine, mean Earth radius as Leaflet uses). */
export function distanceMetres(a: LatLon, b: LatLon): number {
  const R = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}
