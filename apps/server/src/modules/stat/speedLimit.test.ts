// A device's speed limit: read and set through the API (permission, hierarchy, bad input), and the ingest's
// overspeed alarm over TCP follows it with the 10-second rule (spec §9, issue 13).
import type { Fix } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

describe('per-device speed limit', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  let agent: ApiClient;
  let logUser: ApiClient;
  const tid = newTerminalId('gt06');
  const foreign = newTerminalId('gt06');
  let deviceId: string;

  beforeAll(async () => {
    server = await createGatewayTestServer({ statsRollupDelaySeconds: 0 });
    demo = await demoClient(server);
    agent = await userClient(server, 'limit-agent', 2);
    logUser = await userClient(server, 'limit-log', 8);
    const agentRow = await server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'limit-agent')
      .executeTakeFirstOrThrow();
    deviceId = await addDevice(server, tid, 'gt06');
    await addDevice(server, foreign, 'gt06', { userId: String(agentRow.id) });
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it('reads the default, sets a new limit, refuses bad input, other trees and roles without the permission', async () => {
    const read = await demo.post<{ speedLimit: number; defaultSpeedLimit: number }>('/device/speedLimit', {
      terminalID: tid,
    });
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ terminalID: tid, speedLimit: 120, defaultSpeedLimit: 120, overspeedSeconds: 10 });
    expect((await demo.post('/device/updateSpeedLimit', { terminalID: tid, speedLimit: 5 })).status).toBe(400);
    expect((await demo.post('/device/updateSpeedLimit', { terminalID: tid, speedLimit: 301 })).status).toBe(400);
    expect((await demo.post('/device/updateSpeedLimit', { speedLimit: 80 })).status).toBe(400);
    expect((await demo.post('/device/updateSpeedLimit', { terminalID: foreign, speedLimit: 80 })).status).toBe(403);
    expect((await demo.post('/device/speedLimit', { terminalID: foreign })).status).toBe(403);
    expect((await agent.post('/device/speedLimit', { terminalID: tid })).status).toBe(403);
    expect((await logUser.post('/device/speedLimit', { terminalID: tid })).status).toBe(403);
    expect((await logUser.post('/device/updateSpeedLimit', { terminalID: tid, speedLimit: 80 })).status).toBe(403);
    const set = await demo.post<{ speedLimit: number }>('/device/updateSpeedLimit', { deviceId, speedLimit: 80 });
    expect(set.status).toBe(200);
    expect(set.data.speedLimit).toBe(80);
    const again = await demo.post<{ speedLimit: number }>('/device/speedLimit', { deviceId });
    expect(again.data.speedLimit).toBe(80);
  });

  it('the ingest raises overspeed over the device’s limit only after 10 s above it', async () => {
    // The limit is 80 now (the test above): 100 km/h for 6 s is not an event, 100 km/h for 14 s is one.
    const t0 = Math.floor((Date.now() - 600_000) / 1000) * 1000; // GT06 times are whole seconds
    const fix = (s: number, speed: number): Fix => ({
      time: t0 + s * 1000,
      lat: 22.5,
      lon: 114 + s * 0.0003,
      speed,
      course: 90,
      altitude: 0,
      satellites: 9,
      mileage: 0,
      acc: true,
      battery: 80,
    });
    const fixes: Fix[] = [];
    for (let s = 0; s <= 6; s += 2) fixes.push(fix(s, 100)); // 6 s above
    for (let s = 8; s <= 12; s += 2) fixes.push(fix(s, 60));
    for (let s = 14; s <= 28; s += 2) fixes.push(fix(s, 100)); // 14 s above: established at s = 24
    for (let s = 30; s <= 34; s += 2) fixes.push(fix(s, 119)); // above 80, still the same event
    const sim = simulatedDevice(server.gateway, 'gt06', tid);
    await sim.connect();
    for (const f of fixes) sim.sendFix(f, null);
    await waitFor(() => sim.stats.acked === fixes.length, 30_000, 'acks');
    sim.stop();
    const overspeeds = async () =>
      (
        await server.ctx.dbHandle.pool.query<{ t: number }>(
          `SELECT (extract(epoch FROM time) * 1000)::float8 AS t FROM alarms WHERE device_id = $1 AND type = 6 ORDER BY time`,
          [deviceId],
        )
      ).rows.map((r) => r.t);
    await waitFor(async () => (await overspeeds()).length > 0, 20_000, 'overspeed alarm');
    expect(await overspeeds()).toEqual([t0 + 24_000]);

    // The daily row (rolled up by the job from the dirty marks the ingest wrote) counts one overspeed event over
    // the device's limit of 80: under the default 120 there would be none (the fastest fix is 119 km/h).
    const pool = server.ctx.dbHandle.pool;
    const range = { terminalIDs: [tid], startTime: t0 - 3_600_000, endTime: t0 + 3_600_000 };
    const row = await waitFor(
      async () => {
        if (((await pool.query('SELECT 1 FROM stat_dirty WHERE device_id = $1', [deviceId])).rowCount ?? 0) > 0)
          return null;
        const res = await demo.post<{ list: { overspeedCount: number; maxSpeed: number; alarmCount: number }[] }>(
          '/stat/find',
          range,
        );
        const rows = res.data.list;
        return rows.length > 0 && rows.some((r) => r.maxSpeed === 119) ? rows : null;
      },
      30_000,
      'daily row',
    );
    expect(row.reduce((n, r) => n + r.overspeedCount, 0)).toBe(1);
    expect(row.reduce((n, r) => n + r.alarmCount, 0)).toBe(1); // the ingest's overspeed alarm
  }, 60_000);
});
