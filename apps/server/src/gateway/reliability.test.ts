// Reliability of the real server process (`carhere serve` in a child process) under kill -9:
// - every position a device received an ACK for is in the database after the crash and a restart;
// - an offline command queued before the crash is delivered after it, once per connection, and marked
//   answered when the device replies.
// Runs on a PostgreSQL server when DATABASE_URL is set (a fresh database), else on a PGlite data directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { seedFirstRun } from '../db/seed.ts';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../cli.ts');
const ADMIN_PASSWORD = 'Reliability-1';

interface Store {
  env: Record<string, string>;
  open: () => ReturnType<typeof openDatabase>;
  drop: () => Promise<void>;
}

async function createStore(): Promise<Store> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `carhere_rel_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      open: () => openDatabase({ databaseUrl: url.toString() }),
      drop: async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'carhere-rel-'));
  return {
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    open: () => openDatabase({ dataDir: dir }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface Child {
  process: ChildProcess;
  http: string;
  gt06: number;
  jt808: number;
  output: string[];
}

function startChild(store: Store): Promise<Child> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
      env: {
        ...process.env,
        ...store.env,
        PORT: '0',
        HOST: '127.0.0.1',
        GT06_PORT: '0',
        JT808_PORT: '0',
        OSMAND_PORT: '0',
        GATEWAY_HOST: '127.0.0.1',
        DEMO: '0',
        ADMIN_PASSWORD,
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    let gt06 = 0;
    let jt808 = 0;
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('')}`)), 45_000);
    const onLine = (text: string) => {
      output.push(text);
      const ports = /GT06 on port (\d+), JT\/T 808 on port (\d+)/.exec(text);
      if (ports) {
        gt06 = Number(ports[1]);
        jt808 = Number(ports[2]);
      }
      const url = /running at (http:\/\/\S+)/.exec(text);
      if (url && gt06 && jt808) {
        clearTimeout(timer);
        resolvePromise({ process: child, http: url[1].replace('localhost', '127.0.0.1'), gt06, jt808, output });
      }
    };
    child.stdout?.on('data', (d) => onLine(String(d)));
    child.stderr?.on('data', (d) => output.push(String(d)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it was ready:\n${output.join('')}`));
    });
  });
}

function killHard(child: Child): Promise<void> {
  return new Promise((r) => {
    child.process.once('exit', () => r());
    child.process.kill('SIGKILL');
  });
}

function stopGracefully(child: Child): Promise<void> {
  return new Promise((r) => {
    child.process.once('exit', () => r());
    child.process.kill('SIGTERM');
  });
}

async function api(
  child: Child,
  cookie: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: { meta: { success: boolean }; data: unknown } }> {
  const res = await fetch(`${child.http}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { meta: { success: boolean }; data: unknown } };
}

