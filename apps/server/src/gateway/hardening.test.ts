// Gateway hardening over real TCP (issue 12): JT/T 808 authentication, checksums with the per-model switch, a
// device on the other protocol's port, and the offline alarm raised only after a silence.
import { connect, type Socket } from 'node:net';
import { gt06Location, gt06Login, Jt808ServerReader, Jt808Terminal } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from './component.ts';
import { gatewayOptionsFrom } from './options.ts';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  waitFor,
} from './test-support.ts';

type Jt808Frame = ReturnType<Jt808ServerReader['push']>[number];

/** A bare JT/T 808 terminal on a socket: sends frames, collects what the platform answers. */
class RawJt808 {
  readonly frames: Jt808Frame[] = [];
  private readonly reader = new Jt808ServerReader();
  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => this.frames.push(...this.reader.push(chunk)));
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawJt808> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new RawJt808(socket)));
      socket.once('error', reject);
    });
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  answer(messageId: number, serial: number): Promise<Jt808Frame> {
    return waitFor(
      () => this.frames.find((f) => f.answered?.messageId === messageId && f.answered.serial === serial),
      5000,
      `answer to 0x${messageId.toString(16)} #${serial}`,
    );
  }

  close(): void {
    this.socket.destroy();
  }
}

const fixAt = (time: number, lat = 39.9, lon = 116.4) => ({
  time,
  lat,
  lon,
  speed: 30,
  course: 90,
  altitude: 50,
  satellites: 9,
  mileage: 1000,
  acc: true,
  battery: 80,
});

/** Flips a bit in the middle of a frame (not a delimiter), so only its checksum can tell. */
function corrupt(frame: Buffer, at: number): Buffer {
  const copy = Buffer.from(frame);
  copy[at] ^= 0x01;
  return copy;
}

async function positionTimes(deviceId: string): Promise<number[]> {
  await server.gateway.batcher.flush();
  const rows = await server.ctx.db
    .selectFrom('positions')
    .select('time')
    .where('device_id', '=', deviceId)
    .orderBy('time')
    .execute();
  return rows.map((r) => r.time.getTime());
}

async function logEvents(terminalId: string): Promise<{ event: string; detail: string }[]> {
  await server.gateway.log.flush();
  return server.ctx.db
    .selectFrom('device_log')
    .select(['event', 'detail'])
    .where('terminal_id', '=', terminalId)
    .orderBy('id')
    .execute();
}

// One server for the file (each test uses its own devices).
let server: GatewayTestServer;
beforeAll(async () => {
  server = await createGatewayTestServer();
});
afterAll(async () => {
  // A test restarts the gateway: stop the current one (the harness stops the first).
  await server.gateway.stop();
  await server.close();
});

