import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiClient } from '../testing/harness.ts';
import { type DeviceEnvelope, Subjects } from './events.ts';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from './test-support.ts';

async function positionsOf(server: GatewayTestServer, deviceId: string): Promise<number[]> {
  const rows = await server.ctx.db
    .selectFrom('positions')
    .select('time')
    .where('device_id', '=', deviceId)
    .orderBy('time')
    .execute();
  return rows.map((r) => r.time.getTime());
}

describe('gateway over TCP', () => {
  let server: GatewayTestServer;
  const events: DeviceEnvelope[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer();
    server.ctx.bus.subscribe(Subjects.allDevice, (p) => events.push(p as DeviceEnvelope));
  });
  afterAll(async () => {
    await server.close();
  });

  it('binds the listeners to ephemeral ports', () => {
    expect(server.gateway.ports.gt06).toBeGreaterThan(0);
    expect(server.gateway.ports.jt808).toBeGreaterThan(0);
    expect(server.gateway.ports.gt06).not.toBe(server.gateway.ports.jt808);
  });

  it('a GT06 device logs in; its positions are ACKed only once stored; state, activation and log follow', async () => {
    const terminalId = newTerminalId('gt06');
    const deviceId = await addDevice(server, terminalId, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', terminalId);
    await sim.connect();
    await sim.sendPositions(20, 4, 10);
    expect(sim.stats.acked).toBe(20);
    const stored = await positionsOf(server, deviceId);
    for (const t of sim.acked) expect(stored).toContain(t);
    const state = await waitFor(
      async () => {
        const s = await server.ctx.db
          .selectFrom('device_state')
          .selectAll()
          .where('device_id', '=', deviceId)
          .executeTakeFirst();
        return s?.pos_time?.getTime() === Math.max(...sim.acked) ? s : null;
      },
      5000,
      'device state',
    );
    expect(state.online).toBe(true);
    expect(state.lat).toBeGreaterThan(39.7);
    expect(state.lon).toBeGreaterThan(116.2);
    const device = await waitFor(
      () =>
        server.ctx.db
          .selectFrom('devices')
          .select('activated_at')
          .where('id', '=', deviceId)
          .where('activated_at', 'is not', null)
          .executeTakeFirst(),
      5000,
      'activation',
    );
    expect(device.activated_at).not.toBeNull();
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .selectAll()
      .where('terminal_id', '=', terminalId)
      .execute();
    expect(log.map((l) => l.event)).toContain('login');
    const mine = events.filter((e) => e.event.deviceId === deviceId && e.event.type === 'position');
    expect(mine).toHaveLength(20);
    expect(mine[0].path).toBe('/1/2/');
    sim.stop();
  });

  it('a JT/T 808 device registered with 11 digits registers, authenticates and reports (header carries 12)', async () => {
    const terminalId = newTerminalId('jt808');
    const deviceId = await addDevice(server, terminalId, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', terminalId);
    await sim.connect();
    await sim.sendPositions(15, 5, 10);
    expect(sim.stats.acked).toBe(15);
    const stored = await positionsOf(server, deviceId);
    expect(stored).toEqual([...sim.acked].sort((a, b) => a - b));
    const row = await server.ctx.db
      .selectFrom('positions')
      .selectAll()
      .where('device_id', '=', deviceId)
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(row.valid).toBe(true);
    expect(row.mileage).not.toBeNull();
    sim.stop();
  });

  it('refuses an unknown device, records it, and never creates it', async () => {
    for (const protocol of ['gt06', 'jt808'] as const) {
      const terminalId = newTerminalId(protocol);
      const sim = simulatedDevice(server.gateway, protocol, terminalId);
      await expect(sim.connect(5000)).rejects.toThrow(/closed before login/);
      const log = await waitFor(
        () =>
          server.ctx.db
            .selectFrom('device_log')
            .selectAll()
            .where('terminal_id', 'like', `%${terminalId}`)
            .executeTakeFirst(),
        5000,
        'refusal log',
      );
      expect(log.event).toBe('refused');
      const created = await server.ctx.db
        .selectFrom('devices')
        .select('id')
        .where('terminal_id', 'like', `%${terminalId}`)
        .execute();
      expect(created).toEqual([]);
    }
  });

  it('keeps a device that sends thousands of frames back to back (shared 7E delimiters are not garbage)', async () => {
    const terminalId = newTerminalId('jt808');
    const deviceId = await addDevice(server, terminalId, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', terminalId);
    await sim.connect();
    await sim.sendPositions(3000, 64, 1);
    expect(sim.connected).toBe(true);
    expect(sim.stats.acked).toBe(3000);
    expect((await positionsOf(server, deviceId)).length).toBe(3000);
    sim.stop();
  });

  it('disconnects a device sending garbage while another keeps ingesting', async () => {
    const goodId = newTerminalId('jt808');
    const badId = newTerminalId('gt06');
    const goodDevice = await addDevice(server, goodId, 'jt808');
    const badDevice = await addDevice(server, badId, 'gt06');
    const good = simulatedDevice(server.gateway, 'jt808', goodId);
    const bad = simulatedDevice(server.gateway, 'gt06', badId);
    await good.connect();
    await bad.connect();
    const ingest = good.sendPositions(300, 8, 5);
    for (let i = 0; i < 40 && bad.connected; i++) {
      // well-framed nonsense and raw noise, both
      bad.sendRaw(Buffer.from('787805ffffffffff0d0a', 'hex'));
      bad.sendRaw(Buffer.from(Array.from({ length: 64 }, (_, k) => (k * 37 + i) & 0xff)));
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => !bad.connected, 5000, 'garbage device disconnected');
    await ingest;
    expect(good.stats.acked).toBe(300);
    expect((await positionsOf(server, goodDevice)).length).toBe(300);
    const log = await waitFor(
      () =>
        server.ctx.db
          .selectFrom('device_log')
          .selectAll()
          .where('device_id', '=', badDevice)
          .where('event', '=', 'garbage')
          .executeTakeFirst(),
      5000,
      'garbage log',
    );
    expect(log.detail).toMatch(/undecodable/);
    good.stop();
    bad.stop();
  });

  it('closes a connection that sends fixes but never identifies itself', async () => {
    const sim = simulatedDevice(server.gateway, 'gt06', newTerminalId('gt06'));
    const { gt06Location } = await import('@carhere/simulator');
    const socket = (await import('node:net')).connect({ host: '127.0.0.1', port: server.gateway.ports.gt06 });
    await new Promise((r) => socket.once('connect', r));
    // The server may reset the connection while we are still writing: that is the behaviour under test.
    const errors: string[] = [];
    socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
    const closed = new Promise((r) => socket.once('close', r));
    const fix = sim.o.track.next(10);
    for (let i = 1; i <= 20; i++) socket.write(gt06Location(i, fix));
    await closed;
    expect(socket.destroyed).toBe(true);
    expect(errors.every((code) => code === 'ECONNRESET' || code === 'EPIPE')).toBe(true);
  });

  it('a reconnecting device replaces its old session and stays online; closing goes offline without an alarm', async () => {
    const terminalId = newTerminalId('gt06');
    const deviceId = await addDevice(server, terminalId, 'gt06');
    const first = simulatedDevice(server.gateway, 'gt06', terminalId);
    await first.connect();
    const second = simulatedDevice(server.gateway, 'gt06', terminalId);
    await second.connect();
    await waitFor(() => !first.connected, 5000, 'old session closed');
    await second.sendPositions(3, 3, 10);
    const online = await server.ctx.db
      .selectFrom('device_state')
      .select(['online'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(online.online).toBe(true);
    expect(server.gateway.registry.sessionOf(deviceId)).toBeDefined();
    await server.gateway.log.flush();
    const logs = await server.ctx.db
      .selectFrom('device_log')
      .select('event')
      .where('device_id', '=', deviceId)
      .execute();
    expect(logs.map((l) => l.event)).toContain('replaced');

    second.stop();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_state')
            .select(['online'])
            .where('device_id', '=', deviceId)
            .executeTakeFirstOrThrow()
        ).online === false,
      5000,
      'offline',
    );
    // A disconnect is not an outage: the offline alarm waits for the silence threshold (hardening.test.ts).
    const alarms = await server.ctx.db
      .selectFrom('alarms')
      .select('id')
      .where('device_id', '=', deviceId)
      .where('type', '=', 20)
      .execute();
    expect(alarms).toEqual([]);
    const off = await server.ctx.db
      .selectFrom('device_state')
      .select(['online'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(off.online).toBe(false);
    const states = events
      .filter((e) => e.event.deviceId === deviceId && e.event.type === 'state')
      .map((e) => (e.event as { online: boolean }).online);
    expect(states.at(-1)).toBe(false);
  });

  it('keeps out-of-range fixes out of positions but still ACKs them', async () => {
    const terminalId = newTerminalId('gt06');
    const deviceId = await addDevice(server, terminalId, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', terminalId);
    await sim.connect();
    const now = Math.floor(Date.now() / 1000) * 1000;
    const fix = {
      time: now - 60_000,
      lat: 39.9,
      lon: 116.4,
      speed: 10,
      course: 0,
      altitude: 0,
      satellites: 8,
      mileage: 0,
      acc: true,
      battery: 80,
    };
    sim.sendFix({ ...fix, time: now + 5 * 86_400_000 });
    sim.sendFix(fix);
    await waitFor(() => sim.stats.acked === 2, 5000, 'acks');
    expect(await positionsOf(server, deviceId)).toEqual([fix.time]);
    const log = await waitFor(
      () =>
        server.ctx.db
          .selectFrom('device_log')
          .selectAll()
          .where('device_id', '=', deviceId)
          .where('event', '=', 'invalidPosition')
          .executeTakeFirst(),
      5000,
      'invalid position log',
    );
    expect(log.detail).toMatch(/1 fix/);
    sim.stop();
  });

  it('stores device alarms (SOS) and raises overspeed after 10 s above the 120 km/h default limit', async () => {
    const terminalId = newTerminalId('jt808');
    const deviceId = await addDevice(server, terminalId, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', terminalId);
    await sim.connect();
    const base = { lat: 39.9, lon: 116.4, course: 0, altitude: 0, satellites: 8, mileage: 0, acc: true, battery: 80 };
    const now = Math.floor(Date.now() / 1000) * 1000;
    sim.sendFix({ ...base, time: now - 30_000, speed: 60 }, 'sos');
    sim.sendFix({ ...base, time: now - 20_000, speed: 130 });
    sim.sendFix({ ...base, time: now - 10_000, speed: 140 });
    await waitFor(() => sim.stats.acked === 3, 5000, 'acks');
    const alarms = await server.ctx.db
      .selectFrom('alarms')
      .select(['type', 'source', 'speed'])
      .where('device_id', '=', deviceId)
      .orderBy('time')
      .execute();
    expect(alarms).toEqual([
      { type: 1, source: 'device', speed: 60 },
      { type: 6, source: 'derived', speed: 140 }, // established by the fix 10 s after the first one over
    ]);
    sim.stop();
  });
});

describe('idle connections', () => {
  let server: GatewayTestServer;
  beforeAll(async () => {
    server = await createGatewayTestServer({}, { idleMs: 400 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('closes a silent connection after the idle timeout and marks the device offline', async () => {
    const terminalId = newTerminalId('gt06');
    const deviceId = await addDevice(server, terminalId, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', terminalId);
    await sim.connect();
    expect(sim.connected).toBe(true);
    await waitFor(() => !sim.connected, 5000, 'idle close');
    const state = await waitFor(
      async () => {
        const s = await server.ctx.db
          .selectFrom('device_state')
          .select(['online'])
          .where('device_id', '=', deviceId)
          .executeTakeFirst();
        return s && !s.online ? s : null;
      },
      5000,
      'offline',
    );
    expect(state.online).toBe(false);
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .select('event')
      .where('device_id', '=', deviceId)
      .execute();
    expect(log.map((l) => l.event)).toContain('idle');
  });

  it('the sweeper marks a device offline that a dead gateway left online', async () => {
    const terminalId = newTerminalId('jt808');
    const deviceId = await addDevice(server, terminalId, 'jt808');
    await server.ctx.db
      .insertInto('device_state')
      .values({
        device_id: deviceId,
        online: true,
        last_seen: new Date(Date.now() - 3_600_000),
        session_key: 'dead-process',
        attributes: '{}',
      })
      .execute();
    expect(await server.gateway.sweeper.sweepSilentDevices()).toBeGreaterThanOrEqual(1);
    const s = await server.ctx.db
      .selectFrom('device_state')
      .select(['online', 'session_key'])
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(s).toEqual({ online: false, session_key: null });
    // Silent for an hour: past the offline alarm threshold, which the once-a-minute check raises.
    expect(await server.gateway.sweeper.raiseOfflineAlarms()).toBeGreaterThanOrEqual(1);
    const alarm = await server.ctx.db
      .selectFrom('alarms')
      .select('type')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    expect(alarm?.type).toBe(20);
  });
});

describe('live WebSocket', () => {
  let server: GatewayTestServer;
  let base: string;
  beforeAll(async () => {
    server = await createGatewayTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/api/ws`;
  });
  afterAll(async () => {
    await server.close();
  });

  function open(cookie: string): Promise<{ ws: WebSocket; messages: { type: string; deviceId?: string }[] }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(base, { headers: cookie ? { cookie } : {} });
      const messages: { type: string; deviceId?: string }[] = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      ws.on('open', () => resolve({ ws, messages }));
      ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.on('error', reject);
    });
  }

  it('refuses the upgrade without a session', async () => {
    await expect(open('')).rejects.toThrow(/HTTP 401/);
  });

  it('pushes positions, states and alarms only for devices in the user’s subtree', async () => {
    const demo = new ApiClient(server);
    await demo.post('/login/demo');
    const { ws, messages } = await open(demo.cookie);
    await waitFor(() => messages.some((m) => m.type === 'hello'), 5000, 'hello');

    const mineTid = newTerminalId('gt06');
    const otherTid = newTerminalId('gt06');
    const mine = await addDevice(server, mineTid, 'gt06');
    const other = await addDevice(server, otherTid, 'gt06', { userId: '1' });
    const a = simulatedDevice(server.gateway, 'gt06', mineTid);
    const b = simulatedDevice(server.gateway, 'gt06', otherTid);
    await a.connect();
    await b.connect();
    await a.sendPositions(5, 5, 10);
    await b.sendPositions(5, 5, 10);
    a.sendFix(
      {
        time: Math.floor(Date.now() / 1000) * 1000,
        lat: 39.9,
        lon: 116.4,
        speed: 0,
        course: 0,
        altitude: 0,
        satellites: 5,
        mileage: 0,
        acc: true,
        battery: 50,
      },
      'sos',
    );
    await waitFor(() => messages.filter((m) => m.type === 'alarm').length === 1, 5000, 'alarm message');
    const positions = messages.filter((m) => m.type === 'position');
    expect(positions.length).toBe(6);
    expect(positions.every((m) => m.deviceId === mine)).toBe(true);
    expect(messages.some((m) => m.type === 'state' && m.deviceId === mine)).toBe(true);
    expect(messages.some((m) => m.deviceId === other)).toBe(false);

    ws.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => messages.some((m) => m.type === 'pong'), 5000, 'pong');

    // watch narrows to the listed devices
    ws.send(JSON.stringify({ type: 'watch', deviceIds: ['0'] }));
    await new Promise((r) => setTimeout(r, 50));
    const before = messages.length;
    await a.sendPositions(3, 3, 10);
    await new Promise((r) => setTimeout(r, 100));
    expect(messages.length).toBe(before);
    a.stop();
    b.stop();
    ws.close();
  });

  it('an admin sees every device', async () => {
    const admin = new ApiClient(server);
    const { TEST_ADMIN_PASSWORD } = await import('../testing/harness.ts');
    await admin.login('admin', TEST_ADMIN_PASSWORD);
    const { ws, messages } = await open(admin.cookie);
    const tid = newTerminalId('jt808');
    const id = await addDevice(server, tid, 'jt808', { userId: null });
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    await sim.sendPositions(2, 2, 10);
    await waitFor(
      () => messages.filter((m) => m.type === 'position' && m.deviceId === id).length === 2,
      5000,
      'admin positions',
    );
    sim.stop();
    ws.close();
  });
});
