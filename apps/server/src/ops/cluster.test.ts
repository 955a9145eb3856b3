// GATEWAY_WORKERS=2 as an operator starts it (`carhere serve`, PostgreSQL, a NATS server the test starts): the
// primary runs the API, two workers share the GT06 port. /metrics on the primary counts the connections of
// both workers. Then a worker is killed with kill -9: its trackers lose their connection, reconnect (to the
// other worker or the replacement the primary starts), the offline command queued for them meanwhile arrives
// exactly once, and every fix the platform acknowledged before the crash is stored.
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CarhereProcess,
  freshDatabase,
  natsAvailable,
  startCarhere,
  startNats,
  type TestNats,
} from './test-support.ts';

const baseUrl = process.env.DATABASE_URL;
const DEVICES = 6;

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Connects, retrying while no worker listens yet (or the one the primary picked has just died). */
async function connectWithRetry(sim: SimulatedDevice, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await sim.connect(5000);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Workers listening on the port (in the order they started listening). */
function workerPids(output: string, port: number): number[] {
  return [...output.matchAll(new RegExp(`gateway worker (\\d+) listening on port ${port}\\b`, 'g'))].map((m) =>
    Number(m[1]),
  );
}

describe.skipIf(!baseUrl || !natsAvailable)('GATEWAY_WORKERS=2: workers share the device ports', () => {
  let nats: TestNats;
  let db: { url: string; drop(): Promise<void> };
  let server: CarhereProcess;
  let client: pg.Client;

  beforeAll(async () => {
    nats = await startNats();
    db = await freshDatabase(baseUrl as string);
    server = await startCarhere([], { DATABASE_URL: db.url, BUS_URL: nats.url, GATEWAY_WORKERS: '2' });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    const code = await server?.stop();
    // A graceful stop of the primary and its workers ends with code 0.
    expect(code).toBe(0);
    await nats?.stop();
    await db?.drop();
  });

  it('spreads devices over the workers; after kill -9 of one they reconnect and get their offline commands', async () => {
    await waitUntil(
      () => workerPids(server.output(), server.gt06Port).length >= 2,
      120_000,
      'two gateway workers listening',
    );
    const received = new Map<string, string[]>();
    const sims: SimulatedDevice[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const terminalId = `86812002000000${i}`;
      await client.query('INSERT INTO devices (terminal_id, user_id, protocol, device_type) VALUES ($1, 1, 2, 12)', [
        terminalId,
      ]);
      received.set(terminalId, []);
      sims.push(
        new SimulatedDevice({
          protocol: 'gt06',
          terminalId,
          host: '127.0.0.1',
          port: server.gt06Port,
          track: new VehicleTrack({
            centerLat: 39.9,
            centerLon: 116.4,
            radiusKm: 5,
            maxSpeed: 60,
            random: seededRandom(100 + i),
            startTime: Date.now() - 3_600_000,
          }),
          alarmProbability: 0,
          recordAcks: true,
          onCommand: (text) => received.get(terminalId)?.push(text),
        }),
      );
    }
    try {
      for (const sim of sims) await connectWithRetry(sim);
      await Promise.all(sims.map((s) => s.sendPositions(5, 5, 10)));
      for (const s of sims) expect(s.stats.acked).toBe(5);

      // The primary's /metrics adds up both workers' connections.
      await waitUntil(
        async () =>
          /carhere_device_connections\{protocol="gt06"\} 6\b/.test(
            await (await fetch(`${server.baseUrl}/metrics`)).text(),
          ),
        10_000,
        'six GT06 connections summed over the workers on /metrics',
      );

      // kill -9 a worker that holds some of the devices.
      let lost: SimulatedDevice[] = [];
      for (const pid of workerPids(server.output(), server.gt06Port).slice(0, 2)) {
        process.kill(pid, 'SIGKILL');
        await new Promise((r) => setTimeout(r, 1500));
        lost = sims.filter((s) => !s.connected);
        if (lost.length > 0) break;
      }
      expect(lost.length).toBeGreaterThan(0);

      // While they are away, an offline command for each of them goes through the API.
      const login = await fetch(`${server.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Admin-pass-1' }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      for (const sim of lost) {
        const res = await fetch(`${server.baseUrl}/api/command/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ terminalID: sim.o.terminalId, content: 'STATUS#', offline: true, agentName: 'ops' }),
        });
        const body = (await res.json()) as { meta: { success: boolean; message: string } };
        expect(body.meta, JSON.stringify(body)).toMatchObject({ success: true });
      }

      // They reconnect (another worker, or the replacement) and the command arrives, once.
      for (const sim of lost) await connectWithRetry(sim);
      await waitUntil(
        () => lost.every((s) => (received.get(s.o.terminalId) ?? []).length > 0),
        20_000,
        'the offline commands on the new connections',
      );
      await new Promise((r) => setTimeout(r, 500));
      for (const sim of lost) expect(received.get(sim.o.terminalId)).toEqual(['STATUS#']);
      await waitUntil(
        async () => {
          const r = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM commands WHERE content = 'STATUS#' AND status = 'answered'",
          );
          return r.rows[0].n === lost.length;
        },
        10_000,
        'the offline commands answered',
      );
      // Devices that were not on the killed worker received nothing.
      for (const sim of sims.filter((s) => !lost.includes(s))) expect(received.get(sim.o.terminalId)).toEqual([]);

      // Every acknowledged fix is stored.
      for (const sim of sims) {
        const stored = await client.query<{ t: string }>(
          `SELECT (extract(epoch FROM p.time) * 1000)::bigint::text AS t FROM positions p
             JOIN devices d ON d.id = p.device_id WHERE d.terminal_id = $1`,
          [sim.o.terminalId],
        );
        const times = new Set(stored.rows.map((r) => Number(r.t)));
        for (const t of sim.acked) expect(times.has(t)).toBe(true);
      }
    } finally {
      for (const s of sims) s.stop();
    }
  });
});
