// Faults survived by a split installation: a gateway-only and an API-only process (`carhere serve --only …`) on a
// PostgreSQL cluster of the test's own (initdb / pg_ctl in a temp folder, never the shared server) and a NATS
// server the test starts.
// - PostgreSQL restarted during ingest: /api/health answers 503 while it is gone, the gateway stops
//   acknowledging and resumes by itself; every acknowledged fix is stored.
// - NATS restarted: live positions reach the browser's WebSocket again and commands are routed and answered.
// Runs in CI's PostgreSQL pass (DATABASE_URL set), where the PostgreSQL tools are installed.
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type CarhereProcess,
  natsAvailable,
  postgresToolsAvailable,
  startCarhere,
  startNats,
  startPostgres,
  type TestNats,
  type TestPostgres,
} from './test-support.ts';

const runnable = !!process.env.DATABASE_URL && natsAvailable && postgresToolsAvailable;

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!runnable)('faults: PostgreSQL and NATS restarted under a split installation', () => {
  let postgres: TestPostgres;
  let nats: TestNats;
  let api: CarhereProcess;
  let gateway: CarhereProcess;
  let sim: SimulatedDevice;
  let deviceId: string;
  let cookie: string;
  const terminalId = '868120030000001';
  const commands: string[] = [];
  const live: { type: string; deviceId?: string; time?: string }[] = [];
  let ws: WebSocket;

  beforeAll(async () => {
    postgres = await startPostgres();
    nats = await startNats();
    const env = { DATABASE_URL: postgres.url, BUS_URL: nats.url, COMMAND_TIMEOUT_MS: '5000' };
    api = await startCarhere(['--only', 'api'], env);
    gateway = await startCarhere(['--only', 'gateway'], env);
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const row = await client.query<{ id: string }>(
      'INSERT INTO devices (terminal_id, user_id, protocol, device_type) VALUES ($1, 1, 2, 12) RETURNING id',
      [terminalId],
    );
    await client.end();
    deviceId = String(row.rows[0].id);
    const login = await fetch(`${api.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Admin-pass-1' }),
    });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    ws = new WebSocket(`ws://127.0.0.1:${api.port}/api/ws`, { headers: { cookie } });
    ws.on('message', (data) => live.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    sim = new SimulatedDevice({
      protocol: 'gt06',
      terminalId,
      host: '127.0.0.1',
      port: gateway.gt06Port,
      track: new VehicleTrack({
        centerLat: 39.9,
        centerLon: 116.4,
        radiusKm: 5,
        maxSpeed: 60,
        random: seededRandom(30),
        startTime: Date.now() - 6 * 3_600_000,
      }),
      alarmProbability: 0,
      recordAcks: true,
      onCommand: (text) => commands.push(text),
    });
    await sim.connect();
  });
  afterAll(async () => {
    sim?.stop();
    ws?.close();
    await gateway?.stop();
    await api?.stop();
    await nats?.stop();
    await postgres?.destroy();
  });

  async function storedTimes(): Promise<Set<number>> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const r = await client.query<{ t: string }>(
        'SELECT (extract(epoch FROM time) * 1000)::bigint::text AS t FROM positions WHERE device_id = $1',
        [deviceId],
      );
      return new Set(r.rows.map((x) => Number(x.t)));
    } finally {
      await client.end();
    }
  }

  /** A live command through the API process; answers the envelope. */
  async function command(content: string): Promise<{ meta: { success: boolean }; data: { status: string } }> {
    const res = await fetch(`${api.baseUrl}/api/tracker_cmd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ terminalID: terminalId, content, agentName: 'ops' }),
    });
    return (await res.json()) as { meta: { success: boolean }; data: { status: string } };
  }

  it('PostgreSQL restarted during ingest: 503 while it is gone, ingest resumes, every ACKed fix is stored', async () => {
    // A steady stream: at most 10 fixes unacknowledged at a time, each waiting for its commit.
    const streaming = sim.sendPositions(400, 10, 10);
    await waitUntil(() => sim.stats.acked >= 50, 30_000, 'the first fixes acknowledged');
    await postgres.stop('fast');
    const health = await fetch(`${api.baseUrl}/api/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { meta: { success: boolean } }).meta.success).toBe(false);
    expect((await fetch(`${gateway.baseUrl}/api/ready`)).status).toBe(503);
    // Nothing is acknowledged while the database is away.
    const ackedWhileDown = sim.stats.acked;
    await new Promise((r) => setTimeout(r, 2000));
    expect(sim.stats.acked - ackedWhileDown).toBeLessThanOrEqual(10);
    await postgres.start();
    await streaming;
    expect(sim.connected).toBe(true);
    expect(sim.stats.acked).toBe(400);
    const stored = await storedTimes();
    for (const t of sim.acked) expect(stored.has(t)).toBe(true);
    await waitUntil(async () => (await fetch(`${api.baseUrl}/api/health`)).status === 200, 20_000, 'health again');
  });

  it('NATS restarted: live positions and command routing resume by themselves', async () => {
    expect((await command('BEFORE#')).data.status).toBe('answered');
    await nats.stop();
    await waitUntil(async () => (await fetch(`${api.baseUrl}/api/ready`)).status === 503, 10_000, 'ready: 503');
    await new Promise((r) => setTimeout(r, 1000));
    await nats.start();
    await waitUntil(async () => (await fetch(`${api.baseUrl}/api/ready`)).status === 200, 30_000, 'ready again');
    await waitUntil(async () => (await fetch(`${gateway.baseUrl}/api/ready`)).status === 200, 30_000, 'ready');

    const seen = live.length;
    await sim.sendPositions(5, 5, 10);
    // The five new fixes arrive live (the catch-up after the outage may add the device's latest state beside them).
    const fresh = sim.acked.slice(-5).map((t) => new Date(t).toISOString());
    await waitUntil(
      () => {
        const got = new Set(
          live
            .slice(seen)
            .filter((m) => m.type === 'position' && m.deviceId === deviceId)
            .map((m) => m.time),
        );
        return fresh.every((t) => got.has(t));
      },
      15_000,
      'live positions after the NATS restart',
    );
    const after = await command('AFTER#');
    expect(after.meta.success).toBe(true);
    expect(after.data.status).toBe('answered');
    expect(commands).toEqual(['BEFORE#', 'AFTER#']);
    const stored = await storedTimes();
    for (const t of sim.acked) expect(stored.has(t)).toBe(true);
  });
});
