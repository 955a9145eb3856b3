import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import {
  buildTree,
  createUser,
  expectOk,
  importDevices,
  loginAs,
  nextImei,
  PASSWORD,
  type Tree,
} from '../agent/fixtures.ts';
import { FIND_USERNAME_PER_MINUTE } from './routes.ts';

interface Row {
  id: string;
  user_id: string;
  ancestors: string;
  username: string;
  role: number;
  deviceNum: number;
  totalDeviceNum: number;
  childCount: number;
}

const DENIED = 'This account has no permission to do this!';

describe('user tree reads (findById, findAllUser, findAllUserV2, findAllAgentByIdV2, findLike, findUsername, getFamily)', () => {
  let server: TestServer;
  let t: Tree;
  let agentA: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    await importDevices(t.admin, t.ids.userA2, [nextImei(), nextImei()]);
    await importDevices(t.admin, t.ids.agentA, [nextImei()]);
    agentA = await loginAs(server, 'agentA');
  });
  afterAll(async () => {
    await server.close();
  });

  it('findById answers an account of the subtree and refuses one outside it', async () => {
    const me = await expectOk<{ username: string; ancestors: string }>(
      agentA.post('/user/findById', { id: t.ids.userA2 }),
    );
    expect(me).toMatchObject({ username: 'userA2', ancestors: `0,1,${t.ids.agentA},${t.ids.subA}` });
    const other = await agentA.post('/user/findById', { id: t.ids.userB1 });
    expect(other.status).toBe(403);
    expect(other.meta.message).toBe(DENIED);
    expect((await agentA.post('/user/findById', { id: 999999 })).meta.message).toBe(DENIED);
    expect((await agentA.post('/user/findById', { id: -1 })).status).toBe(400);
  });

  it('findAllUser lists direct children with own and subtree device counts', async () => {
    const rows = await expectOk<Row[]>(agentA.post('/user/findAllUser', { id: t.ids.agentA }));
    expect(rows.map((r) => r.username).sort()).toEqual(['subA', 'userA1']);
    const sub = rows.find((r) => r.username === 'subA')!;
    expect(sub).toMatchObject({ user_id: t.ids.agentA, role: 2, deviceNum: 0, totalDeviceNum: 2, childCount: 1 });
    expect((await agentA.post('/user/findAllUser', { id: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/user/findAllUser', {})).status).toBe(400);
  });

  it('findAllUserV2 lists the whole subtree, root first, and nothing of the sibling tenant', async () => {
    const rows = await expectOk<Row[]>(agentA.post('/user/findAllUserV2', { id: t.ids.agentA }));
    expect(rows[0]).toMatchObject({ username: 'agentA', deviceNum: 1, totalDeviceNum: 3, childCount: 2 });
    expect(rows.map((r) => r.username).sort()).toEqual(['agentA', 'subA', 'userA1', 'userA2']);
    const admin = await expectOk<Row[]>(t.admin.post('/user/findAllUserV2', { id: 1 }));
    expect(admin.map((r) => r.username)).toEqual(expect.arrayContaining(['agentB', 'userB1', 'demo']));
    expect((await agentA.post('/user/findAllUserV2', { id: 1 })).status).toBe(403);
  });

  it('findAllAgentByIdV2 lists agents only', async () => {
    const rows = await expectOk<Row[]>(agentA.post('/user/findAllAgentByIdV2', { id: t.ids.agentA }));
    expect(rows.map((r) => r.username)).toEqual(['agentA', 'subA']);
    expect((await agentA.post('/user/findAllAgentByIdV2', { id: t.ids.agentB })).status).toBe(403);
  });

  it('findLike searches inside the subtree only', async () => {
    const rows = await expectOk<Row[]>(agentA.post('/user/findLike', { selectName: 'user', id: t.ids.agentA }));
    expect(rows.map((r) => r.username).sort()).toEqual(['userA1', 'userA2']);
    const none = await expectOk<Row[]>(agentA.post('/user/findLike', { selectName: 'userB' }));
    expect(none).toEqual([]);
    expect((await agentA.post('/user/findLike', { selectName: '' })).status).toBe(400);
    expect((await agentA.post('/user/findLike', { selectName: 'x', id: t.ids.agentB })).status).toBe(403);
  });

  it('findUsername tells whether a name is in use, ignoring case', async () => {
    expect(await expectOk(agentA.post('/user/findUsername', { username: 'AGENTB' }))).toEqual({ exists: true });
    expect(await expectOk(agentA.post('/user/findUsername', { username: 'nobody-here' }))).toEqual({ exists: false });
    expect((await agentA.post('/user/findUsername', { username: '' })).status).toBe(400);
    const user = await loginAs(server, 'userA1');
    // Only a caller who may create accounts may ask (a plain user cannot list which names exist)...
    const denied = await user.post('/user/findUsername', { username: 'AGENTB' });
    expect(denied.status).toBe(403);
    expect(denied.meta.message).toBe('This account has no permission to do this!');
    // ...and only so often: calls beyond the limit in a minute answer 429 with the wait.
    const sub = await loginAs(server, 'subA');
    const statuses: number[] = [];
    for (let i = 0; i <= FIND_USERNAME_PER_MINUTE; i++) {
      statuses.push((await sub.post('/user/findUsername', { username: `name${i}` })).status);
    }
    expect(statuses.slice(0, FIND_USERNAME_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const limited = await sub.post('/user/findUsername', { username: 'one-more' });
    expect(limited.status).toBe(429);
    expect(limited.meta.message).toMatch(/^Too many requests, please try again in \d+ seconds$/);
    // A plain user holds agent edit (its own profile) but the list calls stay inside its one-account subtree.
    expect((await user.post('/user/findAllUserV2', { id: t.ids.agentA })).status).toBe(403);
  });

  it('getFamily gives the superiors the caller reaches and the children', async () => {
    const fam = await expectOk<{ user: Row; ancestors: Row[]; children: Row[] }>(
      agentA.post('/user/getFamily', { id: t.ids.userA2 }),
    );
    expect(fam.user.username).toBe('userA2');
    expect(fam.ancestors.map((r) => r.username)).toEqual(['agentA', 'subA']);
    expect(fam.children).toEqual([]);
    const adminView = await expectOk<{ ancestors: Row[] }>(t.admin.post('/user/getFamily', { id: t.ids.userA2 }));
    expect(adminView.ancestors.map((r) => r.username)).toEqual(['admin', 'agentA', 'subA']);
    expect((await agentA.post('/user/getFamily', { id: t.ids.userB1 })).status).toBe(403);
  });

  it('superior names the caller\'s own superior only (the superAgent\'s "whom to ask")', async () => {
    await expectOk(
      t.admin.post('/user/updateUser', { id: t.ids.agentA, nickname: 'Agent A Ltd', telephone: '13800000001' }),
    );
    const sa = await createUser(t.admin, 'superAgentX', 13, t.ids.agentA);
    expect(sa).toBeTruthy();
    const client = await loginAs(server, 'superAgentX');
    const sup = await expectOk<{ name: string; telephone: string } | null>(client.get('/user/superior'));
    expect(sup).toMatchObject({ name: 'Agent A Ltd', telephone: '13800000001' });
    expect(await expectOk(t.admin.get('/user/superior'))).toBeNull();
    expect((await client.get('/user/superior?id=1')).meta.success).toBe(true);
    const anon = await server.app.inject({ method: 'GET', url: '/api/user/superior' });
    expect(anon.statusCode === 401 || JSON.parse(anon.body).meta?.message === '407').toBe(true);
  });
});

describe('user tree writes (insertUser, updateUser, transferAgent, deleteUser, deleteAllUser, updateUserName, updateRole, resetPassword, clear)', () => {
  let server: TestServer;
  let t: Tree;
  let agentA: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    agentA = await loginAs(server, 'agentA');
  });
  afterAll(async () => {
    await server.close();
  });

  it('insertUser creates under the caller or a sub-agent and sets the path', async () => {
    const id = await createUser(agentA, 'newUser1', 3, t.ids.subA, { nickname: 'New', telephone: '13800138000' });
    const row = await expectOk<{ ancestors: string; nickname: string; parentId: string }>(
      agentA.post('/user/findById', { id }),
    );
    expect(row).toMatchObject({
      ancestors: `0,1,${t.ids.agentA},${t.ids.subA}`,
      nickname: 'New',
      parentId: t.ids.subA,
    });
    const own = await createUser(agentA, 'newUser2', 4);
    expect((await expectOk<{ parentId: string }>(agentA.post('/user/findById', { id: own }))).parentId).toBe(
      t.ids.agentA,
    );
    expect((await loginAs(server, 'newUser1')).cookie).not.toBe('');
  });

  it('insertUser refuses a taken name (any case) with the spec message, in the caller language', async () => {
    const dup = await agentA.post('/user/insertUser', { username: 'AgentB', password: PASSWORD, role: 3 });
    expect(dup.meta).toMatchObject({ success: false, message: 'The user name is already in use!' });
    agentA.lang = 'cn';
    const dupCn = await agentA.post('/user/insertUser', { username: 'agentb', password: PASSWORD, role: 3 });
    expect(dupCn.meta.message).toBe('该用户名已被使用！');
    agentA.lang = 'en';
  });

  it('insertUser enforces the account rules', async () => {
    const underUser = await agentA.post('/user/insertUser', {
      username: 'kid1',
      password: PASSWORD,
      role: 3,
      parentId: t.ids.userA1,
    });
    expect(underUser.meta.message).toBe('A non-agent account cannot have sub-users');
    const mismatch = await agentA.post('/user/insertUser', {
      username: 'kid2',
      password: PASSWORD,
      confirmPassword: 'other',
      role: 3,
    });
    expect(mismatch.meta.message).toBe('The two passwords do not match');
    const adminRole = await agentA.post('/user/insertUser', { username: 'kid3', password: PASSWORD, role: 1 });
    expect(adminRole.meta.message).toBe('This role cannot be assigned by this account');
    const foreign = await agentA.post('/user/insertUser', {
      username: 'kid4',
      password: PASSWORD,
      role: 3,
      parentId: t.ids.agentB,
    });
    expect(foreign.status).toBe(403);
    const short = await agentA.post('/user/insertUser', { username: 'kid5', password: '123', role: 3 });
    expect(short.meta.message).toBe('The password must have at least 6 characters');
    const badName = await agentA.post('/user/insertUser', { username: 'has space', password: PASSWORD, role: 3 });
    expect(badName.meta.message).toBe('Enter the correct username!');
    expect((await agentA.post('/user/insertUser', { username: 'kid6', password: PASSWORD, role: 99 })).status).toBe(
      400,
    );
    const user = await loginAs(server, 'userA1');
    const noPerm = await user.post('/user/insertUser', { username: 'kid7', password: PASSWORD, role: 3 });
    expect(noPerm.status).toBe(403);
  });

  it('updateUser edits oneself and subordinates; only a superior changes an expiry', async () => {
    await expectOk(agentA.post('/user/updateUser', { id: t.ids.userA1, nickname: 'Renamed', address: 'Street 1' }));
    const row = await expectOk<{ nickname: string; address: string }>(
      agentA.post('/user/findById', { id: t.ids.userA1 }),
    );
    expect(row).toMatchObject({ nickname: 'Renamed', address: 'Street 1' });
    const user = await loginAs(server, 'userA1');
    await expectOk(user.post('/user/updateUser', { id: t.ids.userA1, telephone: '13900139000' }));
    const self = await user.post('/user/updateUser', { id: t.ids.userA1, expireAt: '2099-01-01T00:00:00Z' });
    expect(self.status).toBe(403);
    expect((await user.post('/user/updateUser', { id: t.ids.agentA, nickname: 'x' })).status).toBe(403);
    expect((await agentA.post('/user/updateUser', { id: t.ids.userB1, nickname: 'x' })).status).toBe(403);
    expect((await agentA.post('/user/updateUser', { id: t.ids.userA1, expireAt: 'not a date' })).status).toBe(400);
  });

  it('transferAgent moves an account with its subtree and refuses cycles and foreign targets', async () => {
    const leaf = await createUser(agentA, 'moveLeaf', 3, t.ids.subA);
    await expectOk(agentA.post('/user/transferAgent', { id: t.ids.subA, user_id: t.ids.agentA }));
    const sub2 = await createUser(agentA, 'sub2', 2);
    await expectOk(agentA.post('/user/transferAgent', { id: t.ids.subA, user_id: sub2 }));
    const moved = await expectOk<{ ancestors: string }>(agentA.post('/user/findById', { id: leaf }));
    expect(moved.ancestors).toBe(`0,1,${t.ids.agentA},${sub2},${t.ids.subA}`);
    const cycle = await agentA.post('/user/transferAgent', { id: sub2, user_id: t.ids.subA });
    expect(cycle.meta.message).toBe('An account cannot be moved under one of its own subordinates');
    const underUser = await agentA.post('/user/transferAgent', { id: leaf, user_id: t.ids.userA1 });
    expect(underUser.meta.message).toBe('A non-agent account cannot have sub-users');
    expect((await agentA.post('/user/transferAgent', { id: leaf, user_id: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/user/transferAgent', { id: t.ids.agentA, user_id: sub2 })).meta.message).toBe(
      'This cannot be done to your own account',
    );
    expect((await agentA.post('/user/transferAgent', { id: leaf })).status).toBe(400);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/user/transferAgent', { id: leaf, user_id: t.ids.agentA })).status).toBe(403);
  });

  it('deleteUser refuses accounts with sub-accounts or devices, returns quota to the parent, ends sessions', async () => {
    const parent = await createUser(agentA, 'delParent', 2);
    const child = await createUser(agentA, 'delChild', 3, parent);
    const withKids = await agentA.post('/user/deleteUser', { id: parent });
    expect(withKids.meta.message).toBe('This account still has sub-agents and cannot be deleted');
    const imei = nextImei();
    await importDevices(t.admin, child, [imei]);
    const withDevices = await agentA.post('/user/deleteUser', { id: child });
    expect(withDevices.meta.message).toBe('This account still has devices and cannot be deleted');
    await expectOk(t.admin.post('/device/transfer', { terminalIDs: [imei], userId: t.ids.agentA }));
    const childClient = await loginAs(server, 'delChild');
    await expectOk(agentA.post('/user/deleteUser', { id: child }));
    expect((await childClient.post('/user/findById', { id: child })).meta.message).toBe('407');
    await expectOk(t.admin.post('/user/addAgentImportNum', { id: parent, num: 7 }));
    const before = await expectOk<{ remaining: number }>(
      agentA.post('/user/userRelationimportNum', { id: t.ids.agentA }),
    );
    await expectOk(agentA.post('/user/deleteUser', { id: parent }));
    const after = await expectOk<{ remaining: number }>(
      agentA.post('/user/userRelationimportNum', { id: t.ids.agentA }),
    );
    expect(after.remaining).toBe(before.remaining + 7);
    expect((await agentA.post('/user/deleteUser', { id: t.ids.userB1 })).status).toBe(403);
    expect((await agentA.post('/user/deleteUser', { id: 'x' })).status).toBe(400);
  });

  it('deleteAllUser deletes what it may and lists refusals in the caller language', async () => {
    const p = await createUser(agentA, 'bulkP', 2);
    const c = await createUser(agentA, 'bulkC', 3, p);
    const lone = await createUser(agentA, 'bulkLone', 3);
    const res = await expectOk<{ deleted: string[]; refused: { id: string; message: string }[] }>(
      agentA.post('/user/deleteAllUser', { ids: [p, c, lone, t.ids.userB1] }),
    );
    expect(res.deleted.sort()).toEqual([p, c, lone].sort());
    expect(res.refused).toEqual([{ id: t.ids.userB1, message: DENIED }]);
    expect((await agentA.post('/user/deleteAllUser', { ids: [] })).status).toBe(400);
  });

  it('updateUserName renames and keeps names unique', async () => {
    const id = await createUser(agentA, 'renameMe', 3);
    await expectOk(agentA.post('/user/updateUserName', { id, username: 'renamedOk' }));
    expect((await loginAs(server, 'renamedOk')).cookie).not.toBe('');
    const taken = await agentA.post('/user/updateUserName', { id, username: 'AGENTB' });
    expect(taken.meta.message).toBe('The user name is already in use!');
    expect((await agentA.post('/user/updateUserName', { id: t.ids.userB1, username: 'zzz1' })).status).toBe(403);
    expect((await agentA.post('/user/updateUserName', { id, username: ' ' })).meta.message).toBe(
      'Enter the correct username!',
    );
  });

  it('updateRole changes a role within what the caller may give, and ends the account sessions', async () => {
    const id = await createUser(agentA, 'roleMe', 3);
    const client = await loginAs(server, 'roleMe');
    await expectOk(agentA.post('/user/updateRole', { id, role: 2 }));
    expect((await client.post('/user/findById', { id })).meta.message).toBe('407');
    expect((await expectOk<{ role: number }>(agentA.post('/user/findById', { id }))).role).toBe(2);
    await createUser(agentA, 'roleKid', 3, id);
    const demote = await agentA.post('/user/updateRole', { id, role: 3 });
    expect(demote.meta.message).toBe('This account has sub-users, so it must keep an agent role');
    expect((await agentA.post('/user/updateRole', { id, role: 5 })).meta.message).toBe(
      'This role cannot be assigned by this account',
    );
    expect((await agentA.post('/user/updateRole', { id: t.ids.userB1, role: 3 })).status).toBe(403);
    expect((await agentA.post('/user/updateRole', { id, role: 'agent' })).status).toBe(400);
  });

  it('resetPassword sets a new random password shown once, to be changed at next sign-in; sessions end; clear logs out', async () => {
    const id = await createUser(agentA, 'resetMe', 3);
    const client = await loginAs(server, 'resetMe');
    const { password } = await expectOk<{ password: string }>(agentA.post('/user/resetPassword', { id }));
    expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{12}$/);
    const second = await expectOk<{ password: string }>(agentA.post('/user/resetPassword', { id }));
    expect(second.password).not.toBe(password);
    expect((await client.post('/user/findById', { id })).meta.message).toBe('407');
    expect((await new ApiClient(server).login('resetMe', 'Carhere-123456')).meta.code).toBe(209);
    expect((await new ApiClient(server).login('resetMe', password)).meta.code).toBe(209);
    // Signed in as the server sees it before the owner's first change (no harness help).
    const again = new ApiClient(server);
    expect((await again.login('resetMe', second.password)).meta.code).toBe(200);
    expect((await expectOk(again.get(`/user/checkPassword?id=${id}`))) as unknown).toEqual({ isDefault: true });
    // Until the password is changed, everything else is refused.
    const blocked = await again.post('/user/findById', { id });
    expect(blocked.status).toBe(403);
    expect(blocked.meta.message).toBe('You must change your password before continuing');
    const cleared = await expectOk<{ sessions: number }>(agentA.post('/user/clear', { id }));
    expect(cleared.sessions).toBe(1);
    expect((await again.post('/user/findById', { id })).meta.message).toBe('407');
    expect((await agentA.post('/user/resetPassword', { id: t.ids.userB1 })).status).toBe(403);
    expect((await agentA.post('/user/clear', { id: t.ids.userB1 })).status).toBe(403);
    expect((await agentA.post('/user/resetPassword', {})).status).toBe(400);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/user/resetPassword', { id })).status).toBe(403);
  });
});
