// "Try it out" sessions are read-only: every write operation of the OpenAPI document answers 'No permission to use
// this feature!' and leaves the database as it was; only commands to the demo's own devices go through.
import { translate } from '@carhere/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, adminClient, newTerminalId } from '../gateway/test-support.ts';
import { ApiClient, createTestServer, type TestServer } from '../testing/harness.ts';
import { type ApiOperation, apiOperations } from '../testing/openapi.ts';
import { snapshotTables } from '../testing/snapshot.ts';
import { DEMO_ALLOWED_WRITES, isWriteOperation, READ_OPERATIONS } from './operations.ts';

/** Command records: the one thing a demo visitor may add (for the demo's own devices). */
const COMMAND_TABLES = ['commands', 'command_log', 'command_claims'];
/** Written by the audit log for the allowed commands; checked on its own below. */
const CHECKED_APART = ['audit_log', ...COMMAND_TABLES];

async function allTables(server: TestServer): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`.execute(server.ctx.db);
  return rows.rows.map((r) => r.name).filter((t) => !CHECKED_APART.includes(t) && t !== 'schema_migrations');
}

describe('demo sessions are read-only', () => {
  let server: TestServer;
  let ops: ApiOperation[];
  let demo: ApiClient;
  let demoTerminal: string;
  let demoDevice: string;
  let otherTerminal: string;

  beforeAll(async () => {
    server = await createTestServer();
    ops = await apiOperations(server);
    demoTerminal = newTerminalId('gt06');
    demoDevice = await addDevice(server, demoTerminal, 'gt06');
    otherTerminal = newTerminalId('gt06');
    await addDevice(server, otherTerminal, 'gt06', { userId: '1' });
    demo = new ApiClient(server);
    demo.lang = 'fr';
    const login = await demo.post('/login/demo');
    expect(login.meta.success).toBe(true);
  });
  afterAll(async () => server.close());

  /** A body that would be valid for many operations: the demo's own device, its own account, a new name. */
  const visitorBody = () => ({
    id: demoDevice,
    ids: [demoDevice],
    terminalID: demoTerminal,
    terminalIDs: [demoTerminal],
    name: 'visitor was here',
    nickname: 'visitor was here',
  });

  it('lists only operations that exist, so the read list cannot drift from the API', () => {
    const names = new Set(ops.map((op) => op.name));
    for (const name of [...READ_OPERATIONS, ...DEMO_ALLOWED_WRITES]) expect(names.has(name), name).toBe(true);
  });

  it('refuses every write operation with the message in the caller’s language, and nothing changes', async () => {
    const writes = ops.filter((op) => !op.public && isWriteOperation(op.name) && !DEMO_ALLOWED_WRITES.has(op.name));
    expect(writes.length).toBeGreaterThan(40);
    const tables = await allTables(server);
    expect(tables).toEqual(expect.arrayContaining(['users', 'devices', 'fences', 'settings', 'alarms']));
    const before = await snapshotTables(server, [...tables, ...CHECKED_APART]);
    const noFeature = translate('permission.noFeature', 'fr');
    const wrong: string[] = [];
    for (const op of writes) {
      const payload = visitorBody();
      const res = await server.app.inject({
        method: op.method as 'POST',
        url: op.path,
        headers: { cookie: demo.cookie, lang: 'fr' },
        payload,
      });
      const meta = res.json().meta as { message: string };
      if (res.statusCode !== 403 || meta.message !== noFeature)
        wrong.push(`${op.name}: ${res.statusCode} ${meta.message}`);
    }
    expect(wrong).toEqual([]);
    await server.ctx.services.audit?.flush();
    expect(await snapshotTables(server, [...tables, ...CHECKED_APART])).toBe(before);
  });

  it('still reads, and sends commands to its own devices — only command records change', async () => {
    const tables = await allTables(server);
    const before = await snapshotTables(server, tables);
    const known = (await server.ctx.db.selectFrom('commands').select('id').execute()).map((c) => String(c.id));
    expect((await demo.post('/device/findByUserId', {})).meta.success).toBe(true);
    const queued = await demo.post('/command/insertOffline', { terminalID: demoTerminal, content: 'WHERE#' });
    expect(queued.meta.success).toBe(true);
    // Not its device: refused by the command endpoint's own hierarchy check.
    const foreign = await demo.post('/command/insertOffline', { terminalID: otherTerminal, content: 'WHERE#' });
    expect(foreign.meta.success).toBe(false);
    await server.ctx.services.audit?.flush();
    expect(await snapshotTables(server, tables)).toBe(before);
    const added = (await server.ctx.db.selectFrom('commands').select(['id', 'device_id']).execute()).filter(
      (c) => !known.includes(String(c.id)),
    );
    expect(added.map((c) => String(c.device_id))).toEqual([demoDevice]);
  });

  it('every operation listed as a read writes nothing (a mislabelled write would pass the demo and the audit log)', async () => {
    // What a read may add: caches and logs that hold no account's data, and the caller's own statistics export job.
    const activity = ['geocode_cache', 'device_log', 'request_counters', 'job_progress', 'jobs', 'stat_exports'];
    const tables = (await allTables(server)).filter((t) => !activity.includes(t));
    const admin = await adminClient(server);
    const before = await snapshotTables(server, [...tables, ...CHECKED_APART]);
    const reads = ops.filter((op) => !op.public && READ_OPERATIONS.has(op.name));
    expect(reads.length).toBe(READ_OPERATIONS.size);
    const wrong: string[] = [];
    // As the demo (refused nothing as a write) and as the admin (holds every permission, so each read runs).
    for (const [caller, cookie] of [
      ['demo', demo.cookie],
      ['admin', admin.cookie],
    ] as const) {
      for (const op of reads) {
        const res = await server.app.inject({
          method: op.method as 'POST',
          url: op.path,
          headers: { cookie, lang: 'fr' },
          payload: { ...visitorBody(), userId: caller === 'admin' ? '1' : undefined },
        });
        if (res.statusCode >= 500) wrong.push(`${caller} ${op.name}: ${res.statusCode}`);
        if (res.statusCode === 403 && res.json().meta.message === translate('permission.noFeature', 'fr'))
          wrong.push(`${caller} ${op.name}: refused as a write`);
      }
    }
    expect(wrong).toEqual([]);
    await server.ctx.services.audit?.flush();
    const after = JSON.parse(await snapshotTables(server, [...tables, ...CHECKED_APART])) as Record<string, unknown>;
    const was = JSON.parse(before) as Record<string, unknown>;
    const changed = Object.keys(was).filter((t) => JSON.stringify(was[t]) !== JSON.stringify(after[t]));
    expect(Object.fromEntries(changed.map((t) => [t, after[t]]))).toEqual({});
  });
});
