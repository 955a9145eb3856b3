// Transfer IP, batch commands and the command console against simulated GT06 and JT/T 808 (2013 and 2019)
// trackers over real TCP: the commands each protocol gets, devices offline when the task starts, the device's
// recorded host after a success, the simulator following the move, permissions and bad input, and a task that
// goes on after a server restart on the same database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient, TestServer } from '../../testing/harness.ts';

interface Result {
  taskId: string;
  terminalID: string;
  host: string;
  port: number;
  status: string;
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
}

async function results(c: ApiClient, taskId: string): Promise<Map<string, Result>> {
  const res = await c.post<{ total: number; list: Result[] }>('/transferIp/results', { taskId, pageSize: 100 });
  expect(res.status).toBe(200);
  return new Map(res.data.list.map((r) => [r.terminalID, r]));
}

async function hostOf(server: TestServer, terminalId: string): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('devices')
    .select('host')
    .where('terminal_id', '=', terminalId)
    .executeTakeFirstOrThrow();
  return row.host;
}

async function online(server: TestServer, terminalId: string): Promise<boolean> {
  const r = await sql<{ online: boolean }>`
    SELECT s.online FROM device_state s JOIN devices d ON d.id = s.device_id WHERE d.terminal_id = ${terminalId}`.execute(
    server.ctx.db,
  );
  return r.rows[0]?.online === true;
}

