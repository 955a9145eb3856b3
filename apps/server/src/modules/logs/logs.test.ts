// Factory logs and tools over the API with a real tracker over TCP: raw frame capture (hex + decoded JSON) only
// while switched on, the device log and connection history the gateway wrote, the system log, retention and its
// cleanup, GW005 search, and the NB-IoT id registry; bad input answers 400.
import ExcelJS from 'exceljs';
import { type RawBuilder, sql } from 'kysely';
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
import { buildApp } from '../../http/app.ts';
import type { App } from '../../http/types.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { cleanupLogs, LOG_CLEANUP_JOB } from './cleanup.ts';

interface NbJob {
  id: string;
  status: string;
  total: number;
  processed: number;
  result: {
    success: number;
    failure: number;
    unqualified: number;
    rejected: { line: number; value: string; reason: string; message: string }[];
  };
}

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

  it('records the server’s warnings in the system log also when console logging is off', async () => {
    // The test server runs as `npm start` does by default (LOG_HTTP unset): nothing printed, yet a refused
    // NB-IoT push (no callback token configured here) is a warning the system log keeps.
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/nb/subscribe',
      payload: { notifyType: 'deviceDataChanged', deviceId: 'nb-warn-1' },
    });
    expect(res.statusCode).toBe(403);
    await server.ctx.services.systemLog?.flush();
    const found = await logUser.post<{ list: { level: string; message: string }[] }>('/log/system/find', {
      keyword: 'NB-IoT push refused',
    });
    expect(found.data.list[0]).toMatchObject({ level: 'warn' });
    expect(found.data.list[0]?.message).toContain('NB-IoT push refused');
  });

  it('records a real 5xx answer of the API in the system log (error handler hook)', async () => {
    // An app on the same context with one extra route, registered only here: it runs a query the database
    // refuses (no such table), the real error handler answers 500 and must hand the error to the system log.
    const broken = async (app: App) => {
      app.get('/test-only/broken', { config: { public: true } }, async () => {
        await sql`SELECT * FROM carhere_no_such_table_for_5xx`.execute(server.ctx.db);
        return { never: true };
      });
    };
    const app = await buildApp(server.ctx, { modules: [broken], webDist: '/nonexistent' });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test-only/broken' });
      expect(res.statusCode).toBe(500);
      expect(res.json().meta.success).toBe(false);
      // The stack and the SQL error stay on the server: the caller only gets the generic message.
      expect(res.body).not.toContain('carhere_no_such_table_for_5xx');
    } finally {
      await app.close();
    }
    await server.ctx.services.systemLog?.flush();
    const found = await logUser.post<{ list: { level: string; message: string; detail: string }[] }>(
      '/log/system/find',
      { keyword: '/api/test-only/broken' },
    );
    expect(found.data.list).toHaveLength(1);
    expect(found.data.list[0]?.level).toBe('error');
    expect(found.data.list[0]?.message).toMatch(/^GET \/api\/test-only\/broken: .*carhere_no_such_table_for_5xx/);
    expect(found.data.list[0]?.detail).toMatch(/at /);
  });

  it("applies the retention set for each log kind: rows older than their kind's days go, the rest stay", async () => {
    const db = server.ctx.db;
    const tid = newTerminalId('gt06');
    // Each kind gets a row 12 days old and one 2 days old; retention 10 days for deviceLog and frameLog,
    // 15 for task (its 12-day-old row stays), the default for systemLog (30: both stay).
    const age = (days: number) => sql`now() - ${`${days} days`}::interval`;
    for (const days of [12, 2]) {
      await sql`INSERT INTO device_log (time, terminal_id, protocol, event, detail)
        VALUES (${age(days)}, ${tid}, 'gt06', 'login', ${`retention ${days}`})`.execute(db);
      await sql`INSERT INTO frame_log (time, terminal_id, protocol, direction, hex)
        VALUES (${age(days)}, ${tid}, 'gt06', 'in', ${`7878${days}`})`.execute(db);
      await sql`INSERT INTO system_log (time, level, message) VALUES (${age(days)}, 'warn', ${`retention ${tid} ${days}`})`.execute(
        db,
      );
      await sql`INSERT INTO tasks (kind, title, created_at, expires_at)
        VALUES ('command', ${`retention ${tid} ${days}`}, ${age(days)}, ${age(days - 1)})`.execute(db);
    }
    for (const [kind, days] of [
      ['deviceLog', 10],
      ['frameLog', 10],
      ['task', 15],
    ] as const) {
      const set = await logUser.post<Record<string, number>>('/log/retention', { kind, days });
      expect(set.status).toBe(200);
      expect(set.data[kind]).toBe(days);
    }
    const shown = await logUser.get<Record<string, number>>('/log/retention');
    expect(shown.data).toMatchObject({ deviceLog: 10, frameLog: 10, task: 15, systemLog: 30 });
    const deleted = await cleanupLogs(server.ctx);
    expect(deleted.deviceLog).toBeGreaterThanOrEqual(1);
    expect(deleted.frameLog).toBeGreaterThanOrEqual(1);
    const left = async (q: RawBuilder<unknown>) =>
      (await (q as RawBuilder<{ d: string }>).execute(db)).rows.map((r) => r.d).sort();
    expect(await left(sql`SELECT detail AS d FROM device_log WHERE terminal_id = ${tid}`)).toEqual(['retention 2']);
    expect(await left(sql`SELECT hex AS d FROM frame_log WHERE terminal_id = ${tid}`)).toEqual(['78782']);
    expect(await left(sql`SELECT message AS d FROM system_log WHERE message LIKE ${`retention ${tid}%`}`)).toEqual([
      `retention ${tid} 12`,
      `retention ${tid} 2`,
    ]);
    expect(await left(sql`SELECT title AS d FROM tasks WHERE title LIKE ${`retention ${tid}%`}`)).toEqual([
      `retention ${tid} 12`,
      `retention ${tid} 2`,
    ]);
    // Shorter task retention: the expired 12-day-old task goes too.
    await logUser.post('/log/retention', { kind: 'task', days: 5 });
    await cleanupLogs(server.ctx);
    expect(await left(sql`SELECT title AS d FROM tasks WHERE title LIKE ${`retention ${tid}%`}`)).toEqual([
      `retention ${tid} 2`,
    ]);
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

  it('batch test (/device/batchTest) runs the GW005 line check for a list of IMEIs, each with its verdict', async () => {
    const good = newTerminalId('gt06');
    const idle = newTerminalId('gt06');
    const unknown = '868120077777778';
    await addDevice(server, good, 'gt06', { userId: null });
    await addDevice(server, idle, 'gt06', { userId: null });
    const sim = simulatedDevice(server.gateway, 'gt06', good);
    await sim.connect();
    try {
      sim.sendFix(sim.o.track.next(5));
      type Batch = {
        passed: number;
        failed: number;
        list: { terminalID: string; passed: boolean; registered: boolean }[];
      };
      const res = await waitFor(async () => {
        const r = await tester.post<Batch>('/device/batchTest', { terminalIDs: [good, idle, unknown, good] });
        return r.data.passed === 1 ? r : null;
      });
      expect(res.data.failed).toBe(2);
      expect(res.data.list.map((c) => [c.terminalID, c.registered, c.passed])).toEqual([
        [good, true, true],
        [idle, true, false],
        [unknown, false, false],
      ]);
    } finally {
      sim.stop();
    }
    // A QC failure fails the line check even for a connected device with a fix.
    await server.ctx.db
      .insertInto('qc_results')
      .values({
        kind: 'v1',
        imei: good,
        pass: false,
        model: 'GT06',
        station: 'L1',
        failures: JSON.stringify(['gps']),
      } as never)
      .execute();
    const afterQc = await tester.post<{ list: { passed: boolean; qc: { pass: boolean } | null }[] }>(
      '/device/batchTest',
      { terminalIDs: [good] },
    );
    expect(afterQc.data.list[0]).toMatchObject({ passed: false, qc: { pass: false } });
    expect((await logUser.post('/device/batchTest', { terminalIDs: [good] })).status).toBe(403);
    expect((await tester.post('/device/batchTest', { terminalIDs: [] })).status).toBe(400);
    const tooMany = Array.from({ length: 201 }, (_, i) => `86812000${String(i).padStart(7, '0')}`);
    expect((await tester.post('/device/batchTest', { terminalIDs: tooMany })).status).toBe(400);
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
    // Text import as a job (wait: true answers once done): counts and each refused line with its reason.
    const imported = await tester.post<NbJob>('/idManager/import', {
      text: `${b},nb-${b}\n868120066666666,nb-x\nrubbish line here\n${b}\tnb-${a}`,
      wait: true,
    });
    expect(imported.data.status).toBe('done');
    expect(imported.data.result).toMatchObject({ success: 1, failure: 2, unqualified: 1 });
    expect(imported.data.result.rejected.map((r) => [r.line, r.reason])).toEqual([
      [3, 'invalid'],
      [4, 'duplicate'],
      [2, 'notFound'],
    ]);
    expect(imported.data.result.rejected.find((r) => r.line === 2)?.message).toBe('This IMEI is not registered');
    // xlsx: a title row, one pair set, one id held by another device; polled through the job endpoint.
    const c = newTerminalId('gt06');
    await addDevice(server, c, 'gt06', { userId: null });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('ids');
    sheet.addRow(['IMEI', 'NB-IoT id']);
    sheet.addRow([c, `nb-${c}`]);
    sheet.addRow([a, `nb-${b}`]);
    const base64 = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
    const started = await tester.post<NbJob>('/idManager/import', { file: { name: 'ids.xlsx', base64 } });
    expect(started.status).toBe(200);
    const job = await waitFor(async () => {
      const r = await tester.get<NbJob>(`/idManager/importJob?kind=nbIds&id=${started.data.id}`);
      return r.data.status === 'done' ? r.data : null;
    }, 20_000);
    expect(job.total).toBe(2);
    expect(job.processed).toBe(2);
    expect(job.result).toMatchObject({ success: 1, failure: 1 });
    expect(job.result.rejected).toEqual([
      {
        line: 3,
        value: `${a} nb-${b}`,
        reason: 'duplicate',
        message: 'This NB-IoT device id already belongs to another device',
      },
    ]);
    const csv = await server.app.inject({
      method: 'GET',
      url: `/api/idManager/importRejected?kind=nbIds&id=${started.data.id}`,
      headers: { cookie: tester.cookie },
    });
    expect(csv.body).toContain(`3,${a} nb-${b},duplicate,`);
    const idOf = async (imei: string) =>
      (
        await server.ctx.db
          .selectFrom('devices')
          .select('nb_device_id')
          .where('terminal_id', '=', imei)
          .executeTakeFirst()
      )?.nb_device_id;
    expect(await idOf(c)).toBe(`nb-${c}`);
    expect(await idOf(a)).toBe(`nb-${a}`);
    expect((await logUser.post('/idManager/import', { text: `${c},nb-z` })).status).toBe(403);
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
