// Fence alarms from real device traffic: a GT06 tracker (the simulator over TCP) drives into and out of a
// fence; the gateway stores the fixes and publishes them, the detector turns the crossings into alarms that
// the alarm API lists and the WebSocket bus carries.
import type { Fix } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Subjects } from '../../gateway/events.ts';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

describe('fence alarms from tracker traffic through the gateway', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  const published: { alarmType: number }[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer();
    // The demo user as a customer (a "try it out" session could not add the fence).
    demo = await demoClient(server);
    server.ctx.bus.subscribe(Subjects.alarm, (p) => published.push((p as { event: { alarmType: number } }).event));
  });
  afterAll(async () => {
    await server.close();
  });

  it('raises an enter and a leave alarm as the tracker crosses an in-or-out fence', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06');
    const fence = await demo.post<{ id: string }>('/fence/add', {
      name: 'Yard',
      shape: 'circle',
      lat: 39.915,
      lon: 116.404,
      radius: 300,
      alarmType: 'inOut',
      terminalIDs: [imei],
    });
    expect(fence.meta.success).toBe(true);

    const tracker = simulatedDevice(server.gateway, 'gt06', imei);
    await tracker.connect();
    let time = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const fix = (lat: number): Fix => {
      time += 5000;
      return {
        time,
        lat,
        lon: 116.404,
        speed: 20,
        course: 0,
        altitude: 40,
        satellites: 9,
        mileage: 0,
        acc: true,
        battery: 90,
      };
    };
    // ~1.1 km south (outside), the centre (inside), ~1.1 km north (outside): one entry, one exit.
    for (const lat of [39.905, 39.905, 39.915, 39.915, 39.925]) {
      tracker.sendFix(fix(lat));
      await waitFor(() => tracker.outstanding === 0, 10_000, 'ACK');
    }
    const alarms = await waitFor(
      async () => {
        const res = await demo.post<{ list: { alarmType: number; source: string; terminalID: string }[] }>(
          '/deviceAlarms/findAll',
          { terminalID: imei, pageNum: 1, pageSize: 10 },
        );
        return res.data.list.length >= 2 ? res.data.list : null;
      },
      10_000,
      'fence alarms',
    );
    tracker.stop();
    // Newest first: leaving, then entering.
    expect(alarms.map((a) => [a.alarmType, a.source])).toEqual([
      [5, 'derived'],
      [4, 'derived'],
    ]);
    expect(published.filter((e) => e.alarmType === 4 || e.alarmType === 5).map((e) => e.alarmType)).toEqual([4, 5]);
    const linked = await demo.post<{ list: { inside: boolean }[] }>('/fence/findDevices', { id: fence.data.id });
    expect(linked.data.list[0].inside).toBe(false);
  });
});
