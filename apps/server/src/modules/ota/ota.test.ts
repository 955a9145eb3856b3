// OTA against simulated trackers over real TCP: the firmware library (size and SHA-256 kept, download, a
// duplicate refused, delete only while unused), a push to JT/T 808 terminals of both editions by 0x8108
// sub-packages with parts dropped by the terminal (2019: 0x0005 re-send requests; 2013: re-sent after the part
// timeout) and the 0x0108 result, the reassembled image's SHA-256 checked by the simulator, a GT06 device that
// downloads its firmware over HTTP with Range requests (counted), a terminal offline when the task starts, the
// read-only list of role 11 limited to its own devices, permissions and bad input, and a push that goes on after
// a server restart on the same database.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '@carhere/simulator';
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

interface Firmware {
  id: string;
  model: number;
  version: string;
  size: number;
  sha256: string;
  uses: number;
}
interface OtaResult {
  taskId: string;
  terminalID: string;
  method: 'jt808' | 'http';
  status: string;
  detail: string;
  reply: string | null;
  packetsTotal: number;
  packetsAcked: number;
  resent: number;
  bytesSent: number;
  downloads: number;
}

async function upload(c: ApiClient, model: number, version: string, image: Buffer) {
  return c.post<Firmware>('/ota/firmware/upload', {
    model,
    version,
    notes: 'test build',
    fileName: `fw-${version}.bin`,
    data: image.toString('base64'),
    manufacturer: 'CARHR',
  });
}

async function results(c: ApiClient, taskId: string, path = '/ota/results'): Promise<Map<string, OtaResult>> {
  const res = await c.post<{ total: number; list: OtaResult[] }>(path, { taskId, pageSize: 100 });
  expect(res.status).toBe(200);
  return new Map(res.data.list.map((r) => [r.terminalID, r]));
}

