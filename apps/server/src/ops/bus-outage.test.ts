// No live gap after a bus outage (issue 22): a gateway-only and an API-only process (`carhere serve --only …`) on
// a fresh database of DATABASE_URL's server and a NATS server the test starts. NATS is killed under ingest; some
// devices send their last fix while it is away and then fall silent; NATS comes back on the same port. The
// browsers' WebSockets, never reopened, must receive those last fixes (a catch-up from the database), each
// browser only for the devices it may see.
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../modules/auth/password.ts';
import {
  type CarhereProcess,
  freshDatabase,
  natsAvailable,
  startCarhere,
  startNats,
  type TestNats,
} from './test-support.ts';

const baseUrl = process.env.DATABASE_URL;

interface LiveMessage {
  type: string;
  deviceId?: string;
  time?: string;
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A browser's live socket: every message it got, and whether it ever closed. */
interface Browser {
  ws: WebSocket;
  messages: LiveMessage[];
  closed: boolean;
  positions(deviceId: string): string[];
}

describe.skipIf(!baseUrl || !natsAvailable)('live positions after a NATS outage (split installation)', () => {
  let nats: TestNats;
  let db: { url: string; drop(): Promise<void> };
  let api: CarhereProcess;
  let gateway: CarhereProcess;
  const sims: SimulatedDevice[] = [];
  const browsers: Browser[] = [];
  /** Devices of a customer (the customer's browser sees them) and of the admin (it does not). */
  const devices: { id: string; terminalId: string; customer: boolean }[] = [];

  async function login(username: string, password: string): Promise<string> {
    const res = await fetch(`${api.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^carhere_sid=./);
    return cookie;
  }

  async function openBrowser(cookie: string): Promise<Browser> {
    const ws = new WebSocket(`ws://127.0.0.1:${api.port}/api/ws`, { headers: { cookie } });
    const b: Browser = {
      ws,
      messages: [],
      closed: false,
      positions: (id) =>
        b.messages.filter((m) => m.type === 'position' && m.deviceId === id).map((m) => String(m.time)),
    };
    ws.on('message', (data) => b.messages.push(JSON.parse(String(data))));
    ws.on('close', () => {
      b.closed = true;
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    browsers.push(b);
    return b;
  }

  beforeAll(async () => {
    nats = await startNats();
    db = await freshDatabase(baseUrl as string);
    const env = { DATABASE_URL: db.url, BUS_URL: nats.url };
    api = await startCarhere(['--only', 'api'], env);
    gateway = await startCarhere(['--only', 'gateway'], env);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const customer = await client.query<{ id: string }>(
        `INSERT INTO users (username, password_hash, role, parent_id) VALUES ('bus-customer', $1, 3, 1) RETURNING id`,
        [await hashPassword('Customer-pass-1')],
      );
      const customerId = String(customer.rows[0].id);
      await client.query(`UPDATE users SET path = '/1/' || id || '/' WHERE id = $1`, [customerId]);
      for (let i = 0; i < 6; i++) {
        const terminalId = `86812004000000${i}`;
        const owner = i % 2 === 0 ? customerId : '1';
        const row = await client.query<{ id: string }>(
          'INSERT INTO devices (terminal_id, user_id, protocol, device_type) VALUES ($1, $2, 2, 12) RETURNING id',
          [terminalId, owner],
        );
        devices.push({ id: String(row.rows[0].id), terminalId, customer: i % 2 === 0 });
      }
    } finally {
      await client.end();
    }
    for (const [i, d] of devices.entries()) {
      const sim = new SimulatedDevice({
        protocol: 'gt06',
        terminalId: d.terminalId,
        host: '127.0.0.1',
        port: gateway.gt06Port,
        track: new VehicleTrack({
          centerLat: 39.9,
          centerLon: 116.4,
          radiusKm: 5,
          maxSpeed: 60,
          random: seededRandom(40 + i),
          startTime: Date.now() - 3_600_000,
        }),
        alarmProbability: 0,
        recordAcks: true,
      });
      await sim.connect();
      sims.push(sim);
    }
  });
  afterAll(async () => {
    for (const s of sims) s.stop();
    for (const b of browsers) b.ws.close();
    await gateway?.stop();
    await api?.stop();
    await nats?.stop();
    await db?.drop();
  });

  it('the browsers get the fixes stored while NATS was away, on the same socket, each only its own devices', async () => {
    const admin = await openBrowser(await login('admin', 'Admin-pass-1'));
    const customer = await openBrowser(await login('bus-customer', 'Customer-pass-1'));

    // Live before the outage: every device's fixes reach the admin's browser over the bus.
    await Promise.all(sims.map((s) => s.sendPositions(3, 3, 10)));
    await waitUntil(() => devices.every((d) => admin.positions(d.id).length >= 3), 30_000, 'live positions');

    await nats.stop();
    await waitUntil(async () => (await fetch(`${api.baseUrl}/api/ready`)).status === 503, 15_000, 'api ready: 503');
    const before = new Map(browsers.map((b) => [b, b.messages.length]));

    // During the outage every device sends fixes, which are stored (ACKed); the first four then fall silent,
    // the last two keep reporting after NATS is back.
    await Promise.all(sims.map((s) => s.sendPositions(5, 2, 10)));
    const lastFix = sims.map((s) => new Date(s.acked[s.acked.length - 1]).toISOString());
    expect(sims.every((s) => s.stats.acked === 8)).toBe(true);
    // Nothing of the outage reached a browser (the bus was the only way).
    for (const d of devices) expect(admin.positions(d.id)).not.toContain(lastFix[devices.indexOf(d)]);

    await nats.start();
    const moving = sims.slice(4).map((s) => s.sendPositions(3, 1, 10));

    // The silent devices' last fixes of the outage reach both browsers, each only for the devices it may see.
    const silent = devices.slice(0, 4);
    await waitUntil(
      () => silent.every((d, i) => admin.positions(d.id).includes(lastFix[i])),
      30_000,
      "the silent devices' last fixes in the admin's browser",
    );
    await waitUntil(
      () => silent.every((d, i) => !d.customer || customer.positions(d.id).includes(lastFix[i])),
      30_000,
      "the silent devices' last fixes in the customer's browser",
    );
    await Promise.all(moving);
    const others = new Set(devices.filter((d) => !d.customer).map((d) => d.id));
    expect(customer.messages.slice(before.get(customer)).length).toBeGreaterThan(0);
    expect(customer.messages.filter((m) => m.deviceId && others.has(m.deviceId))).toEqual([]);

    // The same sockets throughout: nothing was reloaded or reopened.
    expect(admin.closed).toBe(false);
    expect(customer.closed).toBe(false);
    expect(admin.messages.filter((m) => m.type === 'hello')).toHaveLength(1);
    // The moving devices: their newest fix arrives (over the bus again, or in the catch-up that superseded the
    // outage's fixes with the latest state).
    const newest = sims.slice(4).map((s) => new Date(s.acked[s.acked.length - 1]).toISOString());
    await waitUntil(
      () => devices.slice(4).every((d, i) => admin.positions(d.id).includes(newest[i])),
      30_000,
      "the moving devices' newest fixes",
    );
  });
});
