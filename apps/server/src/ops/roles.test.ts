// Process roles: `carhere serve --only gateway|api|all` and GATEWAY_WORKERS, as an operator starts them.
// The scale-out test runs two gateway-only and two API-only processes (real `carhere serve` child processes) on
// one PostgreSQL database (a fresh one on DATABASE_URL's server) and a NATS server the test starts itself: a
// simulated tracker on gateway A is seen live in a WebSocket of API B, a command sent through API B is answered
// by the tracker; the tracker then moves to gateway B and a command through API A still reaches it.
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../config.ts';
import { checkRoles, parseServeArgs } from '../roles.ts';
import {
  type CarhereProcess,
  freshDatabase,
  natsAvailable,
  runCarhere,
  startCarhere,
  startNats,
  type TestNats,
} from './test-support.ts';

describe('serve arguments and refused combinations', () => {
  it('reads --only and refuses unknown roles and options', () => {
    expect(parseServeArgs([])).toEqual({ role: 'all' });
    expect(parseServeArgs(['--only', 'gateway'])).toEqual({ role: 'gateway' });
    expect(parseServeArgs(['--only=api'])).toEqual({ role: 'api' });
    expect(() => parseServeArgs(['--only', 'web'])).toThrow(/gateway, api or all/);
    expect(() => parseServeArgs(['--only'])).toThrow(/gateway, api or all/);
    expect(() => parseServeArgs(['--fast'])).toThrow(/unknown option/);
  });

  it('PGlite refuses --only and GATEWAY_WORKERS; PostgreSQL without NATS is refused too', () => {
    const pglite = loadConfig({ DATA_DIR: 'memory://' });
    expect(() => checkRoles(pglite, 'all')).not.toThrow();
    expect(() => checkRoles(pglite, 'gateway')).toThrow(/--only gateway needs PostgreSQL/);
    const workers = loadConfig({ DATA_DIR: 'memory://', GATEWAY_WORKERS: '2' });
    expect(() => checkRoles(workers, 'all')).toThrow(/GATEWAY_WORKERS=2 needs PostgreSQL/);
    const noBus = loadConfig({ DATABASE_URL: 'postgres://db/x', GATEWAY_WORKERS: '2' });
    expect(() => checkRoles(noBus, 'all')).toThrow(/BUS_URL=nats/);
    const ok = loadConfig({ DATABASE_URL: 'postgres://db/x', BUS_URL: 'nats://n:4222', GATEWAY_WORKERS: '2' });
    expect(() => checkRoles(ok, 'gateway')).not.toThrow();
    expect(() => checkRoles(ok, 'api')).toThrow(/does not go with --only api/);
  });

  it('the command line says so and exits with an error', async () => {
    const res = await runCarhere(['serve', '--only', 'api'], { DATABASE_URL: '', DATA_DIR: 'memory://' });
    expect(res.code).toBe(1);
    expect(res.output).toContain('--only api needs PostgreSQL');
  });
});

const baseUrl = process.env.DATABASE_URL;