async function login(child: Child): Promise<string> {
  const res = await fetch(`${child.http}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const cookie = String(res.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('carhere_sid=')) throw new Error('login failed');
  return cookie;
}

function device(
  protocol: 'gt06' | 'jt808',
  terminalId: string,
  port: number,
  extra: Partial<ConstructorParameters<typeof SimulatedDevice>[0]> = {},
) {
  return new SimulatedDevice({
    protocol,
    terminalId,
    host: '127.0.0.1',
    port,
    recordAcks: true,
    track: new VehicleTrack({
      centerLat: 39.915,
      centerLon: 116.404,
      radiusKm: 10,
      maxSpeed: 80,
      random: seededRandom(Number(terminalId.slice(-5))),
      startTime: Date.now() - 6 * 3_600_000,
    }),
    ...extra,
  });
}

const JT808_IDS = Array.from({ length: 12 }, (_, i) => String(13_900_000_000 + i));
const GT06_IDS = Array.from({ length: 4 }, (_, i) => String(868_120_900_000_000 + i));
const COMMAND_DEVICE = '868120900000099';

describe('reliability of the server process under kill -9', () => {
  let store: Store;
  let child: Child | null = null;
  let commandId = '';

  beforeAll(async () => {
    store = await createStore();
    const db = await store.open();
    await migrate(db.pool);
    await seedFirstRun(db.db, ADMIN_PASSWORD);
    await db.db
      .insertInto('devices')
      .values([
        ...JT808_IDS.map((t) => ({ terminal_id: t, user_id: '2', protocol: 1 })),
        ...GT06_IDS.map((t) => ({ terminal_id: t, user_id: '2', protocol: 2 })),
        { terminal_id: COMMAND_DEVICE, user_id: '2', protocol: 2 },
      ])
      .execute();
    await db.close();
  }, 60_000);

  afterAll(async () => {
    if (child) await killHard(child);
    await store.drop();
  });

  it('keeps every ACKed position through kill -9 during sustained ingest; a queued command survives', async () => {
    child = await startChild(store);
    // Queue an offline command for a device that is not connected.
    const cookie = await login(child);
    const queued = await api(child, cookie, '/command/insertOffline', {
      terminalID: COMMAND_DEVICE,
      content: 'RELAY,1#',
    });
    expect(queued.json.meta.success).toBe(true);
    commandId = (queued.json.data as { id: string }).id;

    const sims = [
      ...JT808_IDS.map((t) => device('jt808', t, (child as Child).jt808)),
      ...GT06_IDS.map((t) => device('gt06', t, (child as Child).gt06)),
    ];
    await Promise.all(sims.map((s) => s.connect()));
    const running = sims.map((s) => s.sendPositions(1_000_000, 16, 1).catch(() => {}));
    // Let ingest run until plenty is ACKed, then pull the plug mid-stream.
    const until = Date.now() + 20_000;
    while (sims.reduce((n, s) => n + s.stats.acked, 0) < 3000 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    await killHard(child);
    child = null;
    await Promise.all(running);
    const acked = sims.map((s) => ({ terminalId: s.o.terminalId, times: [...s.acked], sent: s.stats.sent }));
    for (const s of sims) s.stop();
    const total = acked.reduce((n, a) => n + a.times.length, 0);
    const sent = acked.reduce((n, a) => n + a.sent, 0);
    console.log(`kill -9 after ${total} ACKed of ${sent} sent positions`);
    expect(total).toBeGreaterThanOrEqual(1000);
    expect(sent).toBeGreaterThan(total); // some were in flight, un-ACKed, when the process died

    // Restart on the same data (recovery), then check every ACKed fix is stored.
    child = await startChild(store);
    const db = await store.open();
    try {
      let missing = 0;
      for (const a of acked) {
        const rows = await db.db
          .selectFrom('positions as p')
          .innerJoin('devices as d', 'd.id', 'p.device_id')
          .select('p.time')
          .where('d.terminal_id', '=', a.terminalId)
          .execute();
        const stored = new Set(rows.map((r) => r.time.getTime()));
        for (const t of a.times) if (!stored.has(t)) missing++;
      }
      expect(missing).toBe(0);
    } finally {
      // PGlite: one process at a time on a data directory; the child serves the next test.
      await db.close();
    }
  }, 60_000);

  it('delivers the command queued before the crash once per connection and marks it answered', async () => {
    if (!child) child = await startChild(store);
    const received: number[] = [];
    let answer: string | null = null;
    const sim = device('gt06', COMMAND_DEVICE, child.gt06, {
      replyTo: () => answer,
      onCommand: (_t, connection) => received.push(connection),
    });
    await sim.connect();
    const deadline = Date.now() + 10_000;
    while (received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([1]); // once on the first connection, unanswered
    sim.disconnect();
    answer = 'RELAY,1 Success';
    await sim.connect();
    const cookie = await login(child);
    let status = '';
    while (status !== 'answered' && Date.now() < deadline + 10_000) {
      const found = await api(child, cookie, '/command/find', { terminalID: COMMAND_DEVICE });
      status =
        (found.json.data as { list: { id: string; status: string }[] }).list.find((c) => c.id === commandId)?.status ??
        '';
      if (status !== 'answered') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('answered');
    sim.disconnect();
    await sim.connect();
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([1, 2]);
    const log = await api(child, cookie, '/command/findLog', { commandId, pageSize: 20 });
    const statuses = (log.json.data as { list: { status: string }[] }).list.map((l) => l.status).reverse();
    expect(statuses).toEqual(['pending', 'sent', 'sent', 'answered']);
    sim.stop();
    await stopGracefully(child);
    child = null;
  }, 60_000);
});
