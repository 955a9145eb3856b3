// Device logins while the database is away (issue 22): `carhere serve` on a PostgreSQL cluster of the test's own
// (initdb / pg_ctl in a temp folder, never the shared server), which the test stops and starts again.
// - Devices the gateway's directory already knows (a GT06 tracker, a JT/T 808 terminal that holds its code) log
//   in while PostgreSQL is stopped; an unknown device is refused.
// - Their fixes are held (a small high-water mark: the sockets are paused) and none is acknowledged until it is
//   stored; once PostgreSQL is back, every acknowledged fix is stored and the online state caught up.
// - /api/health answers 503 while the database is down, 200 after.
// Runs in CI's PostgreSQL pass (DATABASE_URL set), where the PostgreSQL tools are installed.
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CarhereProcess,
  postgresToolsAvailable,
  startCarhere,
  startPostgres,
  type TestPostgres,
} from '../ops/test-support.ts';

const runnable = !!process.env.DATABASE_URL && postgresToolsAvailable;

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const GT06 = '868120220000001';
const JT808 = '13922000001';
const UNKNOWN = '868120229999999';
const BEFORE = 5;
const DURING = 60;
const WINDOW = 20;

describe.skipIf(!runnable)('gateway: device logins while PostgreSQL is stopped', () => {
  let postgres: TestPostgres;
  let server: CarhereProcess;
  const ids = new Map<string, string>();
  const devices: SimulatedDevice[] = [];

  const device = (protocol: 'gt06' | 'jt808', terminalId: string, seed: number, jt808AuthCode?: string | null) => {
    const d = new SimulatedDevice({
      protocol,
      terminalId,
      host: '127.0.0.1',
      port: protocol === 'gt06' ? server.gt06Port : server.jt808Port,
      track: new VehicleTrack({
        centerLat: 39.9,
        centerLon: 116.4,
        radiusKm: 5,
        maxSpeed: 60,
        random: seededRandom(seed),
        startTime: Date.now() - 3_600_000,
      }),
      alarmProbability: 0,
      recordAcks: true,
      jt808AuthCode,
    });
    devices.push(d);
    return d;
  };

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  const online = async (terminalId: string) =>
    (await query<{ online: boolean }>('SELECT online FROM device_state WHERE device_id = $1', [ids.get(terminalId)]))[0]
      ?.online ?? null;

  const queueDepth = async () => {
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    return Number(/^carhere_ingest_queue_depth (\d+)/m.exec(text)?.[1] ?? 0);
  };

  beforeAll(async () => {
    postgres = await startPostgres();
    // A high-water mark below the fixes in flight: the gateway stops reading the sockets (back-pressure).
    server = await startCarhere(
      [],
      { DATABASE_URL: postgres.url, GATEWAY_HIGH_WATER_ROWS: '16' },
      { timeoutMs: 180_000 },
    );
    const rows = await query<{ id: string; terminal_id: string }>(
      `INSERT INTO devices (terminal_id, user_id, protocol, device_type)
       VALUES ($1, 1, 2, 12), ($2, 1, 1, 1) RETURNING id, terminal_id`,
      [GT06, JT808],
    );
    for (const r of rows) ids.set(r.terminal_id, String(r.id));
  }, 240_000);
  afterAll(async () => {
    for (const d of devices) d.stop();
    await server?.stop();
    await postgres?.destroy();
  }, 60_000);

  it('known devices log in from the cache, fixes are acknowledged only once stored, the state catches up', async () => {
    // Before the outage: both devices log in (the JT/T 808 terminal registers and gets its code) and send fixes.
    const gt06 = device('gt06', GT06, 1);
    const jt808 = device('jt808', JT808, 2);
    for (const d of [gt06, jt808]) {
      await d.connect(30_000);
      await d.sendPositions(BEFORE, BEFORE);
      expect(d.stats.acked).toBe(BEFORE);
    }
    const code = jt808.jt808AuthCode;
    expect(code).toBeTruthy();
    gt06.stop();
    jt808.stop();
    for (const t of [GT06, JT808]) await waitUntil(async () => (await online(t)) === false, 30_000, `${t} offline`);

    await postgres.stop('fast');
    try {
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { meta: { success: boolean } }).meta.success).toBe(false);

      // Known devices log in while the database is away; an unknown one is refused.
      const gt06Again = device('gt06', GT06, 3);
      const jt808Again = device('jt808', JT808, 4, code);
      await gt06Again.connect(30_000);
      await jt808Again.connect(30_000);
      await expect(device('gt06', UNKNOWN, 5).connect(30_000)).rejects.toThrow();

      // Fixes go out; the gateway holds them (its ingest queue) and acknowledges none.
      const streams = [gt06Again, jt808Again].map((d) => d.sendPositions(DURING, WINDOW));
      await waitUntil(async () => (await queueDepth()) >= 2 * WINDOW, 30_000, 'the fixes held by the gateway');
      expect(gt06Again.stats.acked).toBe(0);
      expect(jt808Again.stats.acked).toBe(0);
      expect(gt06Again.connected && jt808Again.connected).toBe(true);

      await postgres.start();
      await Promise.all(streams);
      for (const d of [gt06Again, jt808Again]) {
        expect(d.connected).toBe(true);
        expect(d.stats.acked).toBe(DURING);
      }
      // Every acknowledged fix, before and during the outage, is stored.
      for (const d of [gt06, jt808, gt06Again, jt808Again]) {
        const stored = new Set(
          (
            await query<{ t: string }>(
              'SELECT (extract(epoch FROM time) * 1000)::bigint::text AS t FROM positions WHERE device_id = $1',
              [ids.get(d.o.terminalId)],
            )
          ).map((r) => Number(r.t)),
        );
        expect(d.acked.length).toBeGreaterThan(0);
        for (const t of d.acked) expect(stored.has(t)).toBe(true);
      }
      // The online-state writes of the logins during the outage caught up.
      for (const t of [GT06, JT808]) await waitUntil(async () => (await online(t)) === true, 30_000, `${t} online`);
      await waitUntil(async () => (await fetch(`${server.baseUrl}/api/health`)).status === 200, 30_000, 'health');
    } finally {
      await postgres.start().catch(() => {});
    }
  }, 240_000);
});
