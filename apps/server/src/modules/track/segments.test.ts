import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestBatcher } from '../../gateway/ingest/batcher.ts';
import { PartitionManager } from '../../gateway/ingest/partitions.ts';
import { DeviceStateWriter } from '../../gateway/ingest/state-writer.ts';
import { addDevice, newTerminalId } from '../../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { decodeCompactTrack, encodeScaledTrack } from './compact.ts';
import { prepareSegments, requestLateRebuild } from './jobs.ts';
import { type LoadedScaledTrack, loadScaledTrack } from './queries.ts';
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

  /** The track of [from, to] encoded straight from positions, as if no segment existed. */
  async function straight(id: string, from: number, to: number) {
    return mergeSegments([segmentOfAll(await loadScaledTrack(server.ctx.dbHandle.pool, id, from, to))]);
  }
  const segmentOfAll = (c: LoadedScaledTrack) => segmentOf(c, 0, c.count);

  it('the day-close job builds the closed days of each device that reported; queries then read segments', async () => {
    const pool = server.ctx.dbHandle.pool;
    const other = await addDevice(server, newTerminalId('jt808'), 'jt808');
    const now = Date.now();
    // Every 30 minutes from three days and a half ago until now (today's fixes stay in positions).
    const from = Math.floor(now / DAY) * DAY - 3 * DAY - 12 * 3_600_000;
    const fixes = Array.from({ length: Math.floor((now - from) / 1_800_000) }, (_, i) => ({
      device_id: other,
      time: new Date(from + i * 1_800_000),
      lat: 30 + i * 1e-4,
      lon: 120,
      speed: i % 80,
      course: i % 360,
      valid: true,
    }));
    await server.ctx.db.insertInto('positions').values(fixes).execute();
    await server.ctx.db
      .insertInto('device_state')
      .values({ device_id: other, pos_time: fixes.at(-1)?.time, attributes: '{}' })
      .execute();
    const firstDay = new Date(from).toISOString().slice(0, 10);
    const yesterday = new Date(now - DAY).toISOString().slice(0, 10);
    const result = await prepareSegments(pool, { from: firstDay, to: yesterday }, now);
    expect(result.devices).toBeGreaterThanOrEqual(1);
    const rows = await pool.query<{ day: string; count: number | null }>(
      `SELECT day::text AS day, (data->>'count')::int AS count FROM track_segments WHERE device_id = $1 ORDER BY day`,
      [other],
    );
    // The four closed days (the first one partly covered), none for today; each the count of its fixes.
    expect(rows.rows.map((r) => r.day)).toEqual(
      [3, 2, 1, 0].map((d) => new Date(Math.floor(now / DAY) * DAY - (d + 1) * DAY).toISOString().slice(0, 10)),
    );
    for (const r of rows.rows) {
      const start = Date.parse(`${r.day}T00:00:00Z`);
      expect(r.count).toBe(fixes.filter((f) => f.time.getTime() >= start && f.time.getTime() < start + DAY).length);
    }
    const t = await loadCompactTrack(pool, other, from, now);
    expect(t).toEqual(await straight(other, from, now));
    expect(t.count).toBe(fixes.length);
  });

  it('late and out-of-order fixes in closed days: cleared with the commit, rebuilt by the queued job, track exact', async () => {
    const pool = server.ctx.dbHandle.pool;
    const jobs = server.ctx.services.jobs;
    if (!jobs) throw new Error('the test server runs the job queue');
    const requests: (string | null)[] = [];
    const lateBatcher = new IngestBatcher(
      pool,
      server.ctx.bus,
      new PartitionManager(pool),
      new DeviceStateWriter(pool, server.ctx.bus, 60_000),
      {
        maxBatchRows: 5000,
        writers: 1,
        highWaterRows: 100_000,
        segments: { onPastDays: () => void requestLateRebuild(jobs).then((id) => requests.push(id)) },
      },
    );
    const from = start;
    const to = start + 4 * DAY - 1;
    await loadCompactTrack(pool, deviceId, from, to); // every closed day has its segment
    const before = (await segmentsRows()).rows;
    expect(before.every((r) => r.has)).toBe(true);
    // One record whose fixes are out of time order: day 4 first, then day 2 between two stored fixes, then the
    // last second of day 1.
    const times = [start + 3 * DAY + 420_000, start + DAY + 7 * 600_000 + 1000, start + DAY - 1000];
    lateBatcher.submit({
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
      positions: times.map((time, i) => ({
        time,
        lat: 41 + i,
        lon: 118,
        altitude: 0,
        speed: 7,
        course: 7,
        valid: true,
        satellites: 5,
        locationType: 'gps',
        acc: true,
        mileage: null,
        battery: null,
      })),
      alarms: [],
      status: null,
      receivedAt: Date.now(),
      done: null,
    });
    await lateBatcher.flush();
    const touched = new Set(times.map((t) => new Date(t).toISOString().slice(0, 10)));
    const cleared = (await segmentsRows()).rows.filter((r) => !r.has).map((r) => r.day);
    expect(new Set(cleared)).toEqual(touched);
    // The job the batcher asked for builds them again, with no query in between.
    const deadline = Date.now() + 90_000;
    while ((await segmentsRows()).rows.some((r) => !r.has)) {
      if (Date.now() > deadline) throw new Error(`segments not rebuilt (requests: ${JSON.stringify(requests)})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(requests.length).toBeGreaterThan(0);
    const after = (await segmentsRows()).rows;
    for (const r of after) {
      const old = before.find((b) => b.day === r.day);
      if (touched.has(r.day)) expect(r.version).toBeGreaterThan(old?.version ?? -1);
      else expect(r.version).toBe(old?.version);
    }
    const t = await loadCompactTrack(pool, deviceId, from, to);
    expect(t).toEqual(await straight(deviceId, from, to));
    const points = decodeCompactTrack(t.compact);
    for (const time of times) expect(points.some((p) => p.time === time)).toBe(true);
    expect(points.map((p) => p.time)).toEqual([...points.map((p) => p.time)].sort((a, b) => a - b));
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
