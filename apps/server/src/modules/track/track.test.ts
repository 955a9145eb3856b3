import { convertCoords } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, demoClient, newTerminalId, userClient, waitFor } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { type CompactTrack, decodeCompactTrack } from './compact.ts';
import { LIST_LIMIT } from './routes.ts';

interface Track {
  deviceId: string;
  terminalID: string;
  count: number;
  format: 'list' | 'compact';
  points?: { time: string; lat: number; lon: number; speed: number; course: number }[];
  compact?: CompactTrack;
}

const DAY = 86_400_000;

describe('/api/track', () => {
  let server: TestServer;
  let demo: ApiClient;
  const start = Date.UTC(2026, 9, 1);
  let small: string;
  let long: string;
  let foreign: string;

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    small = newTerminalId('gt06');
    long = newTerminalId('jt808');
    foreign = newTerminalId('gt06');
    const smallId = await addDevice(server, small, 'gt06');
    const longId = await addDevice(server, long, 'jt808');
    await addDevice(server, foreign, 'gt06', { userId: '1' });
    // Inserted out of order, with invalid fixes in between: the answer is time-ordered and valid only.
    const rows = [];
    for (let i = 9; i >= 0; i--) {
      rows.push({
        device_id: smallId,
        time: new Date(start + i * 60_000),
        lat: 39.9 + i * 0.001,
        lon: 116.4,
        speed: 10 + i,
        course: i * 10,
        valid: true,
      });
      rows.push({ device_id: smallId, time: new Date(start + i * 60_000 + 30_000), lat: 1, lon: 1, valid: false });
    }
    await server.ctx.db.insertInto('positions').values(rows).execute();
    const many = Array.from({ length: LIST_LIMIT + 500 }, (_, i) => ({
      device_id: longId,
      time: new Date(start + i * 10_000),
      lat: 39.9 + Math.sin(i / 50) * 0.01,
      lon: 116.4 + Math.cos(i / 50) * 0.01,
      speed: i % 90,
      course: i % 360,
      valid: true,
    }));
    for (let i = 0; i < many.length; i += 1000)
      await server.ctx.db
        .insertInto('positions')
        .values(many.slice(i, i + 1000))
        .execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('returns valid fixes in time order, as a list for short tracks', async () => {
    const res = await demo.post<Track[]>('/track/find', {
      terminalIDs: [small],
      startTime: start,
      endTime: new Date(start + DAY).toISOString(),
    });
    expect(res.meta.success).toBe(true);
    const [t] = res.data;
    expect(t).toMatchObject({ terminalID: small, count: 10, format: 'list' });
    const times = t.points!.map((p) => Date.parse(p.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(t.points![0]).toEqual({ time: new Date(start).toISOString(), lat: 39.9, lon: 116.4, speed: 10, course: 0 });
    const window = await demo.post<Track[]>('/track/find', {
      terminalIDs: [small],
      startTime: start + 120_000,
      endTime: start + 240_000,
    });
    expect(window.data[0].count).toBe(3);
  });

  it('switches to the compact encoding above the list limit, and it decodes to the same fixes', async () => {
    const res = await demo.post<Track[]>('/track/find', {
      terminalIDs: [long, small],
      startTime: start,
      endTime: start + 2 * DAY,
    });
    const [t, s] = res.data;
    expect(t.format).toBe('compact');
    expect(t.count).toBe(LIST_LIMIT + 500);
    const points = decodeCompactTrack(t.compact!);
    expect(points).toHaveLength(t.count);
    expect(points[0].time).toBe(start);
    expect(points[123].time).toBe(start + 123 * 10_000);
    expect(points[123].lat).toBeCloseTo(39.9 + Math.sin(123 / 50) * 0.01, 5);
    expect(points[123].speed).toBe(123 % 90);
    expect(s.format).toBe('list');
    // The two ended days' segments are stored after the answer; the same query then reads them.
    const stored = await waitFor(
      async () => {
        const r = await server.ctx.dbHandle.pool.query<{ day: string }>(
          `SELECT day::text AS day FROM track_segments t JOIN devices d ON d.id = t.device_id
          WHERE d.terminal_id = $1 AND t.data IS NOT NULL ORDER BY day`,
          [long],
        );
        return r.rows.length === 2 ? r.rows : null;
      },
      10_000,
      'stored day segments',
    );
    expect(stored.map((r) => r.day)).toEqual(['2026-10-01', '2026-10-02']);
    const again = await demo.post<Track[]>('/track/find', {
      terminalIDs: [long],
      startTime: start,
      endTime: start + 2 * DAY,
    });
    expect(again.data[0]).toEqual(t);
    const asked = await demo.get<Track>(
      `/track/findByTerminalID?terminalID=${small}&startTime=${start}&endTime=${start + DAY}&format=compact`,
    );
    expect(asked.data.format).toBe('compact');
    expect(decodeCompactTrack(asked.data.compact!).map((p) => p.speed)).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ]);
  });

  it('coordType converts list and compact tracks (default WGS-84)', async () => {
    const body = { terminalIDs: [small], startTime: start, endTime: start + DAY };
    const wgs = await demo.post<Track[]>('/track/find', body);
    const gcj = await demo.post<Track[]>('/track/find', { ...body, coordType: 'gcj02' });
    const points = wgs.data[0].points ?? [];
    expect(points).toHaveLength(10);
    (gcj.data[0].points ?? []).forEach((p, i) => {
      const want = convertCoords(points[i], 'wgs84', 'gcj02');
      expect(p.lat).toBeCloseTo(want.lat, 9);
      expect(p.lon).toBeCloseTo(want.lon, 9);
      expect(Math.abs(p.lon - points[i].lon)).toBeGreaterThan(0.005);
    });
    const compactBody = { terminalID: long, startTime: start, endTime: start + DAY, format: 'compact' };
    const plain = await demo.post<Track>('/track/findByTerminalID', compactBody);
    const inBd = await demo.post<Track>('/track/findByTerminalID', { ...compactBody, coordType: 'bd09' });
    const a = decodeCompactTrack(plain.data.compact as CompactTrack);
    const b = decodeCompactTrack(inBd.data.compact as CompactTrack);
    expect(b).toHaveLength(a.length);
    for (let i = 0; i < a.length; i += 97) {
      const want = convertCoords(a[i], 'wgs84', 'bd09');
      expect(Math.abs(b[i].lat - want.lat)).toBeLessThan(1.1e-5);
      expect(Math.abs(b[i].lon - want.lon)).toBeLessThan(1.1e-5);
      expect([b[i].time, b[i].speed, b[i].course]).toEqual([a[i].time, a[i].speed, a[i].course]);
    }
    const bad = await demo.post('/track/find', { ...body, coordType: 'wgs' });
    expect(bad.status).toBe(400);
  });

  it('findByTerminalID answers by GET and POST', async () => {
    const body = { terminalID: small, startTime: start, endTime: start + DAY };
    const post = await demo.post<Track>('/track/findByTerminalID', body);
    expect(post.data.count).toBe(10);
    const get = await demo.get<Track>(
      `/track/findByTerminalID?terminalID=${small}&startTime=${new Date(start).toISOString()}&endTime=${start + DAY}`,
    );
    expect(get.data.points).toEqual(post.data.points);
  });

  it('enforces at most 90 days and 5 devices (spec §5)', async () => {
    const ninetyOne = await demo.post('/track/find', {
      terminalIDs: [small],
      startTime: start,
      endTime: start + 91 * DAY,
    });
    expect(ninetyOne.status).toBe(400);
    expect(ninetyOne.meta.message).toBe('A track query cannot span more than 90 days');
    const ninety = await demo.post('/track/find', {
      terminalIDs: [small],
      startTime: start,
      endTime: start + 90 * DAY,
    });
    expect(ninety.status).toBe(200);
    const six = await demo.post('/track/find', {
      terminalIDs: [small, small, small, small, small, small],
      startTime: start,
      endTime: start + DAY,
    });
    expect(six.status).toBe(400);
    expect(six.meta.message).toBe('At most 5 devices at once');
    const reversed = await demo.post('/track/find', { terminalIDs: [small], startTime: start + DAY, endTime: start });
    expect(reversed.status).toBe(400);
  });

  it('refuses devices out of reach, roles without main:track, and bad input', async () => {
    expect(
      (await demo.post('/track/find', { terminalIDs: [foreign], startTime: start, endTime: start + DAY })).status,
    ).toBe(403);
    const logUser = await userClient(server, 'track-log-user', 8);
    expect(
      (await logUser.post('/track/find', { terminalIDs: [small], startTime: start, endTime: start + DAY })).status,
    ).toBe(403);
    expect(
      (await demo.post('/track/find', { terminalIDs: [small], startTime: 'yesterday', endTime: start })).status,
    ).toBe(400);
    expect((await demo.get('/track/findByTerminalID?terminalID=1')).status).toBe(400);
  });

  it('refuses the track of an expired device with the spec message, by both calls', async () => {
    const tid = newTerminalId('gt06');
    const id = await addDevice(server, tid, 'gt06');
    await server.ctx.db
      .insertInto('positions')
      .values({ device_id: id, time: new Date(start), lat: 39.9, lon: 116.4, valid: true })
      .execute();
    const ok = await demo.post<Track[]>('/track/find', { terminalIDs: [tid], startTime: start, endTime: start + DAY });
    expect(ok.data[0].count).toBe(1);
    await server.ctx.db
      .updateTable('devices')
      .set({ platform_expire_at: new Date(Date.now() - 1000), expire_manual: true })
      .where('id', '=', id)
      .execute();
    const expired = "The device has expired, please contact the device's service provider!";
    const both = await demo.post('/track/find', { terminalIDs: [small, tid], startTime: start, endTime: start + DAY });
    expect(both.status).toBe(400);
    expect(both.meta.message).toBe(expired);
    const one = await demo.get(`/track/findByTerminalID?terminalID=${tid}&startTime=${start}&endTime=${start + DAY}`);
    expect(one.meta.message).toBe(expired);
    // The other devices' tracks are unaffected.
    expect(
      (await demo.post<Track[]>('/track/find', { terminalIDs: [small], startTime: start, endTime: start + DAY }))
        .data[0].count,
    ).toBe(10);
  });
});
