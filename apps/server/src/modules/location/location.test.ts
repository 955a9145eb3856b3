import { convertCoords } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, adminClient, demoClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';

interface Location {
  deviceId: string;
  terminalID: string;
  online: boolean;
  lat: number | null;
  lon: number | null;
  mapState: number;
  runState: number;
  utcTime: string | null;
  displayName: string;
  state: string;
  expire: string | null;
  activatedAt: string | null;
  carNumber: string;
  nickname: string;
  telephone: string;
  iconType: number;
  userId: string | null;
  username: string | null;
  carIconState: string;
}

describe('/api/location', () => {
  let server: TestServer;
  let demo: ApiClient;
  let admin: ApiClient;
  const now = Date.now();
  let moving: string;
  let parked: string;
  let neverSeen: string;
  let adminOwn: string;
  let silent: string;
  let movingId: string;

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    admin = await adminClient(server);
    moving = newTerminalId('gt06');
    parked = newTerminalId('jt808');
    neverSeen = newTerminalId('gt06');
    adminOwn = newTerminalId('gt06');
    silent = newTerminalId('jt808');
    movingId = await addDevice(server, moving, 'gt06');
    const parkedId = await addDevice(server, parked, 'jt808');
    await addDevice(server, neverSeen, 'gt06');
    const adminId = await addDevice(server, adminOwn, 'gt06', { userId: '1' });
    const silentId = await addDevice(server, silent, 'jt808');
    // Activated, expired (the earlier of the two expiries counts) and never sent anything.
    await server.ctx.db
      .updateTable('devices')
      .set({
        activated_at: new Date(now - 400 * 86_400_000),
        platform_expire_at: new Date(now - 86_400_000),
        user_expire_at: new Date(now + 86_400_000),
        nickname: 'Silent van',
        sim: '13800000000',
        icon_type: 3,
      })
      .where('id', '=', silentId)
      .execute();
    await server.ctx.db
      .updateTable('devices')
      .set({ activated_at: new Date(now - 86_400_000), car_number: '京A12345' })
      .where('id', '=', movingId)
      .execute();
    await server.ctx.db
      .updateTable('devices')
      .set({ activated_at: new Date(now - 86_400_000) })
      .where('id', 'in', [parkedId, adminId])
      .execute();
    const state = (id: string, online: boolean, lat: number, lon: number, speed: number) => ({
      device_id: id,
      online,
      state_time: new Date(now - 60_000),
      last_seen: new Date(now - 5_000),
      pos_time: new Date(now - 5_000),
      lat,
      lon,
      speed,
      course: 90,
      valid: true,
      attributes: '{}',
    });
    await server.ctx.db
      .insertInto('device_state')
      .values([
        state(movingId, true, 39.91, 116.4, 45),
        state(parkedId, false, 31.23, 121.47, 0),
        state(adminId, true, 39.92, 116.41, 130),
      ])
      .execute();
    const positions = [
      { device_id: movingId, time: new Date(now - 3_600_000), lat: 39.95, lon: 116.35, valid: true },
      { device_id: movingId, time: new Date(now - 3_500_000), lat: 39.96, lon: 116.36, valid: true },
      { device_id: parkedId, time: new Date(now - 3_600_000), lat: 31.23, lon: 121.47, valid: true },
    ];
    await server.ctx.db.insertInto('positions').values(positions).execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('find: last positions by IMEI list (object or bare array) with map and run states', async () => {
    const res = await demo.post<Location[]>('/location/find', { terminalIDs: [moving, parked, neverSeen] });
    expect(res.meta.success).toBe(true);
    expect(res.data.map((l) => l.terminalID)).toEqual([moving, parked, neverSeen]);
    const [m, p, n] = res.data;
    expect(m).toMatchObject({ online: true, lat: 39.91, mapState: 1, runState: 1, displayName: '京A12345' });
    expect(p).toMatchObject({ online: false, mapState: 5 });
    expect(n).toMatchObject({ online: false, lat: null, utcTime: null });
    const bare = await demo.post<Location[]>('/location/find', [moving]);
    expect(bare.data[0].deviceId).toBe(movingId);
    const overspeed = await admin.post<Location[]>('/location/find', [adminOwn]);
    expect(overspeed.data[0].mapState).toBe(3);
  });

  it('coordType: positions in WGS-84 by default, GCJ-02 or BD-09 on request (find, findV2, findArea)', async () => {
    const wgs = { lat: 39.91, lon: 116.4 };
    const gcj = convertCoords(wgs, 'wgs84', 'gcj02');
    const bd = convertCoords(wgs, 'wgs84', 'bd09');
    // GCJ-02 and BD-09 are hundreds of metres off WGS-84 in Beijing: the conversions really happen.
    expect(Math.abs(gcj.lon - wgs.lon)).toBeGreaterThan(0.005);
    expect(Math.abs(bd.lat - wgs.lat)).toBeGreaterThan(0.005);
    const plain = await demo.post<Location[]>('/location/find', { terminalIDs: [moving] });
    expect(plain.data[0]).toMatchObject(wgs);
    const inGcj = await demo.post<Location[]>('/location/find', {
      terminalIDs: [moving, neverSeen],
      coordType: 'gcj02',
    });
    expect(inGcj.data[0].lat).toBeCloseTo(gcj.lat, 9);
    expect(inGcj.data[0].lon).toBeCloseTo(gcj.lon, 9);
    expect(inGcj.data[1]).toMatchObject({ lat: null, lon: null });
    const bare = await demo.post<Location[]>('/location/find?coordType=bd09', [moving]);
    expect(bare.data[0].lat).toBeCloseTo(bd.lat, 9);
    expect(bare.data[0].lon).toBeCloseTo(bd.lon, 9);
    const v2 = await demo.post<{ list: Location[] }>('/location/findV2', { online: true, coordType: 'bd09' });
    expect(v2.data.list[0].lon).toBeCloseTo(bd.lon, 9);
    const area = await demo.post<{ list: { terminalID: string; lat: number; lon: number }[] }>('/location/findArea', {
      minLat: 39.9,
      maxLat: 39.92,
      minLon: 116.39,
      maxLon: 116.41,
      coordType: 'gcj02',
    });
    const hit = area.data.list.find((h) => h.terminalID === moving);
    expect(hit?.lat).toBeCloseTo(gcj.lat, 9);
    const bad = await demo.post('/location/find', { terminalIDs: [moving], coordType: 'mercator' });
    expect(bad.status).toBe(400);
  });

  it('findV2: the devices of a user in reach, online filter, paging', async () => {
    const mine = await demo.post<{ total: number; list: Location[] }>('/location/findV2', {});
    expect(mine.data.total).toBe(4);
    expect(mine.data.list[0].online).toBe(true);
    const online = await demo.post<{ total: number; list: Location[] }>('/location/findV2', { online: true });
    expect(online.data.list.map((l) => l.terminalID)).toEqual([moving]);
    const ofDemo = await admin.post<{ total: number }>('/location/findV2', { userId: 2 });
    expect(ofDemo.data.total).toBe(4);
    const all = await admin.post<{ total: number }>('/location/findV2', { children: true });
    expect(all.data.total).toBe(5);
    const page = await demo.post<{ total: number; list: Location[] }>('/location/findV2', { pageSize: 1, pageNum: 2 });
    expect(page.data.total).toBe(4);
    expect(page.data.list).toHaveLength(1);
  });

  it('findV2: the device list fields (state, expiry, names, owner) come from the device, not from its last fix', async () => {
    const res = await demo.post<{ total: number; list: Location[] }>('/location/findV2', {});
    const by = new Map(res.data.list.map((l) => [l.terminalID, l]));
    expect(by.get(moving)).toMatchObject({
      state: 'zx',
      expire: null,
      carNumber: '京A12345',
      nickname: '',
      userId: '2',
      username: 'demo',
      carIconState: 'moving',
    });
    expect(by.get(moving)?.activatedAt).toBe(new Date(now - 86_400_000).toISOString());
    expect(by.get(parked)).toMatchObject({ state: 'lx', carIconState: 'offline', mapState: 5 });
    // Never activated and never online: not activated.
    expect(by.get(neverSeen)).toMatchObject({ state: 'wjh', activatedAt: null, utcTime: null, lastSeen: null });
    // Activated but silent: offline (not 'not activated'), and expired by its platform expiry.
    expect(by.get(silent)).toMatchObject({
      state: 'lx',
      utcTime: null,
      lastSeen: null,
      expire: new Date(now - 86_400_000).toISOString(),
      nickname: 'Silent van',
      displayName: 'Silent van',
      telephone: '13800000000',
      iconType: 3,
      carIconState: 'expired',
      mapState: 6,
    });
    // The same fields on /location/find.
    const found = await demo.post<Location[]>('/location/find', [silent]);
    expect(found.data[0]).toMatchObject({ state: 'lx', nickname: 'Silent van', carIconState: 'expired' });
  });

  it('findArea: now by last position, and during a time window by stored fixes', async () => {
    const box = { minLat: 39.8, maxLat: 40.0, minLon: 116.3, maxLon: 116.5 };
    const nowHits = await demo.post<{ list: { terminalID: string }[] }>('/location/findArea', box);
    expect(nowHits.data.list.map((h) => h.terminalID)).toEqual([moving]);
    const adminHits = await admin.post<{ list: { terminalID: string }[] }>('/location/findArea', { ...box, userId: 1 });
    expect(adminHits.data.list.map((h) => h.terminalID).sort()).toEqual([moving, adminOwn].sort());
    const past = await demo.post<{ list: { terminalID: string; points: number; firstTime: string }[] }>(
      '/location/findArea',
      {
        ...box,
        startTime: now - 7_200_000,
        endTime: now,
      },
    );
    expect(past.data.list).toEqual([
      expect.objectContaining({ terminalID: moving, points: 2, firstTime: new Date(now - 3_600_000).toISOString() }),
    ]);
    const tooLong = await demo.post('/location/findArea', { ...box, startTime: now - 3 * 86_400_000, endTime: now });
    expect(tooLong.status).toBe(400);
  });

  it('refuses devices and users out of reach, roles without the permission, and bad input', async () => {
    expect((await demo.post('/location/find', [adminOwn])).status).toBe(403);
    expect((await demo.post('/location/findV2', { userId: 1 })).status).toBe(403);
    const logUser = await userClient(server, 'loc-log-user', 8);
    expect((await logUser.post('/location/find', [moving])).status).toBe(403);
    expect((await demo.post('/location/find', { terminalIDs: [] })).status).toBe(400);
    expect((await demo.post('/location/find', { terminalIDs: ['12;DROP'] })).status).toBe(400);
    expect((await demo.post('/location/findArea', { minLat: 40, maxLat: 39, minLon: 116, maxLon: 117 })).status).toBe(
      400,
    );
  });
});