describe('JT/T 808 authentication over TCP', () => {
  it('refuses data from a terminal that never authenticated: 0x8001 failure, nothing stored, logged', async () => {
    const tid = newTerminalId('jt808');
    const deviceId = await addDevice(server, tid, 'jt808');
    const terminal = new Jt808Terminal(tid);
    const raw = await RawJt808.open(server.gateway.ports.jt808);
    raw.send(terminal.location(7, fixAt(Date.now() - 60_000)));
    expect((await raw.answer(0x0200, 7)).answered?.result).toBe(1);
    // The old fixed code (the terminal id itself) is no code at all.
    raw.send(terminal.auth(8, tid));
    expect((await raw.answer(0x0102, 8)).answered?.result).toBe(1);
    raw.send(terminal.location(9, fixAt(Date.now() - 50_000)));
    expect((await raw.answer(0x0200, 9)).answered?.result).toBe(1);
    raw.close();
    expect(await positionTimes(deviceId)).toEqual([]);
    const state = await server.ctx.db
      .selectFrom('device_state')
      .select('online')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    expect(state?.online ?? false).toBe(false);
    const events = await logEvents(tid);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['unauthenticated', 'authFailed']));
    expect(events.find((e) => e.event === 'unauthenticated')?.detail).toMatch(/0x0200 before authentication/);
    expect(events.map((e) => e.event)).not.toContain('login');
  });

  it('issues a random code per device, keeps it in the database, and accepts only that code', async () => {
    const a = newTerminalId('jt808');
    const b = newTerminalId('jt808');
    const idA = await addDevice(server, a, 'jt808');
    await addDevice(server, b, 'jt808');
    const simA = simulatedDevice(server.gateway, 'jt808', a);
    const simB = simulatedDevice(server.gateway, 'jt808', b);
    await simA.connect();
    await simB.connect();
    const codeA = simA.jt808AuthCode;
    expect(codeA).toMatch(/^[0-9a-f]{16}$/);
    expect(codeA).not.toBe(simB.jt808AuthCode);
    expect(codeA).not.toContain(a);
    const row = await server.ctx.db
      .selectFrom('devices')
      .select('jt808_auth_code')
      .where('id', '=', idA)
      .executeTakeFirstOrThrow();
    expect(row.jt808_auth_code).toBe(codeA);
    await simA.sendPositions(3, 3, 10);
    expect(simA.stats.acked).toBe(3);
    expect(await positionTimes(idA)).toHaveLength(3);
    simA.stop();
    simB.stop();

    // B's code does not open A.
    const raw = await RawJt808.open(server.gateway.ports.jt808);
    const terminal = new Jt808Terminal(a);
    raw.send(terminal.auth(1, simB.jt808AuthCode ?? ''));
    expect((await raw.answer(0x0102, 1)).answered?.result).toBe(1);
    raw.send(terminal.auth(2, codeA ?? ''));
    expect((await raw.answer(0x0102, 2)).answered?.result).toBe(0);
    raw.send(terminal.location(3, fixAt(Date.now() - 10_000)));
    expect((await raw.answer(0x0200, 3)).answered?.result).toBe(0);
    raw.close();
    expect(await positionTimes(idA)).toHaveLength(4);
  });

  it('a terminal re-authenticates with its stored code after the gateway restarts (no new registration)', async () => {
    const tid = newTerminalId('jt808');
    const deviceId = await addDevice(server, tid, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    const code = sim.jt808AuthCode;
    sim.disconnect();
    await server.gateway.stop();
    const base = gatewayOptionsFrom(server.ctx.config, server.ctx.dbHandle.kind, {});
    server.gateway = await startGateway(
      server.ctx,
      { ...base, host: '127.0.0.1', gt06Port: 0, jt808Port: 0, osmandPort: 0 },
      { onError: () => {} },
    );
    // The same terminal (it keeps its code) on the new process.
    const again = simulatedDevice(server.gateway, 'jt808', tid, { jt808AuthCode: code });
    await again.connect();
    expect(again.jt808AuthCode).toBe(code);
    await again.sendPositions(2, 2, 10);
    expect(again.stats.acked).toBe(2);
    expect(await positionTimes(deviceId)).toHaveLength(2);
    again.stop();
    const events = (await logEvents(tid)).map((e) => e.event);
    expect(events.filter((e) => e === 'register')).toHaveLength(1);
    expect(events.filter((e) => e === 'login')).toHaveLength(2);
  });
});