describe.skipIf(!baseUrl || !natsAvailable)(
  'two gateway-only and two API-only processes on PostgreSQL and NATS',
  () => {
    let nats: TestNats;
    let db: { url: string; drop(): Promise<void> };
    let api: CarhereProcess;
    let apiB: CarhereProcess;
    let gateway: CarhereProcess;
    let gatewayB: CarhereProcess;

    beforeAll(async () => {
      nats = await startNats();
      db = await freshDatabase(baseUrl as string);
      const env = { DATABASE_URL: db.url, BUS_URL: nats.url };
      // The first process prepares the new database; the other three start together.
      api = await startCarhere(['--only', 'api'], env);
      [apiB, gateway, gatewayB] = await Promise.all([
        startCarhere(['--only', 'api'], env),
        startCarhere(['--only', 'gateway'], env),
        startCarhere(['--only', 'gateway'], env),
      ]);
    });
    afterAll(async () => {
      await Promise.all([gateway?.stop(), gatewayB?.stop(), apiB?.stop()]);
      await api?.stop();
      await nats?.stop();
      await db?.drop();
    });

    it('a device on gateway A is live in a browser on API B and answers its command; then moves to gateway B', async () => {
      // The gateway process serves no API: only health, readiness and metrics.
      const noLogin = await fetch(`${gateway.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Admin-pass-1' }),
      });
      expect([401, 404]).toContain(noLogin.status);
      expect((await fetch(`${gateway.baseUrl}/api/health`)).status).toBe(200);
      expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(200);

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const terminalId = '868120019000001';
      const device = await client.query<{ id: string }>(
        'INSERT INTO devices (terminal_id, user_id, protocol, device_type) VALUES ($1, 1, 2, 12) RETURNING id',
        [terminalId],
      );
      await client.end();
      const deviceId = String(device.rows[0].id);

      const login = await fetch(`${apiB.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Admin-pass-1' }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      expect(cookie).toMatch(/^carhere_sid=./);

      const messages: { type: string; deviceId?: string }[] = [];
      const ws = new WebSocket(`ws://127.0.0.1:${apiB.port}/api/ws`, { headers: { cookie } });
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });

      const received: string[] = [];
      const sim = new SimulatedDevice({
        protocol: 'gt06',
        terminalId,
        host: '127.0.0.1',
        port: gateway.gt06Port,
        track: new VehicleTrack({
          centerLat: 39.9,
          centerLon: 116.4,
          radiusKm: 5,
          maxSpeed: 60,
          random: seededRandom(19),
          startTime: Date.now() - 600_000,
        }),
        alarmProbability: 0,
        recordAcks: true,
        onCommand: (text) => received.push(text),
      });
      try {
        await sim.connect();
        await sim.sendPositions(3, 3, 10);
        expect(sim.stats.acked).toBe(3);
        const deadline = Date.now() + 15_000;
        while (messages.filter((m) => m.type === 'position' && m.deviceId === deviceId).length < 3) {
          if (Date.now() > deadline) throw new Error(`positions not relayed; got ${JSON.stringify(messages)}`);
          await new Promise((r) => setTimeout(r, 50));
        }

        const res = await fetch(`${apiB.baseUrl}/api/tracker_cmd`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ terminalID: terminalId, content: 'WHERE#', agentName: 'ops' }),
        });
        const body = (await res.json()) as { meta: { success: boolean }; data: { status: string; reply: string } };
        expect(body.meta.success).toBe(true);
        expect(body.data.status).toBe('answered');
        expect(received).toEqual(['WHERE#']);

        // The device moves to gateway B (gateway A closes its older session); a command through API A finds it.
        const moved = new SimulatedDevice({ ...sim.o, port: gatewayB.gt06Port });
        await moved.connect();
        const deadlineMove = Date.now() + 15_000;
        while (sim.connected) {
          if (Date.now() > deadlineMove) throw new Error('the session on gateway A did not close');
          await new Promise((r) => setTimeout(r, 50));
        }
        const again = await fetch(`${api.baseUrl}/api/tracker_cmd`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ terminalID: terminalId, content: 'STATUS#', agentName: 'ops' }),
        });
        const againBody = (await again.json()) as { meta: { success: boolean }; data: { status: string } };
        expect(againBody.data.status).toBe('answered');
        expect(received).toEqual(['WHERE#', 'STATUS#']);
        moved.stop();
      } finally {
        sim.stop();
        ws.close();
      }

      // Each process reports its own part on /metrics: frames and acknowledged positions on the gateway,
      // live subscribers and HTTP latency on the API process.
      const gatewayMetrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
      expect(gatewayMetrics).toMatch(/carhere_frames_received_total\{protocol="gt06"\} [1-9]/);
      expect(gatewayMetrics).toMatch(/carhere_positions_acknowledged_total [1-9]/);
      const apiMetrics = await (await fetch(`${apiB.baseUrl}/metrics`)).text();
      expect(apiMetrics).toMatch(
        /carhere_http_request_seconds_count\{method="POST",route="\/api\/tracker_cmd",status="200"\} 1/,
      );
    });
  },
);
