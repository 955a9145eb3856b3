// Factory logs and tools over the API with a real tracker over TCP: raw frame capture (hex + decoded JSON) only
// while switched on, the device log and connection history the gateway wrote, the system log, retention and its
// cleanup, GW005 search, and the NB-IoT id registry; bad input answers 400.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { LOG_CLEANUP_JOB } from './cleanup.ts';

interface Frame {
  id: string;
  direction: string;
  hex: string;
  decoded: Record<string, unknown> | null;
}

describe('factory logs and tools', () => {
  let server: GatewayTestServer;
  let tester: ApiClient;
  let logUser: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    tester = await userClient(server, 'logs-tester', 5);
    logUser = await userClient(server, 'logs-log', 8);
  });
  afterAll(async () => {
    await server.close();
  });

  it('captures frames of an IMEI only while capture is on, in hex with the decoded message', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: null });
    const before = simulatedDevice(server.gateway, 'gt06', imei);
    await before.connect();
    await new Promise((r) => setTimeout(r, 300));
    before.stop();
    const none = await tester.post<{ list: Frame[]; capture: { until: string | null } }>('/log/frames', {
      terminalID: imei,
    });
    expect(none.data.list).toEqual([]);
    expect(none.data.capture.until).toBeNull();

    const on = await tester.post<{ until: string }>('/log/capture/start', { terminalID: imei, minutes: 5 });
    expect(on.status).toBe(200);
    await waitFor(() => server.gateway.capture.active(imei));
    const sim = simulatedDevice(server.gateway, 'gt06', imei);
    await sim.connect();
    const frames = await waitFor(async () => {
      const r = await tester.post<{ list: Frame[] }>('/log/frames', { terminalID: imei });
      return r.data.list.length > 0 ? r.data.list : null;
    });
    const login = frames.at(-1) as Frame;
    expect(login.direction).toBe('in');
    expect(login.hex).toMatch(/^7878/);
    expect(login.decoded?.terminalId).toBe(imei);

    await tester.post('/log/capture/stop', { terminalID: imei });
    await waitFor(() => !server.gateway.capture.active(imei));
    sim.stop();

    // The gateway's device log and the connection history built from it.
    await server.gateway.log.flush();
    const log = await logUser.post<{ list: { event: string; remote: string }[] }>('/log/device/find', {
      terminalID: imei,
    });
    expect(log.data.list.map((e) => e.event)).toContain('login');
    const state = await tester.post<{ registered: boolean; intervals: { start: string; remote: string }[] }>(
      '/log/deviceState',
      { terminalID: imei },
    );
    expect(state.data.registered).toBe(true);
    expect(state.data.intervals.length).toBeGreaterThanOrEqual(2);
    expect(state.data.intervals[0]?.remote).toMatch(/127\.0\.0\.1/);
  });

  it('keeps server errors in the system log, bounded by retention', async () => {
    server.ctx.services.systemLog?.write('error', 'boom in a test path', 'stack');
    await server.ctx.services.systemLog?.flush();
    const found = await logUser.post<{ total: number; list: { id: string; message: string; level: string }[] }>(
      '/log/system/find',
      { keyword: 'boom' },
    );
    expect(found.data.list[0]).toMatchObject({ level: 'error', message: 'boom in a test path' });
    const tail = await logUser.post<{ list: unknown[] }>('/log/system/find', { afterId: found.data.list[0]?.id });
    expect(tail.data.list).toEqual([]);
    // Retention: an old row goes at the next cleanup, a recent one stays.
    await sql`INSERT INTO system_log (time, level, message) VALUES (now() - interval '40 days', 'warn', 'old one')`.execute(
      server.ctx.db,
    );
    const set = await logUser.post<{ systemLog: number }>('/log/retention', { kind: 'systemLog', days: 30 });
    expect(set.data.systemLog).toBe(30);
    // The hourly cleanup is a job on the job queue; asking for it now runs it.
    await server.ctx.services.jobs?.enqueue(LOG_CLEANUP_JOB, {});
    await waitFor(
      async () =>
        (
          await sql<{ n: string }>`SELECT count(*) AS n FROM system_log WHERE message = 'old one'`.execute(
            server.ctx.db,
          )
        ).rows[0]?.n === '0',
      20_000,
      'the cleanup job',
    );
    const after = await logUser.post<{ list: { message: string }[] }>('/log/system/find', {});
    expect(after.data.list.map((r) => r.message)).toContain('boom in a test path');
    expect(after.data.list.map((r) => r.message)).not.toContain('old one');
    expect((await logUser.post('/log/retention', { kind: 'systemLog', days: 0 })).status).toBe(400);
    expect((await logUser.post('/log/retention', { kind: 'nothing', days: 3 })).status).toBe(400);
  });

  it('GW005 search shows registration, connection and state of one IMEI', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: null });
    const sim = simulatedDevice(server.gateway, 'gt06', imei);
    await sim.connect();
    sim.sendFix(sim.o.track.next(5));
    const page = await waitFor(async () => {
      const r = await tester.post<{
        online: boolean;
        position: unknown;
        lastLogin: unknown;
        registered: boolean;
        qc: unknown;
      }>('/factory/search', { terminalID: imei });
      return r.data.online && r.data.position && r.data.lastLogin ? r.data : null;
    });
    expect(page.registered).toBe(true);
    expect(page.qc).toBeNull();
    sim.stop();
    const unknown = await tester.post<{ registered: boolean; online: boolean }>('/factory/search', {
      terminalID: '868120077777777',
    });
    expect(unknown.data).toMatchObject({ registered: false, online: false });
    expect((await tester.post('/factory/search', { terminalID: "1'--" })).status).toBe(400);
    expect((await logUser.post('/factory/search', { terminalID: imei })).status).toBe(403);
  });

  it('keeps the NB-IoT id registry: set, import with reasons, search, one id per device', async () => {
    const a = newTerminalId('gt06');
    const b = newTerminalId('gt06');
    await addDevice(server, a, 'gt06', { userId: null });
    await addDevice(server, b, 'gt06', { userId: null });
    const set = await tester.post<{ nbDeviceId: string }>('/idManager/set', { terminalID: a, nbDeviceId: `nb-${a}` });
    expect(set.data.nbDeviceId).toBe(`nb-${a}`);
    const taken = await tester.post('/idManager/set', { terminalID: b, nbDeviceId: `nb-${a}` });
    expect(taken.status).toBe(400);
    expect(taken.meta.message).toBe('This NB-IoT device id already belongs to another device');
    expect((await tester.post('/idManager/set', { terminalID: '868120066666666', nbDeviceId: 'x1' })).status).toBe(404);
    const imported = await tester.post<{
      success: number;
      failure: number;
      rejected: { line: number; reason: string }[];
    }>('/idManager/import', { text: `${b},nb-${b}\n868120066666666,nb-x\nrubbish line here\n${b}\tnb-${a}` });
    expect(imported.data.success).toBe(1);
    expect(imported.data.failure).toBe(3);
    expect(imported.data.rejected.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(imported.data.rejected[0]?.reason).toBe('This IMEI is not registered');
    const found = await tester.post<{ list: { terminalID: string; nbDeviceId: string }[] }>('/idManager/find', {
      keyword: `nb-${b}`,
    });
    expect(found.data.list).toEqual([{ terminalID: b, nbDeviceId: `nb-${b}`, deviceType: 12 }]);
    const row = await server.ctx.db
      .selectFrom('devices')
      .select('nb_device_id')
      .where('terminal_id', '=', b)
      .executeTakeFirst();
    expect(row?.nb_device_id).toBe(`nb-${b}`);
    expect((await tester.post('/idManager/set', { terminalID: a, nbDeviceId: 'bad id!' })).status).toBe(400);
    expect((await logUser.post('/idManager/find', {})).status).toBe(403);
  });

  it('refuses bad input on the log endpoints', async () => {
    expect((await tester.post('/log/capture/start', { terminalID: '868120000000001', minutes: 0 })).status).toBe(400);
    expect((await tester.post('/log/capture/start', { terminalID: '868120000000001', minutes: 121 })).status).toBe(400);
    expect((await tester.post('/log/device/find', { from: 'yesterday' })).status).toBe(400);
    expect((await tester.post('/log/deviceState', {})).status).toBe(400);
    expect((await logUser.post('/log/deviceState', { terminalID: '868120000000001' })).status).toBe(403);
  });
});
