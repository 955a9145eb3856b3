import { describe, expect, it } from 'vitest';
import { convertCoords, wgsTo } from './coords.ts';

// Reference values published with the coordtransform project (the widely used Chinese-map conversion formulas)
// for the point 116.404, 39.915.
const P = { lat: 39.915, lon: 116.404 };

describe('convertCoords', () => {
  it('WGS-84 → GCJ-02 and GCJ-02 ↔ BD-09 match the published references', () => {
    const gcj = convertCoords(P, 'wgs84', 'gcj02');
    expect(gcj.lon).toBeCloseTo(116.41024449916938, 9);
    expect(gcj.lat).toBeCloseTo(39.91640428150164, 9);
    const bd = convertCoords(P, 'gcj02', 'bd09');
    expect(bd.lon).toBeCloseTo(116.41036949371029, 9);
    expect(bd.lat).toBeCloseTo(39.92133699351021, 9);
    const back = convertCoords(P, 'bd09', 'gcj02');
    expect(back.lon).toBeCloseTo(116.39762729119315, 9);
    expect(back.lat).toBeCloseTo(39.90865673957631, 9);
  });

  it('GCJ-02 → WGS-84 matches the reference to centimetres; round trips come back within 1e-6°', () => {
    const wgs = convertCoords(P, 'gcj02', 'wgs84');
    expect(wgs.lon).toBeCloseTo(116.39775550083061, 6);
    expect(wgs.lat).toBeCloseTo(39.91359571849836, 6);
    for (const system of ['gcj02', 'bd09'] as const) {
      const shown = convertCoords(P, 'wgs84', system);
      const again = convertCoords(shown, system, 'wgs84');
      expect(Math.abs(again.lat - P.lat)).toBeLessThan(2e-6);
      expect(Math.abs(again.lon - P.lon)).toBeLessThan(2e-6);
    }
  });

  it('WGS-84 → BD-09 goes through GCJ-02', () => {
    const direct = convertCoords(P, 'wgs84', 'bd09');
    const twoSteps = convertCoords(convertCoords(P, 'wgs84', 'gcj02'), 'gcj02', 'bd09');
    expect(direct).toEqual(twoSteps);
  });

  it('outside China GCJ-02 is WGS-84; bad input comes back unchanged; null coordinates stay null', () => {
    const paris = { lat: 48.8566, lon: 2.3522 };
    expect(convertCoords(paris, 'wgs84', 'gcj02')).toEqual(paris);
    expect(convertCoords({ lat: 95, lon: 1 }, 'wgs84', 'gcj02')).toEqual({ lat: 95, lon: 1 });
    expect(wgsTo({ lat: null, lon: null, id: 1 }, 'bd09')).toEqual({ lat: null, lon: null, id: 1 });
    expect(wgsTo({ ...P, id: 1 }, 'wgs84')).toEqual({ ...P, id: 1 });
  });
});
