// The demo on a new install looks lived-in (issue 17): still devices (offline, expired, expiring), tyre and
// battery readings, unread alarms of several kinds and queued and answered commands, seen through the API the
// demo account's screens call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../testing/harness.ts';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { DEMO_JT808_FIRST, seedDemoDevices } from './demo.ts';
import { DEMO_STILL_DEVICES, seedDemoExtras } from './demo-extras.ts';
import { demoClient } from './test-support.ts';

interface Page<T> {
  total: number;
  list: T[];
}

describe('seedDemoExtras', () => {
  let server: TestServer;
  let demo: ApiClient;
  let result: Awaited<ReturnType<typeof seedDemoExtras>>;

  beforeAll(async () => {
    server = await createTestServer();
    await seedDemoDevices(server.ctx, 4);
    result = await seedDemoExtras(server.ctx);
    demo = await demoClient(server);
  });
  afterAll(async () => server.close());

  it('adds the still devices, alarms and commands it reports', () => {
    expect(result).toMatchObject({ devices: DEMO_STILL_DEVICES.length, alarms: 9, commands: 4 });
  });

  it('unread alarms of several kinds from the last hours', async () => {
    const res = await demo.post<Page<{ alarmType: number; read: boolean; time: string }>>('/deviceAlarms/findAll', {
      pageNum: 1,
      pageSize: 50,
    });
    expect(res.status).toBe(200);
    const unread = res.data.list.filter((a) => !a.read);
    expect(new Set(unread.map((a) => a.alarmType)).size).toBeGreaterThanOrEqual(8);
  });

  it('an offline device, an expired one and one expiring within 7 days', async () => {
    const rows = await server.ctx.db
      .selectFrom('devices as d')
      .innerJoin('device_state as s', 's.device_id', 'd.id')
      .select(['d.terminal_id', 'd.platform_expire_at', 's.online', 's.last_seen', 's.lat'])
      .where(
        'd.terminal_id',
        'in',
        DEMO_STILL_DEVICES.map((d) => d.terminalId),
      )
      .orderBy('d.terminal_id')
      .execute();
    expect(rows.map((r) => r.online)).toEqual([false, false, false]);
    expect(rows.every((r) => r.lat !== null && r.last_seen !== null)).toBe(true);
    const now = Date.now();
    expect(new Date(rows[1].platform_expire_at as Date).getTime()).toBeLessThan(now);
    const soon = new Date(rows[2].platform_expire_at as Date).getTime() - now;
    expect(soon).toBeGreaterThan(0);
    expect(soon).toBeLessThan(7 * 86_400_000);
  });

  it('tyre and battery-pack readings on the devices that have them', async () => {
    const tyres = await demo.post<{ wheels: { statuses: string[]; pressure: number }[] }>('/tire/find', {
      terminalID: DEMO_JT808_FIRST,
    });
    expect(tyres.status).toBe(200);
    expect(tyres.data.wheels).toHaveLength(4);
    expect(tyres.data.wheels.some((w) => w.statuses.includes('lowPressure'))).toBe(true);
    const battery = await demo.post<{ pack: { voltage: number; percentage: number } | null }>('/battery', {
      terminalID: DEMO_JT808_FIRST,
    });
    expect(battery.status).toBe(200);
    expect(battery.data.pack).toMatchObject({ voltage: 52.4, percentage: 76 });
  });

  it('commands queued for an offline device and answered ones', async () => {
    const queued = await demo.post<Page<{ status: string; mode: string }>>('/command/find', {
      terminalID: DEMO_STILL_DEVICES[0].terminalId,
      pageNum: 1,
      pageSize: 10,
    });
    expect(queued.status).toBe(200);
    expect(queued.data.list).toEqual([expect.objectContaining({ mode: 'offline', status: 'pending' })]);
    const answered = await demo.post<Page<{ status: string; reply: string | null }>>('/command/find', {
      terminalID: DEMO_JT808_FIRST,
      pageNum: 1,
      pageSize: 10,
    });
    expect(answered.data.list[0]).toMatchObject({ status: 'answered' });
    expect(answered.data.list[0].reply).toBeTruthy();
  });
});
