// Configuration platform against simulated trackers over real TCP: parameter sets per model, a read-back before
// (differences shown), a push as a task (JT/T 808 2013 and 2019: one 0x8103 with the server as each edition
// wants it; GT06: one command per parameter), a read-back after (no differences), a device offline when the
// read-back starts, permissions and bad input.
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
import type { ApiClient, TestServer } from '../../testing/harness.ts';
import { configCommands, parseConfigReply } from './routes.ts';

interface Result {
  terminalID: string;
  content: string;
  status: string;
  reply: string | null;
  params: Record<string, string | number> | null;
  differences: { key: string; expected: string; actual: string | null }[] | null;
}

async function results(c: ApiClient, taskId: string): Promise<Result[]> {
  const res = await c.post<{ total: number; list: Result[] }>('/config/results', { taskId, pageSize: 100 });
  expect(res.status).toBe(200);
  return res.data.list;
}

async function online(server: TestServer, terminalId: string): Promise<boolean> {
  const r = await sql<{ online: boolean }>`
    SELECT s.online FROM device_state s JOIN devices d ON d.id = s.device_id WHERE d.terminal_id = ${terminalId}`.execute(
    server.ctx.db,
  );
  return r.rows[0]?.online === true;
}

const settled = (rows: Result[]) => rows.every((r) => r.status !== 'pending' && r.status !== 'sent');

