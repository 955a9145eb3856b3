// Risk point stays and polygon fences from real device traffic: a GT06 tracker (the simulator over TCP) drives
// through them; the gateway stores and publishes the fixes; the detectors raise the alarms the API lists.
import type { Fix } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

describe('risk points and polygon fences from tracker traffic through the gateway', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;
  let demo: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    admin = await adminClient(server);
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  function fixAt(lat: number, lon: number, time: number): Fix {
    return { time, lat, lon, speed: 20, course: 0, altitude: 40, satellites: 9, mileage: 0, acc: true, battery: 90 };
  }

  async function drive(imei: string, path: [number, number, number][]) {
    const tracker = simulatedDevice(server.gateway, 'gt06', imei);
    await tracker.connect();
    for (const [lat, lon, time] of path) {
      tracker.sendFix(fixAt(lat, lon, time));
      await waitFor(() => tracker.outstanding === 0, 10_000, 'ACK');
    }
    return tracker;
  }

  async function alarmsOf(client: ApiClient, imei: string, count: number) {
    return waitFor(
      async () => {
        const res = await client.post<{ list: { alarmType: number; name: string; source: string }[] }>(
          '/deviceAlarms/findAll',
          { terminalID: imei, pageNum: 1, pageSize: 10 },
        );
        return res.data.list.length >= count ? res.data.list : null;
      },
      10_000,
      'alarms',
    );
  }

  it('a stay longer than the dwell time raises one risk alarm; leaving closes the visit', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06');
    const point = await admin.post<{ id: string }>('/riskPoint/add', {
      name: 'Pawnshop <b>',
      kind: 'pawnshop',
      lat: 39.915,
      lon: 116.404,
      radius: 300,
      dwellMinutes: 2,
    });
    expect(point.status).toBe(200);
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000;
    const min = 60_000;
    // outside, inside for 3 minutes (alarm after 2), outside again
    const tracker = await drive(imei, [
      [39.905, 116.404, t0],
      [39.915, 116.404, t0 + min],
      [39.9151, 116.404, t0 + 2 * min],
      [39.915, 116.4041, t0 + 3 * min],
      [39.915, 116.404, t0 + 4 * min],
      [39.905, 116.404, t0 + 5 * min],
    ]);
    const alarms = await alarmsOf(admin, imei, 1);
    tracker.stop();
    expect(alarms.map((a) => [a.alarmType, a.name, a.source])).toEqual([[37, 'riskPoint', 'derived']]);
    await server.ctx.services.riskDetector?.idle();
    const visits = await admin.post<{
      list: { riskPointName: string; enteredAt: string; leftAt: string | null; duration: number; alarmed: boolean }[];
    }>('/riskPoint/visits', { terminalID: imei, startTime: t0 - min, endTime: t0 + 10 * min });
    expect(visits.data.list).toEqual([
      expect.objectContaining({
        riskPointName: 'Pawnshop <b>',
        enteredAt: new Date(t0 + min).toISOString(),
        leftAt: new Date(t0 + 5 * min).toISOString(),
        duration: 4 * min,
        alarmed: true,
      }),
    ]);
  });

  it('a polygon fence raises enter and leave alarms like the other shapes', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06');
    const fence = await demo.post<{ id: string; shape: string; points: [number, number][] }>('/fence/add', {
      name: 'Depot',
      shape: 'polygon',
      points: [
        [39.91, 116.4],
        [39.92, 116.4],
        [39.92, 116.41],
        [39.913, 116.408],
      ],
      alarmType: 'inOut',
      terminalIDs: [imei],
    });
    expect(fence.status).toBe(200);
    expect(fence.data.shape).toBe('polygon');
    expect(fence.data.points).toHaveLength(4);
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000;
    // outside (south), inside, outside in the polygon's bounding box but past its slanted edge (east), outside
    const tracker = await drive(imei, [
      [39.905, 116.405, t0],
      [39.905, 116.405, t0 + 5000],
      [39.917, 116.405, t0 + 10_000],
      [39.917, 116.405, t0 + 15_000],
      [39.911, 116.4095, t0 + 20_000],
    ]);
    const alarms = await alarmsOf(demo, imei, 2);
    tracker.stop();
    expect(alarms.map((a) => a.alarmType)).toEqual([5, 4]);
    const moved = await demo.post<{ points: [number, number][] }>('/fence/update', {
      id: fence.data.id,
      points: [
        [39.91, 116.4],
        [39.92, 116.4],
        [39.92, 116.41],
      ],
    });
    expect(moved.data.points).toHaveLength(3);
  });
});
