import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmEvent, DeviceEnvelope, PositionEvent } from '../../gateway/events.ts';
import { Subjects } from '../../gateway/events.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildDevice, buildUser, clientFor, type FixtureUser } from './testFixtures.ts';

// The detector listens to the gateway's device.position events on the bus, as the ingest publishes them.
describe('fence alarms from the position stream', () => {
  let server: TestServer;
  let user: FixtureUser;
  let device: { id: string; terminalId: string; ownerPath: string };
  let client: ApiClient;
  const published: DeviceEnvelope<AlarmEvent>[] = [];
  let clock = Date.parse('2026-03-01T08:00:00Z');

  const centre = { lat: 39.915, lon: 116.404 };
  const outside = { lat: 39.95, lon: 116.404 }; // ~3.9 km north

  async function drive(point: { lat: number; lon: number }, opts: { valid?: boolean; time?: number } = {}) {
    clock += 10_000;
    const event: PositionEvent = {
      type: 'position',
      deviceId: device.id,
      terminalID: device.terminalId,
      time: new Date(opts.time ?? clock).toISOString(),
      lat: point.lat,
      lon: point.lon,
      speed: 30,
      course: 0,
      altitude: 50,
      valid: opts.valid ?? true,
      locationType: 'gps',
      acc: true,
      battery: 90,
      receivedAt: new Date().toISOString(),
    };
    server.ctx.bus.publish(Subjects.position, { path: device.ownerPath, event });
    await server.ctx.services.fenceDetector?.idle();
  }

  async function alarmRows() {
    return server.ctx.db
      .selectFrom('alarms')
      .select(['id', 'type', 'source', 'name', 'lat'])
      .where('device_id', '=', device.id)
      .orderBy('time')
      .execute();
  }

  beforeAll(async () => {
    server = await createTestServer();
    user = await buildUser(server.ctx.db, 'detect-user', 3);
    device = await buildDevice(server.ctx.db, '862000000000001', user);
    client = await clientFor(server, user);
    server.ctx.bus.subscribe(Subjects.alarm, (payload) => published.push(payload as DeviceEnvelope<AlarmEvent>));
  });
  afterAll(async () => {
    await server.close();
  });

  it('learns the side from the first fix, then raises enter and leave alarms for an in-or-out fence', async () => {
    const fence = await client.post<{ id: string }>('/fence/add', {
      name: 'Depot',
      shape: 'circle',
      ...centre,
      radius: 1000,
      alarmType: 'inOut',
      terminalIDs: [device.terminalId],
    });
    expect(fence.meta.success).toBe(true);
    await drive(outside);
    expect(await alarmRows()).toHaveLength(0);
    await drive(outside);
    await drive(centre);
    await drive(centre);
    await drive(outside);
    const rows = await alarmRows();
    expect(rows.map((r) => r.type)).toEqual([4, 5]);
    expect(rows.every((r) => r.source === 'derived')).toBe(true);
    expect(rows.map((r) => r.name)).toEqual(['fenceIn', 'fenceOut']);
    expect(published.map((p) => [p.event.alarmType, p.path, p.event.terminalID])).toEqual([
      [4, user.path, device.terminalId],
      [5, user.path, device.terminalId],
    ]);
    const linked = await client.post<{ list: { inside: boolean | null }[] }>('/fence/findDevices', {
      id: fence.data.id,
    });
    expect(linked.data.list[0].inside).toBe(false);
    const names = await client.post<Record<string, string[]>>('/fence/findAlarmFences', {
      alarmIds: rows.map((r) => r.id),
    });
    expect(names.data).toEqual({ [rows[0].id]: ['Depot'], [rows[1].id]: ['Depot'] });

    // Ignored: fixes without GPS, and fixes older than the last one seen.
    await drive(centre, { valid: false });
    await drive(centre, { time: clock - 60_000 });
    expect(await alarmRows()).toHaveLength(2);

    await client.post('/fence/unassign', { id: fence.data.id, terminalIDs: [device.terminalId] });
    await client.post('/fence/delete', { id: fence.data.id });
    await drive(centre);
    expect(await alarmRows()).toHaveLength(2);
  });

  it('an enter-only fence ignores leaving; a closed fence is not watched', async () => {
    await server.ctx.db.deleteFrom('alarms').execute();
    const fence = await client.post<{ id: string }>('/fence/add', {
      name: 'Gate',
      shape: 'rectangle',
      minLat: 39.9,
      minLon: 116.39,
      maxLat: 39.93,
      maxLon: 116.42,
      alarmType: 'in',
      terminalIDs: [device.terminalId],
    });
    await drive(outside);
    await drive(centre);
    await drive(outside);
    expect((await alarmRows()).map((r) => r.type)).toEqual([4]);

    await client.post('/fence/setState', { id: fence.data.id, state: 'closed' });
    await drive(centre);
    expect(await alarmRows()).toHaveLength(1);
    // Reopened, the side is learnt again: the first fix inside raises nothing.
    await client.post('/fence/setState', { id: fence.data.id, state: 'opened' });
    await drive(centre);
    await drive(outside);
    await drive(centre);
    expect((await alarmRows()).map((r) => r.type)).toEqual([4, 4]);
  });

  it('resumes from the stored side after a restart of the detector', async () => {
    await server.ctx.db.deleteFrom('alarms').execute();
    const detector = server.ctx.services.fenceDetector;
    if (!detector) throw new Error('no detector');
    await drive(outside); // Gate fence: now outside
    await detector.stop();
    // A fresh detector reads the sides from the database.
    const { FenceDetector } = await import('./detector.ts');
    const fresh = new FenceDetector(server.ctx);
    await fresh.start();
    server.ctx.services.fenceDetector = fresh;
    await drive(centre);
    expect((await alarmRows()).map((r) => r.type)).toEqual([4]);
    await fresh.stop();
  });
});