describe('configuration platform over TCP', () => {
  let server: GatewayTestServer;
  let config: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 5000 });
    config = await userClient(server, 'cfg-user', 14);
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads parameters back, pushes a model’s set, and reads them back without differences', async () => {
    const port = server.gateway.ports.jt808;
    const jt = await config.post<{ id: string }>('/config/add', {
      model: 8,
      name: 'JT/T 808 fleet',
      params: { server: `127.0.0.1:${port}`, heartbeat: 45, interval: 15, apn: 'iot.apn' },
    });
    expect(jt.status).toBe(200);
    const gt = await config.post<{ id: string }>('/config/add', {
      model: 12,
      params: { heartbeat: 3, interval: 20, apn: 'gt.apn', timezone: 8 },
    });
    expect(gt.status).toBe(200);
    const list = await config.post<{ model: number }[]>('/config/findAll', {});
    expect(list.data.map((p) => p.model)).toEqual([8, 12]);

    const t2013 = newTerminalId('jt808');
    const t2019 = newTerminalId('jt808');
    const g = newTerminalId('gt06');
    await addDevice(server, t2013, 'jt808');
    await addDevice(server, t2019, 'jt808');
    await addDevice(server, g, 'gt06');
    const commands: string[] = [];
    const sims = [
      simulatedDevice(server.gateway, 'jt808', t2013, { jt808Version: '2013', onCommand: (c) => commands.push(c) }),
      simulatedDevice(server.gateway, 'jt808', t2019, { jt808Version: '2019', onCommand: (c) => commands.push(c) }),
      simulatedDevice(server.gateway, 'gt06', g, { onCommand: (c) => commands.push(c) }),
    ];
    await sims[0]?.connect();
    await sims[1]?.connect();
    await waitFor(async () => (await online(server, t2013)) && (await online(server, t2019)));

    // Read-back with the GT06 device offline at the start: it answers when it connects.
    const before = await config.post<{ taskId: string }>('/config/read', { terminalIDs: [t2013, t2019, g] });
    expect(before.status).toBe(200);
    await waitFor(async () => {
      const r = await results(config, before.data.taskId);
      return r.find((x) => x.terminalID === t2013)?.status === 'success' &&
        r.find((x) => x.terminalID === t2019)?.status === 'success'
        ? r
        : null;
    });
    expect((await results(config, before.data.taskId)).find((x) => x.terminalID === g)?.status).toBe('pending');
    await sims[2]?.connect();
    const read1 = await waitFor(async () => {
      const r = await results(config, before.data.taskId);
      return settled(r) ? r : null;
    }, 15_000);
    expect(read1.every((r) => r.status === 'success')).toBe(true);
    const jt2013 = read1.find((r) => r.terminalID === t2013) as Result;
    expect(jt2013.params).toMatchObject({ heartbeat: 30, interval: 30, apn: 'CMNET', server: `127.0.0.1:${port}` });
    expect(jt2013.differences?.map((d) => d.key).sort()).toEqual(['apn', 'heartbeat', 'interval']);
    const gt06 = read1.find((r) => r.terminalID === g) as Result;
    expect(gt06.differences?.map((d) => d.key).sort()).toEqual(['apn', 'heartbeat', 'interval', 'timezone']);
    expect(gt06.differences?.find((d) => d.key === 'timezone')).toEqual({
      key: 'timezone',
      expected: '8',
      actual: null,
    });

    // Push each model's set: the JT/T 808 terminals' with the JT/T 808 set, the GT06 device's with its own.
    const pushJt = await config.post<{ taskId: string; total: number }>('/config/push', {
      id: jt.data.id,
      text: `${t2013}\n${t2019}`,
    });
    const pushGt = await config.post<{ taskId: string; total: number }>('/config/push', {
      id: gt.data.id,
      terminalIDs: [g],
    });
    expect(pushJt.data.total).toBe(2);
    expect(pushGt.data.total).toBe(4);
    for (const taskId of [pushJt.data.taskId, pushGt.data.taskId]) {
      const r = await waitFor(async () => {
        const x = await results(config, taskId);
        return settled(x) ? x : null;
      }, 15_000);
      expect(r.map((x) => x.status)).toEqual(r.map(() => 'success'));
    }
    expect(commands).toContain(`0x8103 13=127.0.0.1;18=${port};1=45;10=iot.apn;29=15`);
    expect(commands).toContain(`0x8103 13=127.0.0.1:${port};1=45;10=iot.apn;29=15`);
    for (const c of ['HBT,3#', 'TIMER,20#', 'APN,gt.apn#', 'GMT,E,8,0#']) expect(commands).toContain(c);

    const after = await config.post<{ taskId: string }>('/config/read', { terminalIDs: [t2013, t2019, g] });
    const read2 = await waitFor(async () => {
      const r = await results(config, after.data.taskId);
      return settled(r) ? r : null;
    }, 15_000);
    for (const r of read2) expect(r.differences, r.terminalID).toEqual([]);
    expect(read2.find((r) => r.terminalID === t2019)?.params).toMatchObject({
      server: `127.0.0.1:${port}`,
      heartbeat: 45,
      apn: 'iot.apn',
      interval: 15,
    });
    // Compared with another set on request.
    const other = await config.post<{ list: Result[] }>('/config/results', {
      taskId: after.data.taskId,
      profileId: gt.data.id,
    });
    expect(other.data.list.find((r) => r.terminalID === t2013)?.differences?.map((d) => d.key)).toEqual([
      'heartbeat',
      'interval',
      'apn',
    ]);
    for (const s of sims) s.stop();
  }, 60_000);

  it('updates a set; permissions and bad input', async () => {
    const staff = await userClient(server, 'cfg-test', 5);
    const found = await staff.post<{ id: string; model: number }[]>('/config/findAll', { model: 12 });
    expect(found.status).toBe(200);
    const id = found.data[0]?.id as string;
    const upd = await staff.post<{ params: Record<string, unknown> }>('/config/update', {
      id,
      params: { interval: 60 },
    });
    expect(upd.data.params).toEqual({ interval: 60 });
    for (const role of [6, 8, 11]) {
      const c = await userClient(server, `cfg-r${role}`, role);
      expect((await c.post('/config/findAll', {})).status).toBe(403);
      expect((await c.post('/config/read', { terminalIDs: ['868120000000001'] })).status).toBe(403);
    }
    for (const bad of [
      { model: 99, params: {} },
      { model: 99, params: { server: 'no-port' } },
      { model: 99, params: { server: 'a.b:70000' } },
      { model: 99, params: { heartbeat: 0 } },
      { model: 99, params: { colour: 'red' } },
      { model: 12, params: { interval: 5 } },
    ]) {
      expect((await config.post('/config/add', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await config.post('/config/update', { id: '999999', params: { interval: 5 } })).status).toBe(404);
    expect((await config.post('/config/push', { id: '999999', terminalIDs: ['868120000000001'] })).status).toBe(400);
    expect((await config.post('/config/push', { id, terminalIDs: [] })).status).toBe(400);
    expect((await config.post('/config/results', { taskId: '999999' })).status).toBe(404);
  });

  it('builds the commands and reads the replies of each protocol', () => {
    expect(configCommands(2, { server: 'gps.example.com:7700', timezone: -5 })).toEqual([
      'SERVER,1,gps.example.com,7700,0#',
      'GMT,W,5,0#',
    ]);
    expect(configCommands(1, { heartbeat: 10, timezone: 3 })).toEqual(['#JT808:PARAMS,0001=10']);
    expect(configCommands(1, { timezone: 3 })).toEqual([]);
    expect(parseConfigReply('0x0001=30;0x0010=CMNET;0x0013=a.b;0x0018=7001;0x0029=15')).toEqual({
      heartbeat: 30,
      apn: 'CMNET',
      server: 'a.b:7001',
      interval: 15,
    });
    expect(parseConfigReply('IMEI:1;SERVER:a.b,7001;APN:x;HBT:3;TIMER:20;GMT:W5')).toEqual({
      server: 'a.b:7001',
      apn: 'x',
      heartbeat: 3,
      interval: 20,
      timezone: -5,
    });
    expect(parseConfigReply('WHERE OK')).toBeNull();
  });
});
