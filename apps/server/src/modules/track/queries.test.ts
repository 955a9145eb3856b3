import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartitionManager } from '../../gateway/ingest/partitions.ts';
import { addDevice, newTerminalId } from '../../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { loadScaledTrack, unpackScaled } from './queries.ts';

const DAY = 86_400_000;

describe('packed track reads', () => {
  let server: TestServer;
  let deviceId: string;
  let otherId: string;
  const start = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;
  // Every 3 h 17 min 0.75 s over 20 days, on both sides of the equator and the meridian, with speeds and
  // courses that need rounding and one speed beyond the packed range.
  const fixes = Array.from({ length: 146 }, (_, i) => ({
    time: start + i * 11_820_750,
    lat: (i % 2 ? -1 : 1) * (33.123456 + i * 0.0001),
    lon: (i % 3 ? -1 : 1) * (151.654321 - i * 0.0001),
    speed: i === 7 ? 99_999 : (i * 7.6) % 250,
    course: (i * 37.5) % 360,
  }));

  beforeAll(async () => {
    server = await createTestServer();
    deviceId = await addDevice(server, newTerminalId('gt06'), 'gt06');
    otherId = await addDevice(server, newTerminalId('gt06'), 'gt06');
    const partitions = new PartitionManager(server.ctx.dbHandle.pool);
    await partitions.prepare();
    await partitions.ensure(Array.from({ length: 22 }, (_, d) => start + d * DAY));
    const rows = fixes.flatMap((f) => [
      {
        device_id: deviceId,
        time: new Date(f.time),
        lat: f.lat,
        lon: f.lon,
        speed: f.speed,
        course: f.course,
        valid: true,
      },
      { device_id: otherId, time: new Date(f.time), lat: 1, lon: 2, speed: 3, course: 4, valid: true },
    ]);
    rows.push({ device_id: deviceId, time: new Date(start + 1000), lat: 5, lon: 5, speed: 0, course: 0, valid: false });
    await server.ctx.db.insertInto('positions').values(rows).execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('gives the same whole numbers as reading the fixes one by one, over a range read in two halves', async () => {
    const pool = server.ctx.dbHandle.pool;
    const t = await loadScaledTrack(pool, deviceId, start, start + 20 * DAY);
    expect(t.count).toBe(fixes.length);
    const clamp = (v: number) => Math.max(0, Math.min(65535, v));
    // PostgreSQL's round() on floating point rounds ties to even here (rint); the old row-by-row read did too.
    const rint = (x: number) => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x));
    fixes.forEach((f, i) => {
      expect(t.times[i]).toBe(Math.floor(f.time / 1000));
      expect(t.lats[i]).toBe(rint(f.lat * 1e5));
      expect(t.lons[i]).toBe(rint(f.lon * 1e5));
      expect(t.speeds[i]).toBe(clamp(rint(Math.fround(f.speed))));
      expect(t.courses[i]).toBe(rint(Math.fround(f.course)));
    });
  });

  it('reads a sub-range and an empty range', async () => {
    const pool = server.ctx.dbHandle.pool;
    const part = await loadScaledTrack(pool, deviceId, fixes[10].time, fixes[20].time);
    expect(Array.from(part.times)).toEqual(fixes.slice(10, 21).map((f) => Math.floor(f.time / 1000)));
    const none = await loadScaledTrack(pool, deviceId, start - 10 * DAY, start - DAY);
    expect(none.count).toBe(0);
  });

  it('unpacks values and restores time order if the aggregate ever delivered them out of order', () => {
    const hex = (vals: [number, number, number, number, number][]) => {
      const b = Buffer.alloc(vals.length * 16);
      vals.forEach((v, i) => {
        b.writeInt32BE(v[0], i * 16);
        b.writeInt32BE(v[1], i * 16 + 4);
        b.writeInt32BE(v[2], i * 16 + 8);
        b.writeUInt16BE(v[3], i * 16 + 12);
        b.writeUInt16BE(v[4], i * 16 + 14);
      });
      return `\\x${b.toString('hex')}`;
    };
    const t = unpackScaled(
      hex([
        [20, -100, 200, 5, 359],
        [10, 300, -400, 65535, 0],
      ]),
      2,
      1_700_000_000,
    );
    expect(Array.from(t.times)).toEqual([1_700_000_010, 1_700_000_020]);
    expect(Array.from(t.lats)).toEqual([300, -100]);
    expect(Array.from(t.lons)).toEqual([-400, 200]);
    expect(Array.from(t.speeds)).toEqual([65535, 5]);
    expect(Array.from(t.courses)).toEqual([0, 359]);
    expect(() => unpackScaled(hex([[1, 2, 3, 4, 5]]), 2, 0)).toThrow(/16 bytes for 2 fixes/);
    expect(unpackScaled(null, 0, 0).count).toBe(0);
  });
});
