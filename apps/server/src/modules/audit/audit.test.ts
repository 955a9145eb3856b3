// The audit log: writes through the API land in audit_log with who, where from, what and before/after; admins
// search it through POST /api/audit/find; agents cannot.
import { translate } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedMessage } from '../../testing/expectations.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, importDevices, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Entry {
  id: string;
  at: string;
  userId: string | null;
  username: string;
  ip: string;
  operation: string;
  targets: Record<string, string[]>;
  changes:
    | { kind: string; id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[]
    | null;
}
type Page = { total: number; list: Entry[] };

describe('audit log', () => {
  let server: TestServer;
  let t: Tree;
  let imei: string;

  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server, 'au');
    imei = nextImei('35');
    await importDevices(t.admin, t.ids.userA1, [imei]);
  });
  afterAll(async () => server.close());

  const find = async (body: Record<string, unknown>) => {
    await server.ctx.services.audit?.flush();
    return expectOk<Page>(t.admin.post('/audit/find', body));
  };

  it('records a password reset with who, from where and a password change, never the hash', async () => {
    await expectOk(t.admin.post('/user/resetPassword', { id: t.ids.userA2 }));
    const page = await find({ operation: 'resetPassword', target: t.ids.userA2 });
    expect(page.total).toBe(1);
    const entry = page.list[0];
    expect(entry).toMatchObject({
      userId: '1',
      username: 'admin',
      ip: '127.0.0.1',
      operation: 'POST /api/user/resetPassword',
      targets: { user: [t.ids.userA2] },
    });
    expect(entry.changes).toEqual([{ kind: 'user', id: t.ids.userA2, before: {}, after: { password: 'changed' } }]);
    expect(JSON.stringify(entry)).not.toMatch(/scrypt|\$/);
  });

  it('records a device expiry change with the expiry before and after', async () => {
    const newExpiry = '2031-05-06T00:00:00.000Z';
    const before = await server.ctx.db
      .selectFrom('devices')
      .select(['id', 'user_expire_at'])
      .where('terminal_id', '=', imei)
      .executeTakeFirstOrThrow();
    await expectOk(t.admin.post('/device/updateTime', { terminalIDs: [imei], userExpireAt: newExpiry }));
    const page = await find({ target: imei });
    const entry = page.list.find((e) => e.operation === 'POST /api/device/updateTime');
    expect(entry?.targets).toEqual({ terminal: [imei] });
    const change = entry?.changes?.find((c) => c.kind === 'device');
    expect(change).toMatchObject({
      id: String(before.id),
      before: { userExpireAt: before.user_expire_at ? before.user_expire_at.toISOString() : null },
      after: { userExpireAt: newExpiry },
    });
  });

  it('records a role change and a deletion (after: null), and not a refused write or a read', async () => {
    await expectOk(t.admin.post('/user/updateRole', { id: t.ids.userB1, role: 2 }));
    await expectOk(t.admin.post('/user/findById', { id: t.ids.userB1 }));
    const refused = await t.admin.post('/user/updateRole', { id: '999999', role: 2 });
    expect(refused.meta.success).toBe(false);
    await expectOk(t.admin.post('/user/deleteUser', { id: t.ids.userB1 }));
    const page = await find({ target: t.ids.userB1 });
    expect(page.list.map((e) => e.operation)).toEqual(['POST /api/user/deleteUser', 'POST /api/user/updateRole']);
    expect(page.list[1].changes).toEqual([{ kind: 'user', id: t.ids.userB1, before: { role: 3 }, after: { role: 2 } }]);
    expect(page.list[0].changes?.[0]).toMatchObject({ kind: 'user', id: t.ids.userB1, after: null });
    expect((await find({ target: '999999' })).total).toBe(0);
    expect((await find({ operation: 'findById' })).total).toBe(0);
  });

  it('filters by user, operation and time range, newest first, paged', async () => {
    const agentA = await loginAs(server, 'auagentA');
    await expectOk(agentA.post('/user/updateUser', { id: t.ids.userA1, nickname: 'renamed' }));
    // Newest first: the rename, then the agent's own first-sign-in password change (to an interim one and back).
    const byAgent = await find({ user: 'auagentA' });
    expect(byAgent.list.map((e) => e.operation)).toEqual([
      'POST /api/user/updateUser',
      'POST /api/user/checkUserPassword',
      'POST /api/user/checkUserPassword',
    ]);
    expect((await find({ user: t.ids.agentA })).total).toBe(3);
    expect((await find({ user: 'auagentA', operation: 'updateUser' })).total).toBe(1);
    const all = await find({ pageSize: 100 });
    expect(all.total).toBeGreaterThanOrEqual(5);
    const times = all.list.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const page2 = await find({ pageSize: 2, pageNum: 2 });
    expect(page2.list.map((e) => e.id)).toEqual(all.list.slice(2, 4).map((e) => e.id));
    const future = await find({ startTime: '2999-01-01T00:00:00Z' });
    expect(future.total).toBe(0);
    const past = await find({ endTime: '2000-01-01T00:00:00Z' });
    expect(past.total).toBe(0);
  });

  it('is for admins only: an agent gets 403, bad input a 400 naming the field', async () => {
    const agentA = await loginAs(server, 'auagentA');
    agentA.lang = 'es';
    const denied = await agentA.post('/audit/find', {});
    expect(denied.status).toBe(403);
    expect(denied.meta.message).toBe(translate('permission.denied', 'es'));
    t.admin.lang = 'en';
    const bad = await t.admin.post('/audit/find', { startTime: '99999-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.meta.message).toBe(expectedMessage({ field: 'startTime' }, 'en'));
    expect((await t.admin.post('/audit/find', { pageNum: 1e12 })).status).toBe(400);
  });

  it('records the writes of the newer modules (risk points, bus routes, drivers, device types, tasks) by the same hook', async () => {
    const risk = await expectOk<{ id: string }>(
      t.admin.post('/riskPoint/add', { name: 'Audit yard', kind: 'market', lat: 22.5, lon: 113.9, radius: 300 }),
    );
    await expectOk(
      t.admin.post('/bus/add', {
        name: 'Audit line',
        stops: [
          { name: 'A', lat: 22.5, lon: 113.9 },
          { name: 'B', lat: 22.51, lon: 113.91 },
        ],
      }),
    );
    const driver = await expectOk<{ id: string }>(t.admin.post('/driver/save', { name: 'Audit driver' }));
    await expectOk(t.admin.post('/driver/assign', { terminalID: imei, driverId: driver.id }));
    const type = await expectOk<Record<string, unknown>>(t.admin.post('/deviceType/detail', { deviceType: 12 }));
    const { edited: _e, updatedAt: _u, ...config } = type;
    await expectOk(t.admin.post('/deviceType/addOrUpdate', { ...config, name: 'Audited type' }));
    await expectOk(t.admin.post('/task/create', { content: 'WHERE#', terminalIDs: [imei], area: 'main' }));
    await expectOk(t.admin.post('/riskPoint/delete', { id: risk.id }));
    const operations = (await find({ pageSize: 100 })).list.map((e) => e.operation);
    for (const op of [
      'POST /api/riskPoint/add',
      'POST /api/bus/add',
      'POST /api/driver/save',
      'POST /api/driver/assign',
      'POST /api/deviceType/addOrUpdate',
      'POST /api/task/create',
      'POST /api/riskPoint/delete',
    ])
      expect(operations, op).toContain(op);
    const assigned = await find({ operation: 'driver/assign' });
    expect(assigned.list[0]).toMatchObject({ userId: '1', ip: '127.0.0.1', targets: { terminal: [imei] } });
  });
});
