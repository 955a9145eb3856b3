// Maintenance reminders: meters from the statistics plus the user's offset, items due by km, hours or date, the due
// list, and the `maintenance` event on the bus once per item falling due (through the job queue, and never twice
// when several checks run at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MaintenanceDueEvent, Subjects } from '../../gateway/events.ts';
import { addDevice, demoClient, userClient, waitFor } from '../../gateway/test-support.ts';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { checkMaintenance } from './store.ts';

interface Item {
  id: string;
  name: string;
  status: string;
  remaining: number | null;
  dueKm: number | null;
}
interface Found {
  meters: { odometerKm: number; engineHours: number; statOdometerKm: number; odometerOffsetKm: number };
  items: Item[];
}

describe('maintenance', () => {
  let server: TestServer;
  let demo: ApiClient;
  let stranger: ApiClient;
  let deviceId: string;
  const tid = `mnt${String(process.pid).padStart(10, '0').slice(-10)}`;
  const events: MaintenanceDueEvent[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    deviceId = await addDevice(server, tid, 'gt06');
    // What the statistics roll-up wrote for two days: 12,345 km and 100 engine hours.
    await server.ctx.db
      .insertInto('stat_daily')
      .values([
        { device_id: deviceId, day: '2026-11-01', mileage: 12_000_000, engine_seconds: 300_000, alarms: '{}' },
        { device_id: deviceId, day: '2026-11-02', mileage: 345_000, engine_seconds: 60_000, alarms: '{}' },
      ])
      .execute();
    server.ctx.bus.subscribe(Subjects.maintenanceDue, (e) => {
      events.push(e as MaintenanceDueEvent);
    });
    demo = await demoClient(server);
    stranger = await userClient(server, `mntstranger${process.pid}`, 3);
  });
  afterAll(async () => {
    await server.close();
  });

  const find = async () => (await demo.post<Found>('/maintenance/find', { terminalID: tid })).data;

  it('takes the meters from the statistics, and an offset from the real reading', async () => {
    const before = await find();
    expect(before.meters).toMatchObject({ odometerKm: 12_345, engineHours: 100, statOdometerKm: 12_345 });
    const set = await demo.post('/maintenance/setMeters', { terminalID: tid, odometerKm: 20_000 });
    expect(set.meta.success).toBe(true);
    const after = await find();
    expect(after.meters).toMatchObject({ odometerKm: 20_000, engineHours: 100, odometerOffsetKm: 7_655 });
  });

  it('lists items by status and publishes `maintenance` once for each item falling due', async () => {
    const add = (body: Record<string, unknown>) =>
      demo.post<{ id: string }>('/maintenance/add', { terminalID: tid, ...body });
    const oil = await add({
      name: 'Oil change',
      kind: 'oil',
      by: 'km',
      dueKm: 20_500,
      remindBefore: 1000,
      intervalKm: 10_000,
    });
    const insurance = await add({
      name: 'Insurance',
      kind: 'insurance',
      by: 'date',
      dueDate: '2099-01-01',
      remindBefore: 30,
    });
    const inspection = await add({ name: 'Inspection', kind: 'inspection', by: 'hours', dueHours: 90 });
    for (const r of [oil, insurance, inspection]) expect(r.meta.success).toBe(true);

    const { items } = await find();
    const byName = Object.fromEntries(items.map((i) => [i.name, i]));
    expect(byName['Oil change']).toMatchObject({ status: 'due', remaining: 500 });
    expect(byName.Insurance.status).toBe('ok');
    expect(byName.Inspection).toMatchObject({ status: 'overdue', remaining: -10 });

    // The routes asked the job queue for a check: the two items that fell due are announced.
    await waitFor(() => events.length >= 2, 60_000, 'maintenance events');
    expect(events.map((e) => e.itemName).sort()).toEqual(['Inspection', 'Oil change']);
    expect(events.find((e) => e.itemId === inspection.data.id)).toMatchObject({
      type: 'maintenance',
      deviceId,
      terminalID: tid,
      dueBy: 'hours',
    });
    // Later checks (another process, the next minute) announce nothing again.
    const again = await Promise.all([checkMaintenance(server.ctx), checkMaintenance(server.ctx)]);
    expect(again.flat()).toEqual([]);
    expect(events.length).toBe(2);

    const due = await demo.post<(Item & { deviceName: string })[]>('/maintenance/dueList', {});
    expect(due.data.map((i) => i.name)).toEqual(['Inspection', 'Oil change']);

    // Done with an interval: the next threshold is the current reading plus the interval, announced again then.
    expect((await demo.post('/maintenance/done', { id: oil.data.id })).meta.success).toBe(true);
    const next = (await find()).items.find((i) => i.id === oil.data.id)!;
    expect(next).toMatchObject({ status: 'ok', dueKm: 30_000 });
    // Done without one: completed.
    await demo.post('/maintenance/done', { id: inspection.data.id });
    expect((await find()).items.find((i) => i.id === inspection.data.id)!.status).toBe('done');
    expect((await demo.post<Item[]>('/maintenance/dueList', {})).data).toEqual([]);
  });

  it('announces an item once when several checks race', async () => {
    const before = events.length;
    await server.ctx.db
      .insertInto('maintenance_items')
      .values({ device_id: deviceId, name: 'Brakes', due_by: 'km', due_km: 100, created_by_name: 'test' })
      .execute();
    const results = await Promise.all([
      checkMaintenance(server.ctx),
      checkMaintenance(server.ctx),
      checkMaintenance(server.ctx),
    ]);
    expect(results.flat().map((e) => e.itemName)).toEqual(['Brakes']);
    await waitFor(() => events.length >= before + 1, 30_000, 'brakes event');
    expect(events.filter((e) => e.itemName === 'Brakes').length).toBe(1);
  });

  it('updates and deletes items', async () => {
    const { data } = await demo.post<{ id: string }>('/maintenance/add', {
      terminalID: tid,
      name: 'Tyres',
      by: 'date',
      dueDate: '2099-06-01',
    });
    const up = await demo.post('/maintenance/update', {
      id: data.id,
      name: 'Tyres (winter)',
      by: 'date',
      dueDate: '2099-10-01',
    });
    expect(up.meta.success).toBe(true);
    expect((await find()).items.find((i) => i.id === data.id)!.name).toBe('Tyres (winter)');
    expect((await demo.post('/maintenance/delete', { id: data.id })).meta.success).toBe(true);
    expect((await find()).items.some((i) => i.id === data.id)).toBe(false);
  });

  it('checks permission, hierarchy and input', async () => {
    const anonymous = new ApiClient(server);
    expect((await anonymous.post('/maintenance/find', { terminalID: tid })).status).toBe(401);
    expect((await stranger.post('/maintenance/find', { terminalID: tid })).status).toBe(403);
    expect((await stranger.post('/maintenance/add', { terminalID: tid, name: 'x', by: 'km', dueKm: 1 })).status).toBe(
      403,
    );
    const { items } = await find();
    expect((await stranger.post('/maintenance/delete', { id: items[0].id })).status).toBe(403);
    expect((await stranger.post('/maintenance/setMeters', { terminalID: tid, odometerKm: 1 })).status).toBe(403);
    expect((await stranger.post<Item[]>('/maintenance/dueList', {})).data).toEqual([]);
    expect((await demo.post('/maintenance/add', { terminalID: tid, name: 'x', by: 'km' })).status).toBe(400);
    expect((await demo.post('/maintenance/add', { terminalID: tid, name: 'x', by: 'miles', dueKm: 1 })).status).toBe(
      400,
    );
    expect((await demo.post('/maintenance/add', { terminalID: tid, name: '', by: 'km', dueKm: 1 })).status).toBe(400);
    expect((await demo.post('/maintenance/setMeters', { terminalID: tid })).status).toBe(400);
    const tryIt = new ApiClient(server);
    await tryIt.post('/login/demo');
    expect(
      (await tryIt.post('/maintenance/add', { terminalID: tid, name: 'x', by: 'km', dueKm: 1 })).meta.success,
    ).toBe(false);
  });
});