describe('checksums over TCP', () => {
  it('GT06: a frame with a bad CRC between two good ones is dropped and logged; the good ones are stored', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid);
    await sim.connect();
    const t0 = Date.now() - 120_000;
    sim.sendRaw(gt06Location(101, fixAt(t0)));
    sim.sendRaw(corrupt(gt06Location(102, fixAt(t0 + 10_000, 39.95)), 12));
    sim.sendRaw(gt06Location(103, fixAt(t0 + 20_000)));
    const stored = await waitFor(
      async () => {
        const times = await positionTimes(deviceId);
        return times.length >= 2 ? times : null;
      },
      5000,
      'good fixes',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await positionTimes(deviceId)).toEqual([t0, t0 + 20_000].map((t) => Math.floor(t / 1000) * 1000));
    expect(stored).toHaveLength(2);
    expect(sim.connected).toBe(true);
    const events = await logEvents(tid);
    expect(events.find((e) => e.event === 'badChecksum')?.detail).toMatch(/CRC-ITU/);
    sim.stop();
  });

  it('JT/T 808: a frame with a bad XOR between two good ones is dropped and logged; the good ones are stored', async () => {
    const tid = newTerminalId('jt808');
    const deviceId = await addDevice(server, tid, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    const terminal = new Jt808Terminal(tid);
    const t0 = Date.now() - 120_000;
    sim.sendRaw(terminal.location(201, fixAt(t0)));
    sim.sendRaw(corrupt(terminal.location(202, fixAt(t0 + 10_000)), 25));
    sim.sendRaw(terminal.location(203, fixAt(t0 + 20_000)));
    await waitFor(async () => (await positionTimes(deviceId)).length >= 2, 5000, 'good fixes');
    await new Promise((r) => setTimeout(r, 300));
    expect(await positionTimes(deviceId)).toEqual([t0, t0 + 20_000].map((t) => Math.floor(t / 1000) * 1000));
    expect(sim.connected).toBe(true);
    expect((await logEvents(tid)).map((e) => e.event)).toContain('badChecksum');
    sim.stop();
  });

  it('a model switched to accept bad checksums (admin setting) keeps its corrupted frames', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(server, tid, 'gt06', { deviceType: 77 });
    const admin = await adminClient(server);
    const saved = await admin.post<{ deviceType: number; acceptBadChecksums: boolean }[]>(
      '/gateway/modelSettings/save',
      { deviceType: 77, acceptBadChecksums: true, offlineAlarmMinutes: null },
    );
    expect(saved.meta.success).toBe(true);
    expect(saved.data).toContainEqual({ deviceType: 77, acceptBadChecksums: true, offlineAlarmMinutes: null });
    await waitFor(() => server.gateway.models.acceptsBadChecksums(77), 5000, 'settings reloaded');
    const raw = connect({ host: '127.0.0.1', port: server.gateway.ports.gt06 });
    raw.on('error', () => {});
    const t0 = Date.now() - 60_000;
    // Even the login may carry a bad CRC for such a model.
    raw.write(corrupt(gt06Login(tid, 1), 13)); // the serial
    raw.write(corrupt(gt06Location(2, fixAt(t0)), 12));
    await waitFor(async () => (await positionTimes(deviceId)).length === 1, 5000, 'lenient fix');
    raw.destroy();

    const found = await admin.post<unknown[]>('/gateway/modelSettings/find', {});
    expect(found.data).toContainEqual({ deviceType: 77, acceptBadChecksums: true, offlineAlarmMinutes: null });
    const demo = await demoClient(server);
    const denied = await demo.post('/gateway/modelSettings/save', {
      deviceType: 12,
      acceptBadChecksums: true,
      offlineAlarmMinutes: null,
    });
    expect(denied.status).toBe(403);
    expect((await demo.post('/gateway/modelSettings/find', {})).status).toBe(403);
    const bad = await admin.post('/gateway/modelSettings/save', {
      deviceType: 'x',
      acceptBadChecksums: true,
      offlineAlarmMinutes: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.meta.success).toBe(false);
  });
});

describe('one port, one protocol', () => {
  it('a JT/T 808 device on the GT06 port is served as JT/T 808 (logged), never read as GT06', async () => {
    const tid = newTerminalId('jt808');
    const deviceId = await addDevice(server, tid, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', tid, { port: server.gateway.ports.gt06 });
    await sim.connect();
    await sim.sendPositions(3, 3, 10);
    expect(sim.stats.acked).toBe(3);
    const stored = await positionTimes(deviceId);
    expect(stored).toHaveLength(3);
    for (const t of sim.acked) expect(stored).toContain(t);
    sim.stop();
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .select(['detail', 'protocol'])
      .where('event', '=', 'otherProtocol')
      .where('protocol', '=', 'jt808')
      .execute();
    expect(log[0]?.detail).toMatch(/JT\/T 808 device on the GT06 port/);
  });

  it('a GT06 device on the JT/T 808 port is served as GT06 (logged)', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid, { port: server.gateway.ports.jt808 });
    await sim.connect();
    await sim.sendPositions(3, 3, 10);
    expect(sim.stats.acked).toBe(3);
    expect(await positionTimes(deviceId)).toHaveLength(3);
    sim.stop();
    await server.gateway.log.flush();
    const log = await server.ctx.db
      .selectFrom('device_log')
      .select('detail')
      .where('event', '=', 'otherProtocol')
      .where('protocol', '=', 'gt06')
      .execute();
    expect(log[0]?.detail).toMatch(/GT06 device on the JT\/T 808 port/);
  });
});

