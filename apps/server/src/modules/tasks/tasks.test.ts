// Tasks over the API with real trackers over TCP: one item per device in one state set, offline devices served
// through the offline queue at their next connection, cancel, hierarchy and permission checks, a 10,000-device
// task in one request, and states that survive a restart on the same database.
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
import type { ApiClient } from '../../testing/harness.ts';

interface Task {
  id: string;
  kind: string;
  total: number;
  counts: Record<string, number>;
  finished: boolean;
  cancelledAt: string | null;
}
interface Item {
  terminalID: string;
  state: string;
  reply: string | null;
  detail: string;
  sentAt: string | null;
  doneAt: string | null;
}

// One sealing key for every server of this file: a process holds one key, and the restart test's data folder
// would otherwise make a key of its own beside the first server's (secretBox refuses a second key).
const SECRET_KEY = 'a'.repeat(64);

async function itemsOf(c: ApiClient, id: string): Promise<Map<string, Item>> {
  const res = await c.post<{ total: number; list: Item[] }>('/task/items', { id, pageSize: 100 });
  expect(res.status).toBe(200);
  return new Map(res.data.list.map((i) => [i.terminalID, i]));
}

describe('tasks: one command to many devices', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;
  let demo: ApiClient;
  let customerId: string;

  beforeAll(async () => {
    server = await createGatewayTestServer({
      commandTimeoutMs: 3000,
      offlineCommandTtlHours: 2,
      secretKey: SECRET_KEY,
    });
    admin = await adminClient(server);
    // A customer (role user, main:command) with devices of its own; the demo account is read-only.
    demo = await userClient(server, 'task-customer', 3);
    customerId = String(
      (
        await server.ctx.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'task-customer')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends at once to online devices, later to offline ones, and fails unknown IMEIs', async () => {
    const on = newTerminalId('gt06');
    const off = newTerminalId('gt06');
    await addDevice(server, on, 'gt06');
    await addDevice(server, off, 'gt06');
    const received: string[] = [];
    const simOn = simulatedDevice(server.gateway, 'gt06', on, { onCommand: (t) => received.push(`${on}:${t}`) });
    await simOn.connect();
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_state')
            .select('online')
            .where('device_id', 'in', server.ctx.db.selectFrom('devices').select('id').where('terminal_id', '=', on))
            .executeTakeFirst()
        )?.online,
    );

    const created = await admin.post<Task>('/task/create', {
      content: 'RELAY,1#',
      text: `${on}\n${off}, 868120099999999`,
      area: 'factory',
    });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ kind: 'command', total: 3 });
    const id = created.data.id;

    const first = await waitFor(async () => {
      const items = await itemsOf(admin, id);
      return items.get(on)?.state === 'success' ? items : null;
    });
    expect(first.get(on)?.reply).toBe('RELAY,1 OK');
    expect(first.get(off)?.state).toBe('pending');
    expect(first.get('868120099999999')).toMatchObject({ state: 'failed', detail: 'This IMEI is not registered' });
    expect(received).toEqual([`${on}:RELAY,1#`]);

    // The offline device connects: the offline queue brings it its item.
    const simOff = simulatedDevice(server.gateway, 'gt06', off, { onCommand: (t) => received.push(`${off}:${t}`) });
    await simOff.connect();
    await waitFor(async () => (await itemsOf(admin, id)).get(off)?.state === 'success');
    expect(received).toContain(`${off}:RELAY,1#`);
    const task = await admin.post<Task>('/task/get', { id });
    expect(task.data.counts).toMatchObject({ success: 2, failed: 1, pending: 0, sent: 0, total: 3 });
    expect(task.data.finished).toBe(true);
    simOn.stop();
    simOff.stop();
  });

  it('cancels the open items of a task and their queued commands', async () => {
    const off = newTerminalId('gt06');
    await addDevice(server, off, 'gt06', { userId: customerId });
    const created = await demo.post<Task>('/task/create', { content: 'WHERE#', terminalIDs: [off] });
    expect(created.status).toBe(200);
    const cancelled = await demo.post<{ cancelled: number; task: Task }>('/task/cancel', { id: created.data.id });
    expect(cancelled.data.cancelled).toBe(1);
    expect(cancelled.data.task.counts.cancelled).toBe(1);
    expect(cancelled.data.task.cancelledAt).not.toBeNull();
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', off, { onCommand: (t) => received.push(t) });
    await sim.connect();
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toEqual([]);
    expect((await itemsOf(demo, created.data.id)).get(off)?.state).toBe('cancelled');
    sim.stop();
  });

  it('an offline device’s item times out when the task expires, and the device gets nothing when it connects later', async () => {
    const off = newTerminalId('gt06');
    await addDevice(server, off, 'gt06');
    const created = await admin.post<Task>('/task/create', {
      content: 'WHERE#',
      terminalIDs: [off],
      area: 'factory',
      expiresInHours: 1,
    });
    expect(created.status).toBe(200);
    const id = created.data.id;
    expect((await itemsOf(admin, id)).get(off)?.state).toBe('pending');
    // The hour passes: the task and its queued command are due (moved back rather than waited for).
    await sql`UPDATE tasks SET expires_at = now() - interval '1 second' WHERE id = ${id}`.execute(server.ctx.db);
    await sql`UPDATE commands SET expires_at = now() - interval '1 second'
      WHERE id IN (SELECT command_id FROM task_items WHERE task_id = ${id})`.execute(server.ctx.db);
    await server.gateway.sweeper.run();
    const item = (await itemsOf(admin, id)).get(off);
    expect(item?.state).toBe('timeout');
    expect(item?.doneAt).not.toBeNull();
    const received: string[] = [];
    const sim = simulatedDevice(server.gateway, 'gt06', off, { onCommand: (t) => received.push(t) });
    await sim.connect();
    try {
      await waitFor(
        async () =>
          (
            await server.ctx.db
              .selectFrom('device_state')
              .select('online')
              .where('device_id', 'in', server.ctx.db.selectFrom('devices').select('id').where('terminal_id', '=', off))
              .executeTakeFirst()
          )?.online,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(received).toEqual([]);
      const task = await admin.post<Task>('/task/get', { id });
      expect(task.data.counts).toMatchObject({ timeout: 1, pending: 0, sent: 0, total: 1 });
      expect(task.data.finished).toBe(true);
    } finally {
      sim.stop();
    }
  });

  it('keeps to the caller’s devices and tasks, and checks permissions and input', async () => {
    const adminsDevice = newTerminalId('gt06');
    await addDevice(server, adminsDevice, 'gt06', { userId: '1' });
    // A customer cannot reach a device outside its subtree, nor tell whether it exists.
    expect((await demo.post('/task/create', { content: 'WHERE#', terminalIDs: [adminsDevice] })).status).toBe(403);
    expect((await demo.post('/task/create', { content: 'WHERE#', terminalIDs: ['868120088888888'] })).status).toBe(403);
    // nor a factory task.
    expect(
      (await demo.post('/task/create', { content: 'WHERE#', terminalIDs: [adminsDevice], area: 'factory' })).status,
    ).toBe(403);
    const adminTask = await admin.post<Task>('/task/create', { content: 'WHERE#', terminalIDs: [adminsDevice] });
    expect((await demo.post('/task/get', { id: adminTask.data.id })).status).toBe(403);
    expect((await demo.post('/task/items', { id: adminTask.data.id })).status).toBe(403);
    expect((await demo.post('/task/cancel', { id: adminTask.data.id })).status).toBe(403);
    const demoList = await demo.post<{ list: Task[] }>('/task/find', {});
    expect(demoList.data.list.map((t) => t.id)).not.toContain(adminTask.data.id);
    // Factory staff see every task (cmdTask log); a log user without factory:log_cmd_task sees none.
    const tester = await userClient(server, 'task-tester', 5);
    const all = await tester.post<{ list: Task[] }>('/task/find', { pageSize: 100 });
    expect(all.data.list.map((t) => t.id)).toContain(adminTask.data.id);
    const logUser = await userClient(server, 'task-log', 8);
    expect((await logUser.post('/task/find', {})).status).toBe(403);
    expect((await logUser.post('/task/create', { content: 'WHERE#', terminalIDs: [adminsDevice] })).status).toBe(403);
    // Bad input: the spec's message naming the field.
    const empty = await admin.post('/task/create', { content: '  ', terminalIDs: [adminsDevice] });
    expect(empty.status).toBe(400);
    expect(empty.meta.message).toContain('content');
    expect((await admin.post('/task/create', { content: 'WHERE#', text: ' ' })).status).toBe(400);
    expect((await admin.post('/task/create', { content: 'WHERE#', text: "12'--" })).status).toBe(400);
    expect((await admin.post('/task/get', { id: 'x' })).status).toBe(400);
    expect((await admin.post('/task/get', { id: '999999999' })).status).toBe(404);
  });

  it('makes the customer batch command (/command/addBatch) a task the batch search finds', async () => {
    const off = newTerminalId('gt06');
    await addDevice(server, off, 'gt06', { userId: customerId });
    const batch = await demo.post<{ terminalID: string; status: string; taskId: string }[]>('/command/addBatch', {
      terminalIDs: [off],
      content: 'WHERE#',
    });
    expect(batch.status).toBe(200);
    expect(batch.data).toMatchObject([{ terminalID: off, status: 'pending' }]);
    const found = await demo.post<{ list: Task[] }>('/task/find', { area: 'main', kind: 'command', terminalID: off });
    expect(found.data.list.map((t) => t.id)).toEqual([batch.data[0]?.taskId]);
    expect(found.data.list[0]?.counts.pending).toBe(1);
  });

  it('creates a 10,000-device task in one request while the API keeps answering', async () => {
    const n = 10_000;
    const base = 869000000000000 + (process.pid % 1000) * 100_000;
    const ids = Array.from({ length: n }, (_, i) => String(base + i));
    await sql`INSERT INTO devices (terminal_id, user_id, protocol, device_type)
              SELECT t, 2, 2, 12 FROM unnest(${ids}::text[]) AS t`.execute(server.ctx.db);
    let done = false;
    const pings: number[] = [];
    const pinger = (async () => {
      while (!done) {
        const t0 = performance.now();
        await server.app.inject({ method: 'GET', url: '/api/health' });
        pings.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    const created = await admin.post<Task>('/task/create', { content: 'WHERE#', text: ids.join('\n') });
    const took = performance.now() - t0;
    done = true;
    await pinger;
    expect(created.status).toBe(200);
    expect(created.data.total).toBe(n);
    expect(created.data.counts.pending).toBe(n);
    const stored = await server.ctx.db
      .selectFrom('task_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('task_id', '=', created.data.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(n);
    const sorted = [...pings].sort((a, b) => a - b);
    console.log(
      `10,000-device task: created in ${took.toFixed(0)} ms; ${pings.length} health calls meanwhile, ` +
        `median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
    );
    expect(pings.length).toBeGreaterThan(0);
  }, 120_000);
});

describe.skipIf(process.env.DATABASE_URL)('tasks survive a restart on the same database', () => {
  it('an item queued before the restart is delivered after it and its state is kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carhere-tasks-'));
    try {
      const first = await createGatewayTestServer({ dataDir, commandTimeoutMs: 2000, secretKey: SECRET_KEY });
      const off = newTerminalId('jt808');
      const done = newTerminalId('jt808');
      await addDevice(first, off, 'jt808');
      await addDevice(first, done, 'jt808');
      const admin1 = await adminClient(first);
      const sim1 = simulatedDevice(first.gateway, 'jt808', done);
      await sim1.connect();
      await waitFor(
        async () =>
          (
            await sql<{
              online: boolean;
            }>`SELECT s.online FROM device_state s JOIN devices d ON d.id = s.device_id WHERE d.terminal_id = ${done}`.execute(
              first.ctx.db,
            )
          ).rows[0]?.online,
      );
      const created = await admin1.post<Task>('/task/create', { content: 'WHERE#', terminalIDs: [off, done] });
      const id = created.data.id;
      await waitFor(async () => (await itemsOf(admin1, id)).get(done)?.state === 'success');
      sim1.stop();
      await first.stop();

      const second = await createGatewayTestServer({ dataDir, commandTimeoutMs: 2000, secretKey: SECRET_KEY });
      try {
        const admin2 = await adminClient(second);
        const before = await itemsOf(admin2, id);
        expect(before.get(done)?.state).toBe('success');
        expect(before.get(off)?.state).toBe('pending');
        const received: string[] = [];
        const sim2 = simulatedDevice(second.gateway, 'jt808', off, { onCommand: (t) => received.push(t) });
        await sim2.connect();
        await waitFor(async () => (await itemsOf(admin2, id)).get(off)?.state === 'success');
        expect(received).toEqual(['WHERE#']);
        sim2.stop();
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
