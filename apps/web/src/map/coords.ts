// Coordinate systems of the map providers (spec §1, DESIGN "Web"). Positions are stored in WGS-84; Chinese
// providers draw their tiles in GCJ-02 (AMap, Google and Bing road maps in China) or BD-09 (Baidu). The
// conversions are the domain's (packages/domain coords.ts, shared with the server's `coordType` answers); gcoord
// (pinned) remains for Baidu's planar Mercator grid. Outside China GCJ-02 and WGS-84 are the same.
import { type CoordSystem, convertCoords, type LatLon } from '@carhere/domain';
import gcoord from 'gcoord';

export type { CoordSystem, LatLon };

/** Converts a point between two systems; invalid input comes back unchanged. */
export function convert(point: LatLon, from: CoordSystem, to: CoordSystem): LatLon {
  return convertCoords(point, from, to);
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
