import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, demoClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';

describe('/api/battery', () => {
  let server: TestServer;
  let demo: ApiClient;
  let tid: string;
  let bare: string;

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    tid = newTerminalId('gt06');
    bare = newTerminalId('gt06');
    const id = await addDevice(server, tid, 'gt06');
    await addDevice(server, bare, 'gt06');
    const pack = { voltage: 52.1, current: -3.5, percentage: 77.6, temperature: 24, useCount: 120 };
    await server.ctx.db
      .insertInto('device_state')
      .values({
        device_id: id,
        battery: 78,
        battery_pack: JSON.stringify(pack),
        last_seen: new Date('2026-11-02T00:00:00Z'),
        attributes: '{}',
      })
      .execute();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the level and the pack with its state from the current (POST and GET)', async () => {
    const post = await demo.post<{ battery: number; pack: Record<string, unknown> }>('/battery', { terminalID: tid });
    expect(post.data.battery).toBe(78);
    expect(post.data.pack).toEqual({
      voltage: 52.1,
      current: -3.5,
      percentage: 78,
      temperature: 24,
      useCount: 120,
      state: 'discharging',
    });
    const get = await demo.get<{ battery: number }>(`/battery/findByTerminalID?terminalID=${tid}`);
    expect(get.data).toEqual(post.data);
    const none = await demo.post<{ battery: null; pack: null; time: null }>('/battery', { terminalID: bare });
    expect(none.data).toMatchObject({ battery: null, pack: null, time: null });
  });

  it('refuses roles without main:monitor and bad input', async () => {
    const logUser = await userClient(server, 'battery-log-user', 8);
    expect((await logUser.post('/battery', { terminalID: tid })).status).toBe(403);
    expect((await demo.get('/battery/findByTerminalID')).status).toBe(400);
  });
});
