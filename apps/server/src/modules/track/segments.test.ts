import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestBatcher } from '../../gateway/ingest/batcher.ts';
import { PartitionManager } from '../../gateway/ingest/partitions.ts';
import { DeviceStateWriter } from '../../gateway/ingest/state-writer.ts';
import { SegmentJob } from '../../gateway/segment-job.ts';
import { addDevice, newTerminalId } from '../../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { decodeCompactTrack, encodeScaledTrack } from './compact.ts';
import { loadCompactTrack, mergeSegments, segmentOf, storeSegments } from './segments.ts';

const DAY = 86_400_000;

describe('track segments: join without re-encoding', () => {
  it('segments of any split merge into exactly the whole track’s encoding', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 100_000 }),
            fc.integer({ min: -9_000_000, max: 9_000_000 }),
            fc.integer({ min: -18_000_000, max: 18_000_000 }),
            fc.integer({ min: 0, max: 300 }),
            fc.integer({ min: 0, max: 359 }),
          ),
          { maxLength: 60 },
        ),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 5 }),
        (rows, cuts) => {
          let t = 1_700_000_000;
          const cols = {
            times: rows.map((r) => (t += r[0])),
            lats: rows.map((r) => r[1]),
            lons: rows.map((r) => r[2]),
            speeds: rows.map((r) => r[3]),
            courses: rows.map((r) => r[4]),
          };
          const bounds = [0, ...cuts.map((c) => Math.min(c, rows.length)).sort((a, b) => a - b), rows.length];
          const segments = bounds.slice(1).map((end, i) => segmentOf(cols, bounds[i], end));
          const merged = mergeSegments(segments);
          expect(merged.count).toBe(rows.length);
          if (rows.length > 0) expect(merged.compact).toEqual(encodeScaledTrack(cols));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('track segments: cache and invalidation', () => {
  let server: TestServer;
  let deviceId: string;
  let batcher: IngestBatcher;
  const start = Math.floor(Date.now() / DAY) * DAY - 5 * DAY; // five ended days ago, midnight UTC

  beforeAll(async () => {
    server = await createTestServer();
    deviceId = await addDevice(server, newTerminalId('gt06'), 'gt06');
    const pool = server.ctx.dbHandle.pool;
    const partitions = new PartitionManager(pool);
    await partitions.prepare();
    await partitions.ensure([start]);
    batcher = new IngestBatcher(pool, server.ctx.bus, partitions, new DeviceStateWriter(pool, server.ctx.bus, 60_000), {
      maxBatchRows: 5000,
      writers: 1,
      highWaterRows: 100_000,
    });
    // A fix every 10 minutes over four days and a half, and one invalid fix (not part of tracks).
    const rows = Array.from({ length: 648 }, (_, i) => ({
      device_id: deviceId,
      time: new Date(start + i * 600_000),
      lat: 39.9 + i * 1e-4,
      lon: 116.4,
      speed: i % 100,
      course: i % 360,
      valid: true,
    }));
    rows.push({
      device_id: deviceId,
      time: new Date(start + 300_000),
      lat: 1,
      lon: 1,
      speed: 0,
      course: 0,
      valid: false,
    });
    await server.ctx.db.insertInto('positions').values(rows).execute();
  });
  afterAll(async () => {
    await server.close();
  });

  const segmentsRows = () =>
    server.ctx.dbHandle.pool.query<{ day: string; version: number; has: boolean }>(
      'SELECT day::text AS day, version, data IS NOT NULL AS has FROM track_segments WHERE device_id = $1 ORDER BY day',
      [deviceId],
    );

  it('reads partial days from positions and whole ended days from segments it stores', async () => {
    const from = start + 3 * 3_600_000; // mid first day
    const to = start + 4 * DAY + 12 * 3_600_000 - 1;
    const t = await loadCompactTrack(server.ctx.dbHandle.pool, deviceId, from, to);
    const points = decodeCompactTrack(t.compact);
    expect(t.count).toBe(points.length);
    expect(points[0].time).toBe(from);
    expect(points.at(-1)?.time).toBe(start + 4 * DAY + 12 * 3_600_000 - 600_000);
    expect(points.every((p, i) => i === 0 || p.time - points[i - 1].time === 600_000)).toBe(true);
    const stored = await segmentsRows();
    expect(stored.rows.map((r) => [r.version, r.has])).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ]);
    // Read again: the same answer, now from the segments.
    expect(await loadCompactTrack(server.ctx.dbHandle.pool, deviceId, from, to)).toEqual(t);
  });

  it('a late fix for an ended day invalidates its segment in the batch transaction; the next read has it', async () => {
    const late = start + 2 * DAY + 300_000; // between two stored fixes of day 3
    batcher.submit({
      device: {
        id: deviceId,
        terminalId: 'x',
        protocol: 2,
        nbDeviceId: null,
        deviceType: 12,
        timeZone: 8,
        speedLimit: 120,
        path: '/1/2/',
        activated: true,
        deleted: false,
      },
      positions: [
        {
          time: late,
          lat: 40,
          lon: 117,
          altitude: 0,
          speed: 5,
          course: 5,
          valid: true,
          satellites: 5,
          locationType: 'gps',
          acc: true,
          mileage: null,
          battery: null,
        },
      ],
      alarms: [],
      status: null,
      receivedAt: Date.now(),
      done: null,
    });
    await batcher.flush();
    const rows = (await segmentsRows()).rows;
    const lateDay = new Date(late).toISOString().slice(0, 10);
    expect(rows.find((r) => r.day === lateDay)).toMatchObject({ version: 1, has: false });
    expect(rows.filter((r) => r.day !== lateDay).every((r) => r.version === 0 && r.has)).toBe(true);
    const t = await loadCompactTrack(server.ctx.dbHandle.pool, deviceId, start, start + 4 * DAY - 1);
    const points = decodeCompactTrack(t.compact);
    expect(points.some((p) => p.time === late && p.lat === 40)).toBe(true);
    expect(points.map((p) => p.time)).toEqual([...points.map((p) => p.time)].sort((a, b) => a - b));
    expect((await segmentsRows()).rows.every((r) => r.has)).toBe(true);
  });

  it('the daily job prepares yesterday’s segment for devices that reported since, once per day', async () => {
    const other = await addDevice(server, newTerminalId('jt808'), 'jt808');
    const day = start + 3 * DAY;
    await server.ctx.db
      .insertInto('positions')
      .values([{ device_id: other, time: new Date(day + 3_600_000), lat: 30, lon: 120, valid: true }])
      .execute();
    await server.ctx.db
      .insertInto('device_state')
      .values({ device_id: other, pos_time: new Date(day + DAY + 60_000), attributes: '{}' })
      .execute();
    const job = new SegmentJob(server.ctx.dbHandle.pool, 60_000, (err) => {
      throw err;
    });
    expect(await job.run(day + DAY + 3_600_000)).toBe(1);
    const row = await server.ctx.dbHandle.pool.query(
      'SELECT data FROM track_segments WHERE device_id = $1 AND day = $2',
      [other, new Date(day).toISOString().slice(0, 10)],
    );
    expect(row.rows[0].data).toMatchObject({ count: 1 });
    expect(await job.run(day + DAY + 7_200_000)).toBe(0);
  });

  it('does not store a segment computed from a version that changed meanwhile', async () => {
    const day = new Date(start + DAY).toISOString().slice(0, 10);
    await server.ctx.dbHandle.pool.query(
      'UPDATE track_segments SET version = 7, data = NULL WHERE device_id = $1 AND day = $2',
      [deviceId, day],
    );
    const stale = segmentOf({ times: [1], lats: [1], lons: [1], speeds: [1], courses: [1] }, 0, 1);
    await storeSegments(server.ctx.dbHandle.pool, deviceId, [{ day, version: 6, data: stale }]);
    const row = await server.ctx.dbHandle.pool.query(
      'SELECT data FROM track_segments WHERE device_id = $1 AND day = $2',
      [deviceId, day],
    );
    expect(row.rows[0].data).toBeNull();
    await storeSegments(server.ctx.dbHandle.pool, deviceId, [{ day, version: 7, data: stale }]);
    const again = await server.ctx.dbHandle.pool.query(
      'SELECT data FROM track_segments WHERE device_id = $1 AND day = $2',
      [deviceId, day],
    );
    expect(again.rows[0].data).toEqual(stale);
  });
});