describe('transfer IP over TCP', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 3000 });
    admin = await adminClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('moves GT06 devices with SERVER,…#, including one offline at the start, and they follow to the new address', async () => {
    const on = newTerminalId('gt06');
    const off = newTerminalId('gt06');
    await addDevice(server, on, 'gt06');
    await addDevice(server, off, 'gt06');
    const port = server.gateway.ports.gt06;
    const received: string[] = [];
    const simOn = simulatedDevice(server.gateway, 'gt06', on, {
      onCommand: (t) => received.push(`${on}:${t}`),
      followTransfer: true,
    });
    // The first connection goes to an address the device is then told to leave: the test's own listener stands
    // in for "the old server", the move points it at 127.0.0.1 (the same gateway) explicitly.
    await simOn.connect();
    await waitFor(() => online(server, on));

    const sent = await admin.post<{ taskId: string; total: number }>('/transferIp/send', {
      terminalIDs: [on, off, '868120077777777'],
      host: '127.0.0.1',
      port,
    });
    expect(sent.status).toBe(200);
    expect(sent.data.total).toBe(3);
    const { taskId } = sent.data;

    const first = await waitFor(async () => {
      const r = await results(admin, taskId);
      return r.get(on)?.status === 'success' ? r : null;
    });
    expect(received).toEqual([`${on}:SERVER,0,127.0.0.1,${port},0#`]);
    expect(first.get(on)).toMatchObject({ host: '127.0.0.1', port, reply: `SERVER,0,127.0.0.1,${port},0 OK` });
    expect(first.get(on)?.sentTime).not.toBeNull();
    expect(first.get(on)?.replyTime).not.toBeNull();
    expect(first.get(off)).toMatchObject({ status: 'pending', sentTime: null });
    expect(first.get('868120077777777')).toMatchObject({ status: 'failed', detail: 'This IMEI is not registered' });
    await waitFor(async () => (await hostOf(server, on)) === `127.0.0.1:${port}`);
    expect(await hostOf(server, off)).toBe('');
    // The simulator followed the move: a second connection, to the address it was given.
    await waitFor(() => simOn.stats.connections === 2 && simOn.connected);
    expect(simOn.transferredTo).toEqual({ host: '127.0.0.1', port });

    // The offline device connects: the task reaches it through the offline queue.
    const simOff = simulatedDevice(server.gateway, 'gt06', off);
    await simOff.connect();
    await waitFor(async () => (await results(admin, taskId)).get(off)?.status === 'success');
    await waitFor(async () => (await hostOf(server, off)) === `127.0.0.1:${port}`);
    // A domain name is sent with 1.
    const domain = await admin.post<{ taskId: string }>('/transferIp/send', {
      terminalIDs: [off],
      host: 'gps.example.com',
      port: 7700,
    });
    await waitFor(async () => (await results(admin, domain.data.taskId)).get(off)?.status === 'success');
    expect(simOff.transferredTo).toEqual({ host: 'gps.example.com', port: 7700 });
    await waitFor(async () => (await hostOf(server, off)) === 'gps.example.com:7700');
    simOn.stop();
    simOff.stop();
  }, 60_000);

  it('moves JT/T 808 terminals with 0x8103 per edition: 2013 0x0013 + 0x0018, 2019 0x0013 host:port', async () => {
    const t2013 = newTerminalId('jt808');
    const t2019 = newTerminalId('jt808');
    await addDevice(server, t2013, 'jt808');
    await addDevice(server, t2019, 'jt808');
    const port = server.gateway.ports.jt808;
    const sim13 = simulatedDevice(server.gateway, 'jt808', t2013, { followTransfer: true });
    const sim19 = simulatedDevice(server.gateway, 'jt808', t2019, { jt808Version: '2019' });
    await sim13.connect();
    await sim19.connect();
    await waitFor(async () => (await online(server, t2013)) && (await online(server, t2019)));
    const sent = await admin.post<{ taskId: string }>('/transferIp/send', {
      text: `${t2013}\n${t2019}`,
      host: '127.0.0.1',
      port,
    });
    expect(sent.status).toBe(200);
    const r = await waitFor(async () => {
      const m = await results(admin, sent.data.taskId);
      return m.get(t2013)?.status === 'success' && m.get(t2019)?.status === 'success' ? m : null;
    });
    expect(r.get(t2013)?.reply).toBe('OK');
    expect(sim13.params.get(0x0013)).toBe('127.0.0.1');
    expect(sim13.params.get(0x0018)).toBe(port);
    expect(sim19.params.get(0x0013)).toBe(`127.0.0.1:${port}`);
    // The 2019 terminal was not sent 0x0018: it still holds the port of its first server.
    expect(sim19.params.get(0x0018)).toBe(port);
    expect(sim19.transferredTo).toEqual({ host: '127.0.0.1', port });
    await waitFor(async () => (await hostOf(server, t2019)) === `127.0.0.1:${port}`);
    // The 2013 terminal followed (registered again with its code and authenticated on the new connection).
    await waitFor(() => sim13.stats.connections === 2 && sim13.connected);
    sim13.stop();
    sim19.stop();
  }, 60_000);

  it('a device that refuses leaves its host unchanged; search and export across tasks', async () => {
    const refusing = newTerminalId('gt06');
    await addDevice(server, refusing, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', refusing, { replyTo: () => 'SERVER,ERROR' });
    await sim.connect();
    await waitFor(() => online(server, refusing));
    const sent = await admin.post<{ taskId: string }>('/transferIp/send', {
      terminalIDs: [refusing],
      host: '10.0.0.9',
      port: 9000,
    });
    await waitFor(async () => (await results(admin, sent.data.taskId)).get(refusing)?.status === 'failed');
    expect(await hostOf(server, refusing)).toBe('');

    const found = await admin.post<{ total: number; list: Result[] }>('/transferIp/search', {
      text: refusing,
      status: 'failed',
    });
    expect(found.data.total).toBe(1);
    expect(found.data.list[0]).toMatchObject({
      terminalID: refusing,
      host: '10.0.0.9',
      port: 9000,
      reply: 'SERVER,ERROR',
    });
    const none = await admin.post<{ total: number }>('/transferIp/search', {
      terminalIDs: [refusing],
      from: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(none.data.total).toBe(0);
    // By model (spec §6 device-type lists): the stock's model name of the IMEI, or a device type's name.
    const byModel = async (model: string) =>
      (await admin.post<{ total: number }>('/transferIp/search', { terminalIDs: [refusing], model })).data.total;
    expect(await byModel('GW005W')).toBe(0);
    await server.ctx.db.insertInto('stock_records').values({ imei: refusing, model: 'GW005W' }).execute();
    expect(await byModel('GW005W')).toBe(1);
    expect(await byModel('Gt06')).toBe(1); // addDevice registers GT06 devices as type 12, named Gt06
    expect(await byModel('K100')).toBe(0);
    const xlsx = await server.app.inject({
      method: 'POST',
      url: '/api/transferIp/export',
      headers: { cookie: admin.cookie },
      payload: { terminalIDs: [refusing] },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('transferIp');
    expect(sheet?.rowCount).toBe(2);
    expect(String(sheet?.getRow(2).getCell(1).value)).toBe(refusing);
    sim.stop();
  }, 30_000);

  it('checks permissions and input', async () => {
    const d = newTerminalId('gt06');
    await addDevice(server, d, 'gt06');
    const search = await userClient(server, 'tip-search', 6);
    const mover = await userClient(server, 'tip-mover', 16);
    const log = await userClient(server, 'tip-log', 8);
    expect((await search.post('/transferIp/send', { terminalIDs: [d], host: 'a.b', port: 1 })).status).toBe(403);
    expect((await search.post('/transferIp/results', {})).status).toBe(200);
    expect((await search.post('/transferIp/search', {})).status).toBe(403);
    expect((await log.post('/transferIp/results', {})).status).toBe(403);
    const ok = await mover.post<{ taskId: string }>('/transferIp/send', { terminalIDs: [d], host: 'a.b', port: 1 });
    expect(ok.status).toBe(200);
    expect((await mover.post('/transferIp/search', { terminalIDs: [d] })).status).toBe(200);
    for (const bad of [
      { terminalIDs: [d], host: 'a b', port: 1 },
      { terminalIDs: [d], host: 'a,b', port: 1 },
      { terminalIDs: [d], host: 'a.b', port: 0 },
      { terminalIDs: [d], host: 'a.b', port: 70000 },
      { terminalIDs: [], host: 'a.b', port: 1 },
      { text: "1'--", host: 'a.b', port: 1 },
    ]) {
      expect((await mover.post('/transferIp/send', bad)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('batch commands and the command console over TCP', () => {
  let server: GatewayTestServer;
  let staff: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 3000 });
    staff = await userClient(server, 'muti-test', 5);
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends one command to many IMEIs and pages through the results', async () => {
    const a = newTerminalId('gt06');
    const b = newTerminalId('jt808');
    const c = newTerminalId('gt06');
    await addDevice(server, a, 'gt06');
    await addDevice(server, b, 'jt808');
    await addDevice(server, c, 'gt06');
    const simA = simulatedDevice(server.gateway, 'gt06', a);
    const simB = simulatedDevice(server.gateway, 'jt808', b);
    await simA.connect();
    await simB.connect();
    await waitFor(async () => (await online(server, a)) && (await online(server, b)));
    const sent = await staff.post<{ taskId: string; total: number }>('/mutiCmd/send', {
      text: `${a},${b};${c}`,
      content: 'TIMER,30#',
    });
    expect(sent.status).toBe(200);
    expect(sent.data.total).toBe(3);
    const done = await waitFor(async () => {
      const res = await staff.post<{
        total: number;
        list: { terminalID: string; status: string; reply: string | null }[];
      }>('/mutiCmd/results', { taskId: sent.data.taskId });
      const m = new Map(res.data.list.map((r) => [r.terminalID, r]));
      return m.get(a)?.status === 'success' && m.get(b)?.status === 'success' ? m : null;
    });
    expect(done.get(a)?.reply).toBe('TIMER,30 OK');
    expect(done.get(c)?.status).toBe('pending');
    const byImei = await staff.post<{ total: number }>('/mutiCmd/results', { terminalID: c });
    expect(byImei.data.total).toBe(1);
    const searchOnly = await userClient(server, 'muti-search', 6);
    expect((await searchOnly.post('/mutiCmd/send', { terminalIDs: [a], content: 'X#' })).status).toBe(403);
    expect((await staff.post('/mutiCmd/send', { terminalIDs: [a], content: ' ' })).status).toBe(400);
    simA.stop();
    simB.stop();
  }, 30_000);

  it('takes up to 10,000 pasted IMEIs in one task and refuses 10,001', async () => {
    const ids = Array.from({ length: 10_001 }, (_, i) => `86999${String(i).padStart(10, '0')}`);
    const tooMany = await staff.post('/mutiCmd/send', { text: ids.join('\n'), content: 'WHERE#' });
    expect(tooMany.status).toBe(400);
    const sent = await staff.post<{ taskId: string; total: number }>('/mutiCmd/send', {
      text: ids.slice(0, 10_000).join('\n'),
      content: 'WHERE#',
    });
    expect(sent.status).toBe(200);
    expect(sent.data.total).toBe(10_000);
    // None of them is registered: every item failed at once, with the reason, and all are listed.
    const failed = await staff.post<{ total: number }>('/mutiCmd/results', {
      taskId: sent.data.taskId,
      status: 'failed',
      pageSize: 1,
    });
    expect(failed.data.total).toBe(10_000);
  }, 60_000);

  it('batch-manages devices: change model, move to an account, clear data, reset', async () => {
    const a = newTerminalId('gt06');
    const b = newTerminalId('gt06');
    await addDevice(server, a, 'gt06', { userId: null });
    await addDevice(server, b, 'gt06', { userId: null });
    const model = await staff.post<{ success: number; failed: unknown[] }>('/mutiCmd/deviceBatchManage', {
      terminalIDs: [a, b, '868120066666666'],
      action: 'changeModel',
      deviceType: 21,
    });
    expect(model.data).toMatchObject({ success: 2, failed: [{ terminalID: '868120066666666' }] });
    const rows = await server.ctx.db
      .selectFrom('devices')
      .select(['terminal_id', 'device_type', 'user_id'])
      .where('terminal_id', 'in', [a, b])
      .execute();
    expect(rows.map((r) => r.device_type)).toEqual([21, 21]);
    const moved = await staff.post<{ success: number }>('/mutiCmd/deviceBatchManage', {
      terminalIDs: [a],
      action: 'move',
      username: 'demo',
    });
    expect(moved.data.success).toBe(1);
    const owner = await server.ctx.db
      .selectFrom('devices')
      .select('user_id')
      .where('terminal_id', '=', a)
      .executeTakeFirstOrThrow();
    expect(String(owner.user_id)).toBe('2');
    const deviceId = (
      await server.ctx.db.selectFrom('devices').select('id').where('terminal_id', '=', b).executeTakeFirstOrThrow()
    ).id;
    await server.ctx.db
      .insertInto('commands')
      .values({
        device_id: deviceId,
        terminal_id: b,
        protocol: 2,
        content: 'X#',
        mode: 'offline',
        status: 'pending',
        sender_name: 't',
      })
      .execute();
    const cleared = await staff.post<{ success: number }>('/mutiCmd/deviceBatchManage', {
      terminalIDs: [b],
      action: 'clearData',
    });
    expect(cleared.data.success).toBe(1);
    const left = await server.ctx.db.selectFrom('commands').select('id').where('device_id', '=', deviceId).execute();
    expect(left).toEqual([]);
    expect(
      (await staff.post('/mutiCmd/deviceBatchManage', { terminalIDs: [a], action: 'move', username: 'nobody-x' }))
        .status,
    ).toBe(400);
    expect((await staff.post('/mutiCmd/deviceBatchManage', { terminalIDs: [a], action: 'changeModel' })).status).toBe(
      400,
    );
    const reset = await staff.post<{ success: number }>('/mutiCmd/deviceBatchManage', {
      terminalIDs: [a],
      action: 'reset',
    });
    expect(reset.data.success).toBe(1);
  });

  it('the console sends text or hex to one device and shows the reply in its history', async () => {
    const d = newTerminalId('gt06');
    await addDevice(server, d, 'gt06');
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', d, { onCommand: (t) => received.push(t) });
    await sim.connect();
    await waitFor(() => online(server, d));
    const hex = await staff.post<{ hex: string; text: string }>('/config/toHex', { text: 'WHERE#' });
    expect(hex.data.hex).toBe('574845524523');
    expect(
      (await staff.post<{ text: string }>('/config/toHex', { text: '574845524523', reverse: true })).data.text,
    ).toBe('WHERE#');
    const sent = await staff.post<{ commandId: string }>('/cmdSend/send', {
      terminalID: d,
      content: hex.data.hex,
      hex: true,
    });
    expect(sent.status).toBe(200);
    const history = await waitFor(async () => {
      const h = await staff.post<{ commandId: string; status: string; reply: string | null }[]>('/cmdSend/history', {
        terminalID: d,
      });
      return h.data[0]?.status === 'answered' ? h.data : null;
    });
    expect(history[0]).toMatchObject({ commandId: sent.data.commandId, reply: 'WHERE OK' });
    expect(received).toEqual(['WHERE#']);
    expect((await staff.post('/cmdSend/send', { terminalID: d, content: 'zz', hex: true })).status).toBe(400);
    expect((await staff.post('/cmdSend/history', { terminalID: '868120055555555' })).status).toBe(404);
    const log = await userClient(server, 'console-log', 8);
    expect((await log.post('/cmdSend/send', { terminalID: d, content: 'WHERE#' })).status).toBe(403);
    sim.stop();
  }, 30_000);
});

describe.skipIf(process.env.DATABASE_URL)('a transfer-IP task survives a server restart', () => {
  it('the item of a device offline across the restart is sent by the new process, and its host changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carhere-transfer-'));
    try {
      const first = await createGatewayTestServer({ dataDir, commandTimeoutMs: 2000 });
      const done = newTerminalId('jt808');
      const later = newTerminalId('gt06');
      await addDevice(first, done, 'jt808');
      await addDevice(first, later, 'gt06');
      const admin1 = await adminClient(first);
      const sim1 = simulatedDevice(first.gateway, 'jt808', done);
      await sim1.connect();
      await waitFor(() => online(first, done));
      const sent = await admin1.post<{ taskId: string }>('/transferIp/send', {
        terminalIDs: [done, later],
        host: 'new.example.net',
        port: 6808,
      });
      const taskId = sent.data.taskId;
      await waitFor(async () => (await results(admin1, taskId)).get(done)?.status === 'success');
      await waitFor(async () => (await hostOf(first, done)) === 'new.example.net:6808');
      sim1.stop();
      await first.stop();

      const second = await createGatewayTestServer({ dataDir, commandTimeoutMs: 2000 });
      try {
        const admin2 = await adminClient(second);
        const before = await results(admin2, taskId);
        expect(before.get(done)?.status).toBe('success');
        expect(before.get(later)?.status).toBe('pending');
        const received: string[] = [];
        const sim2 = simulatedDevice(second.gateway, 'gt06', later, { onCommand: (t) => received.push(t) });
        await sim2.connect();
        await waitFor(async () => (await results(admin2, taskId)).get(later)?.status === 'success');
        expect(received).toEqual(['SERVER,1,new.example.net,6808,0#']);
        await waitFor(async () => (await hostOf(second, later)) === 'new.example.net:6808');
        // Applied once: a later manual change is not overwritten when the items are read again.
        await second.ctx.db.updateTable('devices').set({ host: 'manual' }).where('terminal_id', '=', done).execute();
        await results(admin2, taskId);
        expect(await hostOf(second, done)).toBe('manual');
        sim2.stop();
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
