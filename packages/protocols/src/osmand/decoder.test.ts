// The OsmAnd vectors (fixtures/osmand/vectors.json): each query or JSON body decodes to its expected report.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeOsmandJson, decodeOsmandParams, type OsmandDecodeResult, osmandTime } from './decoder.ts';

interface Vector {
  name: string;
  query?: string;
  json?: unknown;
  expected?: {
    terminalId: string;
    position: Record<string, unknown> | null;
    attributes: Record<string, unknown>;
  };
  error?: string;
}

const file = JSON.parse(readFileSync(new URL('../../fixtures/osmand/vectors.json', import.meta.url), 'utf8')) as {
  now: string;
  vectors: Vector[];
};
const now = Date.parse(file.now);

function decode(v: Vector): OsmandDecodeResult {
  if (v.query !== undefined) return decodeOsmandParams(Object.fromEntries(new URLSearchParams(v.query)), now);
  return decodeOsmandJson(v.json, now);
}

describe('OsmAnd vectors', () => {
  it('has vectors of both forms', () => {
    expect(file.vectors.filter((v) => v.query !== undefined).length).toBeGreaterThan(4);
    expect(file.vectors.filter((v) => v.json !== undefined).length).toBeGreaterThan(2);
  });

  for (const v of file.vectors) {
    it(v.name, () => {
      const r = decode(v);
      if (v.error) {
        expect(r).toEqual({ ok: false, error: v.error });
        return;
      }
      if (!r.ok) throw new Error(`refused: ${r.error}`);
      const want = v.expected!;
      expect(r.report.terminalId).toBe(want.terminalId);
      expect(r.report.attributes).toEqual(want.attributes);
      if (want.position === null) {
        expect(r.report.position).toBeNull();
        return;
      }
      const p = r.report.position!;
      expect({
        time: p.time.toISOString(),
        lat: p.lat,
        lon: p.lon,
        speedKmh: p.speedKmh,
        course: p.course,
        altitude: p.altitude,
        valid: p.valid,
      }).toEqual(want.position);
      expect(p.attributes).toMatchObject({ ...want.attributes, locationType: 'gps' });
    });
  }
});

describe('osmandTime', () => {
  it('reads a zoneless date-time as UTC whatever the host zone', () => {
    expect(new Date(osmandTime('2026-11-27 04:00:00')).toISOString()).toBe('2026-11-27T04:00:00.000Z');
  });
  it('refuses what is no time', () => {
    expect(osmandTime('')).toBeNaN();
    expect(osmandTime('27/11/2026')).toBeNaN();
  });
});
