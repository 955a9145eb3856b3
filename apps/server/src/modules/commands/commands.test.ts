import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';

interface Result {
  commandId: string;
  status: string;
  result: number | null;
  reply: string | null;
  message: string;
}
interface Command {
  id: string;
  status: string;
  mode: string;
  result: number | null;
  attempts: number;
  sendTime: string | null;
  executeTime: string | null;
  type: string;
}

describe('commands (spec §4): live, offline, records', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 1200, offlineCommandTtlHours: 2 });
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function logOf(commandId: string): Promise<string[]> {
    const res = await demo.post<{ list: { status: string }[] }>('/command/findLog', { commandId, pageSize: 50 });
    return res.data.list.map((l) => l.status).reverse();
  }

  it('sends live to an online GT06 device and records the matched reply as success', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', tid, { onCommand: (t) => received.push(t) });
    await sim.connect();
    const res = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'RELAY,1#', agentName: 'ops' });
    expect(res.meta.success).toBe(true);
    expect(res.data).toMatchObject({ status: 'answered', result: 1, reply: 'RELAY,1 OK' });
    expect(received).toEqual(['RELAY,1#']);
    const records = await demo.post<{ total: number; list: (Command & { sender: string; reply: string })[] }>(
      '/command/find',
      { terminalID: tid },
    );
    expect(records.data.total).toBe(1);
    expect(records.data.list[0]).toMatchObject({
      status: 'answered',
      mode: 'live',
      result: 1,
      sender: 'ops',
      reply: 'RELAY,1 OK',
      attempts: 1,
    });
    expect(records.data.list[0].sendTime).not.toBeNull();
    expect(records.data.list[0].executeTime).not.toBeNull();
    expect(records.data.list[0].type).not.toBe('');
    expect(await logOf(res.data.commandId)).toEqual(['pending', 'sent', 'answered']);
    sim.stop();
  });

  it('matches a JT/T 808 general response by serial, and classifies a device refusal as an error', async () => {
    const tid = newTerminalId('jt808');
    await addDevice(server, tid, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', tid, {
      replyTo: (t) => (t.startsWith('BAD') ? 'fail' : 'OK'),
    });
    await sim.connect();
    const ok = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'WHERE#' });
    expect(ok.data).toMatchObject({ status: 'answered', result: 1, reply: 'OK' });
    const bad = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'BAD,1#' });
    expect(bad.meta).toMatchObject({ success: false, code: 422 });
    expect(bad.data).toMatchObject({ status: 'answered', result: 3, reply: 'failure' });
    sim.stop();
  });

  it('a data reply to a query command is a success with the reply text (live and from the offline queue)', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const data: Record<string, string> = {
      'STATUS#': 'Battery:4.02V,NORMAL; GPRS:Link Up; GSM Signal Level:Strong',
      'PARAM#': 'IMEI:868120145233604;TIMER:10,10;SOS:,,;',
    };
    const sim = simulatedDevice(server.gateway, 'gt06', tid, { replyTo: (t) => data[t] ?? 'RELAY,ERROR:103' });
    await sim.connect();
    const live = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'STATUS#' });
    expect(live.meta.success).toBe(true);
    expect(live.data).toMatchObject({ status: 'answered', result: 1, reply: data['STATUS#'] });
    // A setting command keeps the spec's word rule.
    const setting = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'RELAY,1#' });
    expect(setting.data).toMatchObject({ status: 'answered', result: 3 });
    sim.disconnect();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_state as s')
            .innerJoin('devices as d', 'd.id', 's.device_id')
            .select('s.online')
            .where('d.terminal_id', '=', tid)
            .executeTakeFirst()
        )?.online === false,
      5000,
      'offline',
    );
    const queued = await demo.post<Result>('/command/add', { terminalID: tid, content: 'PARAM#' });
    expect(queued.data).toMatchObject({ status: 'pending' });
    await sim.connect();
    const row = await waitFor(
      async () => {
        const r = await server.ctx.db
          .selectFrom('commands')
          .select(['status', 'result', 'reply'])
          .where('id', '=', queued.data.commandId)
          .executeTakeFirst();
        return r?.status === 'answered' ? r : null;
      },
      5000,
      'answered',
    );
    expect(row).toMatchObject({ result: 1, reply: data['PARAM#'] });
    sim.stop();
  });

  it('times out without a reply (result 2), then the caller saves it as an offline command delivered at the next connection', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const received: [string, number][] = [];
    let silent = true;
    const sim = simulatedDevice(server.gateway, 'gt06', tid, {
      replyTo: (t) => (silent ? null : `${t} Success`),
      onCommand: (t, connection) => received.push([t, connection]),
    });
    await sim.connect();
    const res = await demo.post<Result>('/tracker_cmd', { terminalID: tid, content: 'SOS,A,123#' });
    expect(res.meta).toMatchObject({ success: false, code: 408 });
    expect(res.data).toMatchObject({ status: 'timeout', result: 2 });
    expect(res.data.message).toMatch(/offline command/i);

    const saved = await demo.post<Command>('/command/insertOffline', { commandId: res.data.commandId });
    expect(saved.data).toMatchObject({ status: 'pending', mode: 'offline', result: null });
    // Already written on this connection: not sent twice on it.
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([['SOS,A,123#', 1]]);

    silent = false;
    sim.disconnect();
    await sim.connect();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('commands')
            .select('status')
            .where('id', '=', res.data.commandId)
            .executeTakeFirst()
        )?.status === 'answered',
      5000,
      'answered',
    );
    expect(received).toEqual([
      ['SOS,A,123#', 1],
      ['SOS,A,123#', 2],
    ]);
    expect(await logOf(res.data.commandId)).toEqual(['pending', 'sent', 'timeout', 'pending', 'sent', 'answered']);
    // Saving it again is refused (it is no longer timed out).
    const again = await demo.post('/command/insertOffline', { commandId: res.data.commandId });
    expect(again.status).toBe(400);
    sim.stop();
  });

  it("refuses 'SWMODE,0#' for an online device and live sends to an offline device", async () => {
    const online = newTerminalId('gt06');
    await addDevice(server, online, 'gt06');
    const sim = simulatedDevice(server.gateway, 'gt06', online);
    await sim.connect();
    const refused = await demo.post('/command/add', { terminalID: online, content: 'SWMODE,0#' });
    expect(refused.status).toBe(400);
    expect(refused.meta.message).toBe('device already online, no need to send normal-mode command');
    sim.stop();

    const offline = newTerminalId('gt06');
    await addDevice(server, offline, 'gt06');
    const live = await demo.post('/tracker_cmd', { terminalID: offline, content: 'RELAY,0#' });
    expect(live.status).toBe(400);
    expect(live.meta.message).toBe("Offline devices can't send instructions!");
  });

  it('an NB-IoT model without deviceId is refused', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { deviceType: 11 });
    const res = await demo.post('/command/add', { terminalID: tid, content: 'RELAY,1#' });
    expect(res.status).toBe(400);
    expect(res.meta.message).toBe('Cannot find deviceId for this device');
  });

  it('queues for an offline device; delivers once per connection until answered; then never again', async () => {
    const tid = newTerminalId('jt808');
    await addDevice(server, tid, 'jt808');
    const queued = await demo.post<Result>('/command/add', {
      terminalID: tid,
      content: 'TIMER,60#',
      agentName: 'night shift',
    });
    expect(queued.meta.success).toBe(true);
    expect(queued.data).toMatchObject({ status: 'pending', result: null });
    const open = await demo.post<Command[]>('/command/findAndOffline', { terminalID: tid });
    expect(open.data.map((c) => c.id)).toEqual([queued.data.commandId]);

    const received: number[] = [];
    let answer: string | null = null;
    const sim = simulatedDevice(server.gateway, 'jt808', tid, {
      replyTo: () => answer,
      onCommand: (_t, c) => received.push(c),
    });
    await sim.connect();
    await waitFor(() => received.length === 1, 5000, 'first delivery');
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([1]);
    sim.disconnect();
    answer = 'OK';
    await sim.connect();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('commands')
            .select('status')
            .where('id', '=', queued.data.commandId)
            .executeTakeFirst()
        )?.status === 'answered',
      5000,
      'answered',
    );
    sim.disconnect();
    await sim.connect();
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([1, 2]);
    const row = await server.ctx.db
      .selectFrom('commands')
      .selectAll()
      .where('id', '=', queued.data.commandId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 2, result: 1, mode: 'offline' });
    expect((await demo.post<Command[]>('/command/findAndOffline', { terminalID: tid })).data).toEqual([]);
    expect(await logOf(queued.data.commandId)).toEqual(['pending', 'sent', 'sent', 'answered']);
    sim.stop();
  });

  it('an offline command queued while the device is online goes out at once', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', tid, { onCommand: (t) => received.push(t) });
    await sim.connect();
    const res = await demo.post<Command>('/command/insertOffline', { terminalID: tid, content: 'FENCE,OFF#' });
    expect(res.data.mode).toBe('offline');
    await waitFor(
      async () =>
        (await server.ctx.db.selectFrom('commands').select('status').where('id', '=', res.data.id).executeTakeFirst())
          ?.status === 'answered',
      5000,
      'answered',
    );
    expect(received).toEqual(['FENCE,OFF#']);
    sim.stop();
  });

  it('expires offline commands past their time and cancels on request', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    const a = await demo.post<Result>('/command/add', { terminalID: tid, content: 'A#' });
    const b = await demo.post<Result>('/command/add', { terminalID: tid, content: 'B#' });
    await server.ctx.db
      .updateTable('commands')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', a.data.commandId)
      .execute();
    await server.gateway.sweeper.run();
    const cancel = await demo.post<Command>('/command/cancelOffline', { commandId: b.data.commandId });
    expect(cancel.data.status).toBe('cancelled');
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', tid, { onCommand: (t) => received.push(t) });
    await sim.connect();
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([]);
    expect(await logOf(a.data.commandId)).toEqual(['pending', 'expired']);
    expect(await logOf(b.data.commandId)).toEqual(['pending', 'cancelled']);
    sim.stop();
  });

  it('sends one command to many devices: live where online, queued where offline', async () => {
    const on = newTerminalId('jt808');
    const off = newTerminalId('jt808');
    await addDevice(server, on, 'jt808');
    await addDevice(server, off, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', on);
    await sim.connect();
    const res = await demo.post<(Result & { terminalID: string })[]>('/command/addBatch', {
      terminalIDs: [on, off],
      content: 'GPSON#',
    });
    expect(res.data.map((r) => [r.terminalID, r.status, r.result])).toEqual([
      [on, 'answered', 1],
      [off, 'pending', null],
    ]);
    sim.stop();
  });

  it('keeps and merges a device command configuration', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06');
    await demo.post('/order/save', { terminalID: tid, items: { sos: '13800000000', interval: 30 } });
    const saved = await demo.post<{ items: Record<string, unknown> }>('/order/save', {
      terminalID: tid,
      items: { interval: 60, sos: null },
    });
    expect(saved.data.items).toEqual({ interval: 60 });
    const found = await demo.post<{ items: Record<string, unknown>; updatedAt: string }>('/order/find', {
      terminalID: tid,
    });
    expect(found.data.items).toEqual({ interval: 60 });
    expect(found.data.updatedAt).not.toBeNull();
  });

  it('checks permission, hierarchy and input', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { userId: '1' }); // the admin's own device
    const denied = await demo.post('/tracker_cmd', { terminalID: tid, content: 'RELAY,1#' });
    expect(denied.status).toBe(403);
    const logUser = await userClient(server, 'cmd-log-user', 8);
    const noPermission = await logUser.post('/command/find', { terminalID: tid });
    expect(noPermission.status).toBe(403);
    const bad = await demo.post('/tracker_cmd', { terminalID: tid });
    expect(bad.status).toBe(400);
    const admin = await adminClient(server);
    const unknown = await admin.post('/command/find', { terminalID: '000000000000001' });
    expect(unknown.status).toBe(404);
    const anon = await server.app.inject({ method: 'POST', url: '/api/command/find', payload: { terminalID: tid } });
    expect(anon.json().meta.message).toBe('407');
  });
});
