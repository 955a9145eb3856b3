// Spec §4: expired devices cannot be used — the server refuses their commands with the spec's message in the
// caller's language and records nothing; a device not activated yet may still be given offline commands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

describe('commands and the device access check', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 1500 });
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const commandsOf = (deviceId: string) =>
    server.ctx.db.selectFrom('commands').select(['status', 'mode']).where('device_id', '=', deviceId).execute();

  it('refuses every way of sending to an expired device, online or not, and writes nothing', async () => {
    const tid = newTerminalId('gt06');
    const id = await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid);
    await sim.connect(); // online and activated
    await server.ctx.db
      .updateTable('devices')
      .set({ platform_expire_at: new Date(Date.now() - 60_000), expire_manual: true })
      .where('id', '=', id)
      .execute();

    demo.lang = 'en';
    for (const [url, body] of [
      ['/tracker_cmd', { terminalID: tid, content: 'RELAY,1#', agentName: 'ops' }],
      ['/command/add', { terminalID: tid, content: 'RELAY,1#' }],
      ['/command/add', { terminalID: tid, content: 'RELAY,1#', offline: true }],
      ['/command/insertOffline', { terminalID: tid, content: 'RELAY,1#' }],
    ] as const) {
      const res = await demo.post(url, body);
      expect(res.meta.success, url).toBe(false);
      expect(res.meta.message, url).toBe("The device has expired, please contact the device's service provider!");
    }
    demo.lang = 'cn';
    const cn = await demo.post('/command/add', { terminalID: tid, content: 'RELAY,1#' });
    expect(cn.meta.success).toBe(false);
    expect(cn.meta.message).not.toMatch(/[a-z]{4}/);
    demo.lang = 'en';
    expect(await commandsOf(id)).toEqual([]);

    // The user expiry counts as well: the earlier of the two.
    await server.ctx.db
      .updateTable('devices')
      .set({ platform_expire_at: null, user_expire_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect((await demo.post('/command/add', { terminalID: tid, content: 'RELAY,1#' })).meta.success).toBe(false);

    // Renewed: the same call goes through.
    await server.ctx.db
      .updateTable('devices')
      .set({ user_expire_at: new Date(Date.now() + 86_400_000) })
      .where('id', '=', id)
      .execute();
    const ok = await demo.post<{ status: string }>('/command/add', { terminalID: tid, content: 'RELAY,1#' });
    expect(ok.meta.success).toBe(true);
    expect(ok.data.status).toBe('answered');
    sim.stop();
  });

  it('queues an offline command for a device that has never connected (not activated)', async () => {
    const tid = newTerminalId('gt06');
    const id = await addDevice(server, tid, 'gt06');
    const res = await demo.post<{ status: string }>('/command/add', { terminalID: tid, content: 'APN,cmnet#' });
    expect(res.meta.success).toBe(true);
    expect(await commandsOf(id)).toEqual([{ status: 'pending', mode: 'offline' }]);
  });
});
