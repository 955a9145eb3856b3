// Leaflet CRSs whose lat/lng are WGS-84 while the tiles are in GCJ-02 or BD-09: the shift to the provider's
// system happens inside the projection, so every layer (markers, tracks, fences, the distance tool, drawn
// shapes) works in stored WGS-84 coordinates and never converts by hand. Distances stay haversine on WGS-84.
import L from 'leaflet';
import { bd09ToMercator, type CoordSystem, convert, mercatorToBd09 } from './coords.ts';

/** Memo of the last projected point: marker clusters project one position at every zoom level in a row. */
function memoProject(project: (lat: number, lng: number) => L.Point): (latlng: L.LatLng) => L.Point {
  let lastLat = Number.NaN;
  let lastLng = Number.NaN;
  let last = new L.Point(0, 0);
  return (latlng) => {
    if (latlng.lat !== lastLat || latlng.lng !== lastLng) {
      lastLat = latlng.lat;
      lastLng = latlng.lng;
      last = project(latlng.lat, latlng.lng);
    }
    return last.clone();
  };
}

const sphericalMercator = L.Projection.SphericalMercator;
const MAX_MERCATOR_LAT = 85.0511287798;

/** Web Mercator over GCJ-02: tiles of AMap, Google and Bing road maps in China. */
export const gcj02Projection: L.Projection = {
  bounds: sphericalMercator.bounds,
  project: memoProject((lat, lng) => {
    const clamped = Math.max(Math.min(MAX_MERCATOR_LAT, lat), -MAX_MERCATOR_LAT);
    const shifted = convert({ lat: clamped, lon: lng }, 'wgs84', 'gcj02');
    return sphericalMercator.project(new L.LatLng(shifted.lat, shifted.lon));
  }),
  unproject(point: L.Point): L.LatLng {
    const gcj = sphericalMercator.unproject(point);
    const wgs = convert({ lat: gcj.lat, lon: gcj.lng }, 'gcj02', 'wgs84');
    return new L.LatLng(wgs.lat, wgs.lon);
  },
};

/** Baidu's planar metres (BD-09 Mercator) of a WGS-84 point. */
const BAIDU_MAX_LAT = 74;
export const bd09Projection: L.Projection = {
  bounds: L.bounds([-20037726.37, -12474104.17], [20037726.37, 12474104.17]),
  project: memoProject((lat, lng) => {
    const clamped = Math.max(Math.min(BAIDU_MAX_LAT, lat), -BAIDU_MAX_LAT);
    const { x, y } = bd09ToMercator(convert({ lat: clamped, lon: lng }, 'wgs84', 'bd09'));
    return new L.Point(x, y);
  }),
  unproject(point: L.Point): L.LatLng {
    const bd = mercatorToBd09(point.x, point.y);
    const wgs = convert(bd, 'bd09', 'wgs84');
    return new L.LatLng(wgs.lat, wgs.lon);
  },
};

/**
 * Baidu's tile scheme: at zoom z one pixel is 2^(18-z) BD-09 Mercator metres, the tile grid starts at the
 * projection's origin and Baidu counts tile rows upwards (see BaiduTileLayer for the row flip).
 */
export const baiduCrs: L.CRS = L.extend({}, L.CRS.Earth, {
  code: 'CARHERE:BD09',
  projection: bd09Projection,
  transformation: new L.Transformation(1, 0, -1, 0),
  scale: (zoom: number) => 2 ** (zoom - 18),
  zoom: (scale: number) => Math.log2(scale) + 18,
  infinite: true,
  wrapLng: undefined,
}) as L.CRS;

/** Leaflet's EPSG:3857 transformation, over the sphere of radius 6378137 m. */
const mercatorScale = 0.5 / (Math.PI * 6378137);
export const gcj02Crs: L.CRS = L.extend({}, L.CRS.EPSG3857, {
  code: 'CARHERE:GCJ02',
  projection: gcj02Projection,
  transformation: new L.Transformation(mercatorScale, 0.5, -mercatorScale, 0.5),
}) as L.CRS;

export type TileScheme = 'baidu' | 'webMercator' | 'ellipticalMercator';

/** The CRS for a provider's coordinate system and tile scheme. */
export function crsFor(system: CoordSystem, scheme: TileScheme): L.CRS {
  if (scheme === 'baidu') return baiduCrs;
  if (scheme === 'ellipticalMercator') return L.CRS.EPSG3395;
  return system === 'gcj02' ? gcj02Crs : L.CRS.EPSG3857;
}