describe('offline alarm after a silence, once per outage', () => {
  async function offlineAlarms(deviceId: string): Promise<Date[]> {
    const rows = await server.ctx.db
      .selectFrom('alarms')
      .select('time')
      .where('device_id', '=', deviceId)
      .where('type', '=', 20)
      .execute();
    return rows.map((r) => r.time);
  }

  async function silentFor(deviceId: string, minutes: number): Promise<void> {
    await server.ctx.db
      .updateTable('device_state')
      .set({ last_seen: new Date(Date.now() - minutes * 60_000), online: false })
      .where('device_id', '=', deviceId)
      .execute();
  }

  it('a reconnect storm makes no offline alarm; the device still turns offline on disconnect', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid);
    for (let i = 0; i < 5; i++) {
      await sim.connect();
      sim.disconnect();
    }
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_state')
            .select('online')
            .where('device_id', '=', deviceId)
            .executeTakeFirst()
        )?.online === false,
      5000,
      'offline',
    );
    await server.gateway.state.flush();
    expect(await server.gateway.sweeper.raiseOfflineAlarms()).toBe(0);
    expect(await offlineAlarms(deviceId)).toEqual([]);
  });

  it('raises one alarm when silent past the threshold, none again for the same outage (also after a restart)', async () => {
    const tid = newTerminalId('gt06');
    const deviceId = await addDevice(server, tid, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', tid);
    await sim.connect();
    await sim.sendPositions(1, 1, 10);
    sim.disconnect();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_state')
            .select('online')
            .where('device_id', '=', deviceId)
            .executeTakeFirst()
        )?.online === false,
      5000,
      'offline',
    );
    await silentFor(deviceId, 9);
    await server.gateway.sweeper.raiseOfflineAlarms();
    expect(await offlineAlarms(deviceId)).toEqual([]);
    await silentFor(deviceId, 11);
    // Two processes checking at the same time raise it once.
    await Promise.all([server.gateway.sweeper.raiseOfflineAlarms(), server.gateway.sweeper.raiseOfflineAlarms()]);
    expect(await offlineAlarms(deviceId)).toHaveLength(1);
    // A restarted gateway (a new process) does not raise it again for the same outage.
    await server.gateway.stop();
    const base = gatewayOptionsFrom(server.ctx.config, server.ctx.dbHandle.kind, {});
    server.gateway = await startGateway(
      server.ctx,
      { ...base, host: '127.0.0.1', gt06Port: 0, jt808Port: 0, osmandPort: 0 },
      { onError: () => {} },
    );
    await server.gateway.sweeper.raiseOfflineAlarms();
    expect(await offlineAlarms(deviceId)).toHaveLength(1);
    // A new outage after the device came back: one more.
    await silentFor(deviceId, 30);
    await server.gateway.sweeper.raiseOfflineAlarms();
    expect(await offlineAlarms(deviceId)).toHaveLength(2);
  });

  it('the threshold is per model (device_model_settings) with OFFLINE_ALARM_MINUTES as the default', async () => {
    const tid = newTerminalId('jt808');
    const deviceId = await addDevice(server, tid, 'jt808', { deviceType: 88 });
    await server.ctx.db
      .insertInto('device_state')
      .values({ device_id: deviceId, online: false, last_seen: new Date(), attributes: '{}' })
      .execute();
    const admin = await adminClient(server);
    await admin.post('/gateway/modelSettings/save', {
      deviceType: 88,
      acceptBadChecksums: false,
      offlineAlarmMinutes: 60,
    });
    await silentFor(deviceId, 30);
    await server.gateway.sweeper.raiseOfflineAlarms();
    expect(await offlineAlarms(deviceId)).toEqual([]);
    await silentFor(deviceId, 61);
    await server.gateway.sweeper.raiseOfflineAlarms();
    expect(await offlineAlarms(deviceId)).toHaveLength(1);
    expect(gatewayOptionsFrom(server.ctx.config, 'pglite', { OFFLINE_ALARM_MINUTES: '25' }).offlineAlarmMinutes).toBe(
      25,
    );
    expect(gatewayOptionsFrom(server.ctx.config, 'pglite', {}).offlineAlarmMinutes).toBe(10);
  });
});