async function online(server: TestServer, terminalId: string): Promise<boolean> {
  const r = await sql<{ online: boolean }>`
    SELECT s.online FROM device_state s JOIN devices d ON d.id = s.device_id WHERE d.terminal_id = ${terminalId}`.execute(
    server.ctx.db,
  );
  return r.rows[0]?.online === true;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A GET with the client's session (or none), answering status, headers and the raw bytes. */
async function get(server: TestServer, c: ApiClient | null, url: string, headers: Record<string, string> = {}) {
  return server.app.inject({
    method: 'GET',
    url,
    headers: { ...(c?.cookie ? { cookie: c.cookie } : {}), ...headers },
  });
}

describe('OTA over TCP', () => {
  let server: GatewayTestServer;
  let staff: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer({ commandTimeoutMs: 5000 }, { ota: { partTimeoutMs: 300 } });

    staff = await userClient(server, 'ota-staff', 5);
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps the firmware library: size and SHA-256, download, duplicate refused, delete only while unused', async () => {
    const image = randomBytes(5000);
    const up = await upload(staff, 31, '1.0.0', image);
    expect(up.status).toBe(200);
    expect(up.data).toMatchObject({ model: 31, version: '1.0.0', size: 5000, sha256: sha(image), uses: 0 });
    expect((await upload(staff, 31, '1.0.0', image)).status).toBe(400);
    const found = await staff.post<{ total: number; list: Firmware[] }>('/ota/firmware/find', { model: 31 });
    expect(found.data.list.map((f) => f.version)).toEqual(['1.0.0']);
    const file = await get(server, staff, `/api/ota/firmware/download?id=${up.data.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-sha256']).toBe(sha(image));
    expect(sha(file.rawPayload)).toBe(sha(image));

    // Used by a task: kept; unused: deleted.
    const d = newTerminalId('gt06');
    await addDevice(server, d, 'gt06');
    const push = await staff.post<{ taskId: string }>('/ota/push', { firmwareId: up.data.id, terminalIDs: [d] });
    expect(push.status).toBe(200);
    expect((await staff.post('/ota/firmware/delete', { id: up.data.id })).status).toBe(409);
    const spare = await upload(staff, 31, '1.0.1', randomBytes(100));
    expect((await staff.post('/ota/firmware/delete', { id: spare.data.id })).data).toEqual({ deleted: true });
    const after = await staff.post<{ list: Firmware[] }>('/ota/firmware/find', { model: 31 });
    expect(after.data.list.map((f) => [f.version, f.uses])).toEqual([['1.0.0', 1]]);
  });

  it('upgrades JT/T 808 terminals (2019 asks for dropped parts, 2013 gets them re-sent), one offline at the start', async () => {
    const image = randomBytes(40_000);
    const fw = await upload(staff, 8, '2.1.0', image);
    const t2019 = newTerminalId('jt808');
    const t2013 = newTerminalId('jt808');
    const later = newTerminalId('jt808');
    for (const t of [t2019, t2013, later]) await addDevice(server, t, 'jt808');
    const sim2019 = simulatedDevice(server.gateway, 'jt808', t2019, {
      jt808Version: '2019',
      otaDropRate: 0.1,
      random: seededRandom(7),
      otaExpectSha256: sha(image),
    });
    const sim2013 = simulatedDevice(server.gateway, 'jt808', t2013, {
      jt808Version: '2013',
      otaDropRate: 0.1,
      random: seededRandom(5),
      otaExpectSha256: sha(image),
    });
    await sim2019.connect();
    await sim2013.connect();
    await waitFor(async () => (await online(server, t2019)) && (await online(server, t2013)));

    const push = await staff.post<{ taskId: string; total: number }>('/ota/push', {
      firmwareId: fw.data.id,
      text: `${t2019}\n${t2013}\n${later}\n13900000000`,
    });
    expect(push.status).toBe(200);
    expect(push.data.total).toBe(4);
    const { taskId } = push.data;
    const done = await waitFor(
      async () => {
        const r = await results(staff, taskId);
        return r.get(t2019)?.status === 'success' && r.get(t2013)?.status === 'success' ? r : null;
      },
      30_000,
      'both terminals upgraded',
    );
    for (const [t, sim] of [
      [t2019, sim2019],
      [t2013, sim2013],
    ] as const) {
      expect(sim.upgraded).toMatchObject({ version: '2.1.0', size: image.length, sha256: sha(image), result: 0 });
      expect(sim.upgraded?.dropped, JSON.stringify(sim.upgraded)).toBeGreaterThan(0);
      const r = done.get(t) as OtaResult;
      expect(r).toMatchObject({ method: 'jt808', reply: '0x0108 0' });
      expect(r.packetsTotal).toBe(sim.upgraded?.parts);
      expect(r.packetsAcked).toBe(r.packetsTotal);
      expect(r.resent).toBeGreaterThanOrEqual(sim.upgraded?.dropped ?? 1);
      expect(r.bytesSent).toBeGreaterThan(image.length);
    }
    expect(sim2019.upgraded?.resendRequests).toBeGreaterThan(0);
    expect(sim2013.upgraded?.resendRequests).toBe(0);
    expect(done.get(later)?.status).toBe('pending');
    expect(done.get('13900000000')?.status).toBe('failed');

    // Offline at the start: upgraded when it connects.
    const simLater = simulatedDevice(server.gateway, 'jt808', later, { otaExpectSha256: sha(image) });
    await simLater.connect();
    await waitFor(async () => (await results(staff, taskId)).get(later)?.status === 'success', 20_000);
    expect(simLater.upgraded?.sha256).toBe(sha(image));
    // The task list of log/cmdTask shows the task with its counts.
    const tasks = await staff.post<{ list: { id: string; kind: string }[] }>('/task/find', { kind: 'ota' });
    expect(tasks.status).toBe(200);
    expect(tasks.data.list.some((t) => t.id === taskId)).toBe(true);
    sim2019.stop();
    sim2013.stop();
    simLater.stop();
  }, 60_000);

  it('a terminal that reassembles a wrong image reports failure through 0x0108', async () => {
    const image = randomBytes(3000);
    const fw = await upload(staff, 8, '2.2.0-bad', image);
    const t = newTerminalId('jt808');
    await addDevice(server, t, 'jt808');
    const sim = simulatedDevice(server.gateway, 'jt808', t, { otaExpectSha256: sha(randomBytes(10)) });
    await sim.connect();
    await waitFor(() => online(server, t));
    const push = await staff.post<{ taskId: string }>('/ota/push', { firmwareId: fw.data.id, terminalIDs: [t] });
    const r = await waitFor(async () => {
      const x = (await results(staff, push.data.taskId)).get(t);
      return x && x.status !== 'sent' && x.status !== 'pending' ? x : null;
    }, 20_000);
    expect(r).toMatchObject({ status: 'failed', reply: '0x0108 1' });
    sim.stop();
  }, 30_000);

  it('a GT06 device fetches its firmware by HTTP with Range requests; downloads are counted', async () => {
    // The device fetches the URL its command carries, so the API listens on a real port here (PUBLIC_URL).
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address() as AddressInfo;
    const saved = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = `http://127.0.0.1:${address.port}`;
    const image = randomBytes(6000);
    const fw = await upload(staff, 12, '3.0.0', image);
    const d = newTerminalId('gt06');
    await addDevice(server, d, 'gt06');
    const commands: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', d, { onCommand: (c) => commands.push(c) });
    await sim.connect();
    await waitFor(() => online(server, d));
    const push = await staff.post<{ taskId: string }>('/ota/push', { firmwareId: fw.data.id, terminalIDs: [d] });
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
    await waitFor(() => sim.upgraded !== null, 20_000, 'the HTTP download');
    expect(sim.upgraded).toMatchObject({ size: image.length, sha256: sha(image), parts: 2, result: 0 });
    expect(commands[0]).toMatch(/^UPGRADE,http:\/\/[^/]+\/api\/ota\/fw\/[0-9a-f]{32}#$/);
    const r = await waitFor(async () => {
      const x = (await results(staff, push.data.taskId)).get(d);
      return x?.status === 'success' && x.downloads > 0 ? x : null;
    }, 20_000);
    expect(r).toMatchObject({ method: 'http', downloads: 1, bytesSent: image.length });
    // The URL answers Range and refuses an impossible one; an unknown token is 404.
    const url = new URL((commands[0] as string).slice('UPGRADE,'.length, -1));
    const part = await get(server, null, url.pathname, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${image.length}`);
    expect(Buffer.compare(part.rawPayload, image.subarray(10, 20))).toBe(0);
    expect((await get(server, null, url.pathname, { range: 'bytes=90000-' })).statusCode).toBe(416);
    expect((await get(server, null, `/api/ota/fw/${'0'.repeat(32)}`)).statusCode).toBe(404);
    sim.stop();
  }, 30_000);

  it('role 11 reads the results of its own devices only, read-only; permissions and bad input', async () => {
    const fw = await upload(staff, 12, '3.1.0', randomBytes(500));
    const viewer = await userClient(server, 'ota-viewer', 11);
    const viewerId = (
      await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'ota-viewer')
        .executeTakeFirstOrThrow()
    ).id;
    const mine = newTerminalId('gt06');
    const other = newTerminalId('gt06');
    await addDevice(server, mine, 'gt06', { userId: String(viewerId) });
    await addDevice(server, other, 'gt06');
    const push = await staff.post<{ taskId: string }>('/ota/push', {
      firmwareId: fw.data.id,
      terminalIDs: [mine, other],
    });
    const seen = await results(viewer, push.data.taskId, '/user_ota');
    expect([...seen.keys()]).toEqual([mine]);
    expect((await results(staff, push.data.taskId, '/user_ota')).size).toBe(2);
    expect((await viewer.post('/ota/firmware/find', {})).status).toBe(200);
    expect((await viewer.post('/ota/results', {})).status).toBe(403);
    expect((await viewer.post('/ota/push', { firmwareId: fw.data.id, terminalIDs: [mine] })).status).toBe(403);
    expect((await viewer.post('/ota/firmware/delete', { id: fw.data.id })).status).toBe(403);
    const log = await userClient(server, 'ota-log', 8);
    expect((await log.post('/user_ota', {})).status).toBe(403);
    for (const bad of [
      { model: 12, version: '', fileName: 'a.bin', data: 'AAAA' },
      { model: 12, version: '9', fileName: 'a.bin', data: 'not base64!' },
      { model: -1, version: '9', fileName: 'a.bin', data: 'AAAA' },
      { model: 12, version: '9', fileName: 'a.bin', data: 'AAAA', manufacturer: 'has space' },
    ]) {
      expect((await staff.post('/ota/firmware/upload', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await staff.post('/ota/push', { firmwareId: fw.data.id, terminalIDs: [] })).status).toBe(400);
    expect((await staff.post('/ota/push', { firmwareId: '999999', terminalIDs: [mine] })).status).toBe(400);
    expect((await staff.post('/ota/firmware/delete', { id: '999999' })).status).toBe(404);
  });
});

describe.skipIf(process.env.DATABASE_URL)('an OTA task survives a server restart', () => {
  it('a terminal offline across the restart is upgraded by the new process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carhere-ota-'));
    try {
      const image = randomBytes(20_000);
      const first = await createGatewayTestServer({ dataDir }, { ota: { partTimeoutMs: 300 } });
      const done = newTerminalId('jt808');
      const later = newTerminalId('jt808');
      await addDevice(first, done, 'jt808');
      await addDevice(first, later, 'jt808');
      const admin1 = await adminClient(first);
      const fw = await upload(admin1, 8, '5.0.0', image);
      const sim1 = simulatedDevice(first.gateway, 'jt808', done, { otaExpectSha256: sha(image) });
      await sim1.connect();
      await waitFor(() => online(first, done));
      const push = await admin1.post<{ taskId: string }>('/ota/push', {
        firmwareId: fw.data.id,
        terminalIDs: [done, later],
      });
      const taskId = push.data.taskId;
      await waitFor(async () => (await results(admin1, taskId)).get(done)?.status === 'success', 20_000);
      sim1.stop();
      await first.stop();

      const second = await createGatewayTestServer({ dataDir }, { ota: { partTimeoutMs: 300 } });
      try {
        const admin2 = await adminClient(second);
        const before = await results(admin2, taskId);
        expect(before.get(done)?.status).toBe('success');
        expect(before.get(later)?.status).toBe('pending');
        const sim2 = simulatedDevice(second.gateway, 'jt808', later, {
          jt808Version: '2019',
          otaDropRate: 0.1,
          random: seededRandom(3),
          otaExpectSha256: sha(image),
        });
        await sim2.connect();
        await waitFor(async () => (await results(admin2, taskId)).get(later)?.status === 'success', 20_000);
        expect(sim2.upgraded?.sha256).toBe(sha(image));
        sim2.stop();
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
