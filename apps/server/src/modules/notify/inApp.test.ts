// In-app notifications of events that are not alarms (issue 18): a simulated GT06 tracker of an agent's comes
// online; the agent's rule (in-app) reaches the agent's browsers over the live WebSocket as a `notification`
// message. Alarms are not sent twice (the live view pops them up with their sound), and other accounts' browsers
// (the administrator's, which sees the device's positions) get no notification of that rule.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

const WAIT = 60_000;

describe('in-app notifications over the live WebSocket', () => {
  let server: GatewayTestServer;
  let wsUrl: string;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/api/ws`;
  }, 120_000);
  afterAll(async () => {
    for (const ws of sockets) ws.close();
    await server?.close();
  });

  async function openLive(client: ApiClient): Promise<Record<string, unknown>[]> {
    const messages: Record<string, unknown>[] = [];
    const ws = new WebSocket(wsUrl, { headers: { cookie: client.cookie } });
    sockets.push(ws);
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('error', reject);
    });
    await waitFor(() => messages.some((m) => m.type === 'hello'), WAIT, 'hello');
    return messages;
  }

  it('sends an online event to the rule owner’s browsers only, and leaves alarms to the alarm pop-up', async () => {
    const username = `inapp-owner-${process.pid}`;
    const owner = await userClient(server, username, 2);
    const ownerId = (
      await server.ctx.dbHandle.pool.query<{ id: string }>('SELECT id::text AS id FROM users WHERE username = $1', [
        username,
      ])
    ).rows[0].id;
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: ownerId });
    const rule = await owner.post<{ id: string }>('/notify/rules/add', {
      name: 'online in app',
      events: ['online', 'alarm:1'],
      channels: [{ type: 'inApp' }],
      terminalIDs: [imei],
    });
    expect(rule.status).toBe(200);
    const ownerLive = await openLive(owner);
    const adminLive = await openLive(await adminClient(server));

    const tracker = simulatedDevice(server.gateway, 'gt06', imei);
    await tracker.connect();
    tracker.sendFix(
      {
        time: Date.now() - 5_000,
        lat: 39.915,
        lon: 116.404,
        speed: 30,
        course: 0,
        altitude: 40,
        satellites: 9,
        mileage: 0,
        acc: true,
        battery: 90,
      },
      'sos',
    );
    try {
      const online = await waitFor(
        () => ownerLive.find((m) => m.type === 'notification' && m.event === 'online'),
        WAIT,
        'the online notification',
      );
      expect(online).toMatchObject({ terminalID: imei, type: 'notification' });
      expect(typeof online.id).toBe('string');
      expect(String(online.time)).toMatch(/Z$/);
      // The SOS is logged for the rule (in-app, sent), and its pop-up comes from the alarm message itself.
      await waitFor(
        async () => {
          const log = await owner.post<{ list: { event: string; channel: string; status: string }[] }>(
            '/notify/deliveries',
            { ruleId: rule.data.id },
          );
          return log.data.list.some((d) => d.event === 'alarm:1' && d.status === 'sent');
        },
        WAIT,
        'the SOS in the delivery log',
      );
      await waitFor(
        () => adminLive.some((m) => m.type === 'alarm' && m.terminalID === imei),
        WAIT,
        'the alarm on the admin feed',
      );
      await waitFor(
        () => ownerLive.some((m) => m.type === 'alarm' && m.terminalID === imei),
        WAIT,
        'the alarm on the owner feed',
      );
      expect(ownerLive.filter((m) => m.type === 'notification')).toHaveLength(1);
      expect(adminLive.filter((m) => m.type === 'notification')).toHaveLength(0);
    } finally {
      tracker.stop();
    }
  });

  it('keeps no per-device work for positions no ignition rule reaches', async () => {
    const owner = await userClient(server, `ign-owner-${process.pid}`, 2);
    const rule = await owner.post('/notify/rules/add', {
      name: 'ignition',
      events: ['ignition.on'],
      channels: [{ type: 'inApp' }],
    });
    expect(rule.status).toBe(200);
    const paths = (
      await server.ctx.dbHandle.pool.query<{ username: string; path: string }>(
        'SELECT username, path FROM users WHERE username = ANY($1)',
        [[`ign-owner-${process.pid}`, `inapp-owner-${process.pid}`]],
      )
    ).rows;
    const pathOf = (prefix: string) => paths.find((p) => p.username.startsWith(prefix))!.path;
    const notifier = server.ctx.services.notifier!;
    const position = (deviceId: string, path: string) => ({
      path,
      event: {
        type: 'position',
        deviceId,
        terminalID: '000000000000001',
        time: new Date().toISOString(),
        lat: 39.9,
        lon: 116.4,
        speed: 0,
        course: 0,
        valid: true,
        locationType: 'gps',
        acc: true,
        battery: 90,
      },
    });
    server.ctx.bus.publish('device.position', position('900000001', pathOf('ign-owner')));
    server.ctx.bus.publish('device.position', position('900000002', pathOf('inapp-owner')));
    await waitFor(() => notifier.tracksAcc('900000001'), WAIT, 'the covered device tracked');
    expect(notifier.tracksAcc('900000002')).toBe(false);
  });
});
