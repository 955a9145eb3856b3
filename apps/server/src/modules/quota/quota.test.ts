import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, createUser, expectOk, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Summary {
  unlimited: boolean;
  remaining: number;
  received: number;
  given: number;
  used: number;
}
interface Record_ {
  kind: string;
  amount: number;
  balance: number;
  counterpartName: string | null;
  operatorName: string | null;
}

describe('import quotas (userRelationimportNum, findImportNumRecord, addAgentImportNum) and imports', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('the administrator grants quota from an unlimited remainder', async () => {
    const res = await expectOk<{ remaining: number }>(
      t.admin.post('/user/addAgentImportNum', { id: t.ids.agentA, num: 10 }),
    );
    expect(res.remaining).toBe(10);
    const admin = await expectOk<Summary>(t.admin.post('/user/userRelationimportNum', { id: 1 }));
    expect(admin.unlimited).toBe(true);
    const a = await expectOk<Summary>(t.admin.post('/user/userRelationimportNum', { id: t.ids.agentA }));
    expect(a).toMatchObject({ remaining: 10, received: 10, given: 0, used: 0, unlimited: false });
  });

  it('an agent hands quota down out of its own remainder and takes unused quota back', async () => {
    const agentA = await loginAs(server, 'agentA');
    await expectOk(agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 4 }));
    let a = await expectOk<Summary>(agentA.post('/user/userRelationimportNum', { id: t.ids.agentA }));
    expect(a).toMatchObject({ remaining: 6, given: 4 });
    const tooMuch = await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 7 });
    expect(tooMuch.meta.message).toBe('The current remaining quantity is insufficient!');
    await expectOk(agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: -1 }));
    a = await expectOk<Summary>(agentA.post('/user/userRelationimportNum', { id: t.ids.agentA }));
    expect(a).toMatchObject({ remaining: 7, given: 3 });
    const takeTooMuch = await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: -4 });
    expect(takeTooMuch.meta.message).toBe('The current remaining quantity is insufficient!');
    const sub = await expectOk<Summary>(agentA.post('/user/userRelationimportNum', { id: t.ids.subA }));
    expect(sub).toMatchObject({ remaining: 3, received: 3 });
  });

  it('quota moves between two agents of the subtree (fromId), and records show every change', async () => {
    const agentA = await loginAs(server, 'agentA');
    const sub2 = await createUser(agentA, 'quotaSub2', 2);
    await expectOk(agentA.post('/user/addAgentImportNum', { id: sub2, num: 2, fromId: t.ids.subA }));
    const sub = await expectOk<Summary>(agentA.post('/user/userRelationimportNum', { id: t.ids.subA }));
    expect(sub.remaining).toBe(1);
    const page = await expectOk<{ total: number; list: Record_[] }>(
      agentA.post('/user/findImportNumRecord', { id: t.ids.subA, pageNum: 1, pageSize: 10 }),
    );
    expect(page.total).toBe(3);
    expect(page.list[0]).toMatchObject({
      kind: 'give',
      amount: -2,
      balance: 1,
      counterpartName: 'quotaSub2',
      operatorName: 'agentA',
    });
    expect(page.list.map((r) => r.kind)).toEqual(['give', 'revoke', 'grant']);
  });

  it('an import consumes quota, and an import beyond it is refused with the spec message', async () => {
    const sub = await loginAs(server, 'subA');
    const one = nextImei();
    const ok = await expectOk<{ status: string; result: { success: number } }>(
      sub.post('/device/import', { text: one, protocol: 2, deviceType: 12, wait: true }),
    );
    expect(ok).toMatchObject({ status: 'done', result: { success: 1 } });
    const s = await expectOk<Summary>(sub.post('/user/userRelationimportNum', { id: t.ids.subA }));
    expect(s).toMatchObject({ remaining: 0, used: 1 });
    const refused = await sub.post('/device/import', {
      text: `${nextImei()}\n${nextImei()}`,
      protocol: 2,
      deviceType: 12,
    });
    expect(refused.meta).toMatchObject({
      success: false,
      message: 'There are not enough imports left to import these devices!',
    });
    sub.lang = 'cn';
    const refusedCn = await sub.post('/device/import', { text: nextImei(), protocol: 2, deviceType: 12 });
    expect(refusedCn.meta.message).toBe('剩余导入数量不足，无法导入这些设备！');
  });

  it('refuses outside the subtree, to non-agents, without the permission, and bad numbers', async () => {
    const agentA = await loginAs(server, 'agentA');
    expect((await agentA.post('/user/addAgentImportNum', { id: t.ids.agentB, num: 1 })).status).toBe(403);
    expect((await agentA.post('/user/addAgentImportNum', { id: t.ids.userA1, num: 1 })).status).toBe(403);
    expect(
      (await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 1, fromId: t.ids.agentB })).status,
    ).toBe(403);
    expect((await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 1.5 })).status).toBe(400);
    expect((await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 0 })).status).toBe(400);
    expect((await agentA.post('/user/addAgentImportNum', { id: t.ids.subA, num: 5, set: true })).status).toBe(403);
    expect((await agentA.post('/user/userRelationimportNum', { id: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/user/findImportNumRecord', { id: t.ids.agentB })).status).toBe(403);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/user/userRelationimportNum', { id: t.ids.userA1 })).status).toBe(403);
    expect((await user.post('/user/addAgentImportNum', { id: t.ids.subA, num: 1 })).status).toBe(403);
  });

  it('the administrator sets a remainder outright (set), recorded as such', async () => {
    await expectOk(t.admin.post('/user/addAgentImportNum', { id: t.ids.agentB, num: 25, set: true }));
    const b = await expectOk<Summary>(t.admin.post('/user/userRelationimportNum', { id: t.ids.agentB }));
    expect(b.remaining).toBe(25);
    const page = await expectOk<{ list: Record_[] }>(t.admin.post('/user/findImportNumRecord', { id: t.ids.agentB }));
    expect(page.list[0]).toMatchObject({ kind: 'set', amount: 25, balance: 25 });
    expect((await t.admin.post('/user/addAgentImportNum', { id: t.ids.agentB, num: -3, set: true })).status).toBe(400);
  });
});
