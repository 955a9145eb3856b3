import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { bd09ToMercator, convert, displayToWgs, distanceMetres, mercatorToBd09, wgsToDisplay } from './coords.ts';

// Reference values published with the coordtransform project (the widely used Chinese-map conversion
// formulas) for the point 116.404, 39.915.
const P = { lat: 39.915, lon: 116.404 };

describe('coordinate conversion', () => {
  it('WGS-84 → GCJ-02 matches the published reference', () => {
    const r = convert(P, 'wgs84', 'gcj02');
    expect(r.lon).toBeCloseTo(116.41024449916938, 9);
    expect(r.lat).toBeCloseTo(39.91640428150164, 9);
  });

  it('GCJ-02 → WGS-84 matches the published reference (to a few centimetres)', () => {
    const r = convert(P, 'gcj02', 'wgs84');
    expect(r.lon).toBeCloseTo(116.39775550083061, 6);
    expect(r.lat).toBeCloseTo(39.91359571849836, 6);
  });

  it('GCJ-02 ↔ BD-09 match the published references', () => {
    const bd = convert(P, 'gcj02', 'bd09');
    expect(bd.lon).toBeCloseTo(116.41036949371029, 9);
    expect(bd.lat).toBeCloseTo(39.92133699351021, 9);
    const gcj = convert(P, 'bd09', 'gcj02');
    expect(gcj.lon).toBeCloseTo(116.39762729119315, 9);
    expect(gcj.lat).toBeCloseTo(39.90865673957631, 9);
  });

  it('display and back returns the stored position within 1 m everywhere in China', () => {
    for (const point of [P, { lat: 31.23, lon: 121.47 }, { lat: 22.54, lon: 114.06 }, { lat: 43.8, lon: 87.6 }]) {
      for (const system of ['gcj02', 'bd09'] as const) {
        const shown = wgsToDisplay(point, system);
        expect(distanceMetres(shown, point)).toBeGreaterThan(100); // really shifted
        expect(distanceMetres(displayToWgs(shown, system), point)).toBeLessThan(1);
      }
    }
  });

  it('outside China GCJ-02 is WGS-84', () => {
    const paris = { lat: 48.8566, lon: 2.3522 };
    expect(wgsToDisplay(paris, 'gcj02')).toEqual(paris);
  });

  it('bad input comes back unchanged instead of throwing', () => {
    expect(convert({ lat: Number.NaN, lon: 1 }, 'wgs84', 'bd09').lon).toBe(1);
    expect(convert({ lat: 95, lon: 1 }, 'wgs84', 'gcj02')).toEqual({ lat: 95, lon: 1 });
  });

  it('BD-09 Mercator agrees with the ellipsoidal Mercator approximation to about a metre and inverts', () => {
    const approx = '+proj=merc +a=6378206 +b=6356584.314245179 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs';
    for (const point of [P, { lat: 31.23, lon: 121.47 }, { lat: 23.13, lon: 113.26 }]) {
      const mc = bd09ToMercator(point);
      const [x, y] = proj4(approx, [point.lon, point.lat]);
      expect(Math.abs(mc.x - x)).toBeLessThan(3);
      expect(Math.abs(mc.y - y)).toBeLessThan(3);
      const back = mercatorToBd09(mc.x, mc.y);
      expect(back.lat).toBeCloseTo(point.lat, 6);
      expect(back.lon).toBeCloseTo(point.lon, 6);
    }
  });

  it('haversine distance: one degree of latitude is about 111.2 km', () => {
    expect(distanceMetres({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195, -1);
  });
});

describe('one implementation (packages/domain) for server and web', () => {
  it('draws exactly as gcoord did, across China', async () => {
    const gcoord = (await import('gcoord')).default;
    const systems = { wgs84: gcoord.WGS84, gcj02: gcoord.GCJ02, bd09: gcoord.BD09 } as const;
    for (let lat = 18; lat <= 53; lat += 5) {
      for (let lon = 74; lon <= 134; lon += 6) {
        for (const from of ['wgs84', 'gcj02', 'bd09'] as const) {
          for (const to of ['wgs84', 'gcj02', 'bd09'] as const) {
            const ours = convert({ lat, lon }, from, to);
            const [gLon, gLat] = gcoord.transform([lon, lat], systems[from], systems[to]);
            expect(Math.abs(ours.lon - gLon), `${from}→${to} ${lat},${lon}`).toBeLessThan(1e-9);
            expect(Math.abs(ours.lat - gLat), `${from}→${to} ${lat},${lon}`).toBeLessThan(1e-9);
          }
        }
      }
    }
  });
});
