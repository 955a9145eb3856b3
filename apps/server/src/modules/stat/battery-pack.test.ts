// Battery packs over TCP (issue 16 battery packs, issue 21 battery statistics): a JT/T 808 device reports its
// pack (location item 0xEF); the pack is stored, its fault bits raise the battery alarms 50–80 once each, the
// pack detail (/api/battery) and the battery statistics (/stat/battery, /stat/batteryAlarms) show them.
import { dayKey } from '@carhere/domain';
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

describe('battery packs over TCP', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  let logUser: ApiClient;
  const tid = newTerminalId('jt808');
  const plain = newTerminalId('jt808');
  let deviceId: string;
  const t0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

  beforeAll(async () => {
    server = await createGatewayTestServer({ statsRollupDelaySeconds: 0 });
    demo = await demoClient(server);
    logUser = await userClient(server, 'pack-log', 8);
    deviceId = await addDevice(server, tid, 'jt808');
    await addDevice(server, plain, 'jt808');
    const fix = (i: number, faults: number, current: number): Fix => ({
      time: t0 + i * 10_000,
      lat: 22.5,
      lon: 114,
      speed: 0,
      course: 0,
      altitude: 0,
      satellites: 9,
      mileage: 0,
      acc: false,
      battery: 70,
      batteryPack: { voltage: 51.2, current, percentage: 64 - i, temperature: 27, useCount: 412, faults },
    });
    // Pack over-voltage (bit 0) appears, stays; then cell under-voltage (bit 3) joins; the last report charges.
    const fixes = [fix(0, 0, -4), fix(1, 1, -4), fix(2, 1, -4), fix(3, 0b1001, -4), fix(4, 0b1001, 6.5)];
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    for (const f of fixes) sim.sendFix(f, null);
    await waitFor(() => sim.stats.acked === fixes.length, 30_000, 'acks');
    sim.stop();
    await waitFor(
      async () =>
        (
          await server.ctx.dbHandle.pool.query('SELECT 1 FROM stat_daily WHERE device_id = $1 AND alarm_count = 2', [
            deviceId,
          ])
        ).rowCount === 1,
      60_000,
      'roll-up',
    );
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  it('raises each fault once, as battery alarms 50 and 53', async () => {
    const rows = await server.ctx.dbHandle.pool.query<{ type: number; t: number }>(
      `SELECT type, (extract(epoch FROM time) * 1000)::float8 AS t FROM alarms WHERE device_id = $1 ORDER BY time`,
      [deviceId],
    );
    expect(rows.rows.map((r) => [r.type, r.t])).toEqual([
      [50, t0 + 10_000],
      [53, t0 + 30_000],
    ]);
  });

  it('the pack detail shows the last report', async () => {
    // The device's state row is written coalesced (at most once per flush interval), so it may land after the
    // roll-up the setup waits for: wait for the last report's charging current, then check the whole pack.
    const pack = () => demo.post<{ pack: Record<string, unknown> | null }>('/battery', { terminalID: tid });
    await waitFor(async () => (await pack()).data.pack?.current === 6.5, 30_000, 'last pack report');
    const res = await pack();
    expect(res.status).toBe(200);
    expect(res.data.pack).toMatchObject({
      voltage: 51.2,
      current: 6.5,
      percentage: 60,
      temperature: 27,
      useCount: 412,
      state: 'charging',
    });
  });

  it('battery statistics: level, voltage, state, low devices, alarms per day; permission checked', async () => {
    const res = await demo.post<{ total: number; lowCount: number; list: Record<string, unknown>[] }>('/stat/battery', {
      terminalIDs: [tid, plain],
      threshold: 80,
    });
    expect(res.status).toBe(200);
    const row = res.data.list.find((r) => r.terminalID === tid);
    expect(row).toMatchObject({ voltage: 51.2, state: 'charging', hasPack: true, low: true });
    expect(res.data.list.find((r) => r.terminalID === plain)).toMatchObject({ hasPack: false, battery: null });
    expect(res.data.lowCount).toBe(1);
    const perDay = await demo.post<{ list: { statsticDate: string; type: number; count: number }[] }>(
      '/stat/batteryAlarms',
      { terminalIDs: [tid], startTime: t0 - 3_600_000, endTime: t0 + 3_600_000 },
    );
    expect(perDay.status).toBe(200);
    const day = dayKey(t0 + 10_000, 'Asia/Shanghai');
    expect(perDay.data.list.filter((r) => r.statsticDate === day)).toEqual([
      { statsticDate: day, type: 50, count: 1 },
      { statsticDate: day, type: 53, count: 1 },
    ]);
    expect((await logUser.post('/stat/batteryAlarms', { startTime: t0, endTime: t0 + 1 })).status).toBe(403);
    expect((await demo.post('/stat/batteryAlarms', { terminalIDs: [tid] })).status).toBe(400);
  });
});
