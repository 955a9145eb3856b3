// Scale-out: two platform processes (here two servers in one test process, each with its own gateway, HTTP API
// and bus connection) share one PostgreSQL database and one NATS server. A device connected to the second one
// shows up live in a browser's WebSocket on the first, a command sent through the first one's API reaches it
// and its reply comes back, and a second connection of the device to the first process closes the older session.
// Needs a PostgreSQL server (DATABASE_URL; PGlite is one process's own) and NATS (NATS_TEST_URL, CI starts one).

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { natsReachable } from '../testing/expectations.ts';
import { ApiClient } from '../testing/harness.ts';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from './test-support.ts';

const natsUrl = process.env.NATS_TEST_URL ?? 'nats://127.0.0.1:4222';

const runnable = !!process.env.DATABASE_URL && (await natsReachable(natsUrl));

describe.skipIf(!runnable)('two platform processes over PostgreSQL and NATS', () => {
  let a: GatewayTestServer;
  let b: GatewayTestServer;
  // Our own subject space on the shared NATS server: other test runs cannot be heard.
  const busPrefix = `scale${process.pid}x${Date.now()}.`;

  beforeAll(async () => {
    a = await createGatewayTestServer({ busUrl: natsUrl, busPrefix, commandTimeoutMs: 10_000 });
    b = await createGatewayTestServer({
      busUrl: natsUrl,
      busPrefix,
      commandTimeoutMs: 10_000,
      databaseUrl: a.config.databaseUrl,
    });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a device on one process is live in a browser on the other, and commands cross between them', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(a, tid, 'gt06');
    const demo = new ApiClient(a);
    await demo.post('/login/demo');

    const messages: { type: string; deviceId?: string }[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${(a.app.server.address() as AddressInfo).port}/api/ws`, {
      headers: { cookie: demo.cookie },
    });
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await waitFor(() => messages.some((m) => m.type === 'hello'), 5000, 'hello');

    // The device connects to process B.
    const received: string[] = [];
    const sim = simulatedDevice(b.gateway, 'gt06', tid, { onCommand: (t) => received.push(t) });
    await sim.connect();
    await sim.sendPositions(5, 5, 10);
    await waitFor(
      () => messages.filter((m) => m.type === 'position' && m.deviceId === deviceId).length === 5,
      10_000,
      'five positions relayed from process B to the browser on process A',
    );

    // A live command through A's API: B holds the session, sends it, and the reply answers A's waiting call.
    const res = await demo.post<{ status: string; result: number; reply: string }>('/tracker_cmd', {
      terminalID: tid,
      content: 'RELAY,1#',
      agentName: 'ops',
    });
    expect(res.meta.success).toBe(true);
    expect(res.data).toMatchObject({ status: 'answered', result: 1 });
    expect(received).toEqual(['RELAY,1#']);

    // The device reconnects to process A: B closes its older session.
    const again = simulatedDevice(a.gateway, 'gt06', tid);
    await again.connect();
    await waitFor(() => !sim.connected, 10_000, 'the older session on process B to close');
    expect(again.connected).toBe(true);
    expect(b.gateway.registry.sessionOf(deviceId)).toBeUndefined();
    again.stop();
    sim.stop();
    ws.close();
  });
});
