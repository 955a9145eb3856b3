import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, importDevices, loginAs, nextImei, PASSWORD, type Tree } from '../agent/fixtures.ts';

describe('passwords, device accounts and login by IMEI', () => {
  let server: TestServer;
  let t: Tree;
  let imeis: string[];
  const passwords = new Map<string, string>();
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    imeis = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei(), nextImei()]);
    await importDevices(t.admin, t.ids.agentB, [nextImei()]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('checkUserPassword changes one’s own password after checking the old one; other sessions end', async () => {
    const a = await loginAs(server, 'userA1');
    const b = await loginAs(server, 'userA1');
    const wrong = await a.post('/user/checkUserPassword', {
      oldPassword: 'nope',
      password: 'NewPass1',
      confirmPassword: 'NewPass1',
    });
    expect(wrong.meta.message).toBe('The current password is wrong');
    const mismatch = await a.post('/user/checkUserPassword', {
      oldPassword: PASSWORD,
      password: 'NewPass1',
      confirmPassword: 'NewPass2',
    });
    expect(mismatch.meta.message).toBe('The two passwords do not match');
    const short = await a.post('/user/checkUserPassword', {
      oldPassword: PASSWORD,
      password: 'abc',
      confirmPassword: 'abc',
    });
    expect(short.meta.message).toBe('The password must have at least 6 characters');
    expect((await a.post('/user/checkUserPassword', { oldPassword: PASSWORD })).status).toBe(400);
    await expectOk(
      a.post('/user/checkUserPassword', { oldPassword: PASSWORD, password: 'NewPass1', confirmPassword: 'NewPass1' }),
    );
    expect((await a.post('/user/findById', { id: t.ids.userA1 })).meta.success).toBe(true);
    expect((await b.post('/user/findById', { id: t.ids.userA1 })).meta.message).toBe('407');
    expect((await new ApiClient(server).login('userA1', 'NewPass1')).meta.code).toBe(200);
    const anonymous = { oldPassword: 'NewPass1', password: 'x', confirmPassword: 'x' };
    expect((await new ApiClient(server).post('/user/checkUserPassword', anonymous)).meta.message).toBe('407');
  });

  it('a password the creator typed (admin or agent, any role) must be changed at first sign-in; the owner’s change clears it', async () => {
    const agentA = await loginAs(server, 'agentA');
    for (const [creator, name, role] of [
      [t.admin, 'typedByAdmin', 2],
      [agentA, 'typedByAgent', 3],
      [agentA, 'typedAgentByAgent', 2],
    ] as const) {
      await expectOk(creator.post('/user/insertUser', { username: name, password: 'Typed-pass-1', role }));
      const owner = new ApiClient(server);
      const login = await owner.login(name, 'Typed-pass-1');
      expect(login.meta.code).toBe(200);
      expect((login.data as unknown as { restriction: string | null }).restriction).toBe('changePassword');
      const refused = await owner.post('/user/findById', { id: login.data.userInfo.id });
      expect(refused.status).toBe(403);
      expect(refused.meta.message).toBe('You must change your password before continuing');
      // The same password again is not a change.
      const same = { oldPassword: 'Typed-pass-1', password: 'Typed-pass-1', confirmPassword: 'Typed-pass-1' };
      expect((await owner.post('/user/checkUserPassword', same)).meta.success).toBe(false);
      const own = { oldPassword: 'Typed-pass-1', password: 'Owners-own-1', confirmPassword: 'Owners-own-1' };
      await expectOk(owner.post('/user/checkUserPassword', own));
      expect((await expectOk<{ restriction: string | null }>(owner.get('/session'))).restriction).toBeNull();
      expect((await owner.post('/user/findById', { id: login.data.userInfo.id })).meta.success).toBe(true);
    }
  });

  it('GET checkPassword says whether an account still has a password someone else set', async () => {
    const agentA = await loginAs(server, 'agentA');
    expect(await expectOk(agentA.get('/user/checkPassword'))).toEqual({ isDefault: false });
    // userA2 was created with a password its creator typed and has not signed in yet.
    expect(await expectOk(agentA.get(`/user/checkPassword?id=${t.ids.userA2}`))).toEqual({ isDefault: true });
    expect((await agentA.get(`/user/checkPassword?id=${t.ids.userB1}`)).status).toBe(403);
    expect((await agentA.get('/user/checkPassword?id=abc')).status).toBe(400);
  });

  it('a sale as device accounts creates an account per IMEI with its own random password, shown once', async () => {
    const agentA = await loginAs(server, 'agentA');
    const sale = await expectOk<{ success: number; accounts: { terminalID: string; password: string }[] }>(
      agentA.post('/device/userSale', { terminalIDs: [imeis[0], imeis[1]], asDeviceAccounts: true }),
    );
    expect(sale.success).toBe(2);
    expect(sale.accounts.map((a) => a.terminalID)).toEqual([imeis[0], imeis[1]]);
    const [p0, p1] = sale.accounts.map((a) => a.password);
    expect(p0).toMatch(/^[A-HJ-NP-Za-km-z2-9]{12}$/);
    expect(p0).not.toBe(p1);
    passwords.set(imeis[0], p0);
    passwords.set(imeis[1], p1);
    // No shared default: the old one, or another account's password, does not open the account.
    for (const guess of ['Carhere-123456', p1]) {
      const c = new ApiClient(server);
      expect((await c.post('/loginByCert', { terminalID: imeis[0], password: guess })).meta.code).toBe(209);
    }
    const c = new ApiClient(server);
    const login = await c.post<{ userInfo: { username: string }; restriction: string | null }>('/loginByCert', {
      terminalID: imeis[0],
      password: p0,
    });
    expect(login.meta.code).toBe(200);
    expect(login.data.userInfo.username).toBe(imeis[0]);
    // The password must be changed first: every other call is refused with a clear message.
    expect(login.data.restriction).toBe('changePassword');
    const refused = await c.post('/device/findByUserId', {});
    expect(refused.status).toBe(403);
    expect(refused.meta.message).toBe('You must change your password before continuing');
    const same = await c.post('/user/checkUserPassword', { oldPassword: p0, password: p0, confirmPassword: p0 });
    expect(same.meta.message).toBe('The new password must differ from the current one');
    await expectOk(
      c.post('/user/checkUserPassword', { oldPassword: p0, password: 'Mine-123', confirmPassword: 'Mine-123' }),
    );
    passwords.set(imeis[0], 'Mine-123');
    expect((await expectOk<{ restriction: string | null }>(c.get('/session'))).restriction).toBeNull();
    const list = await expectOk<{ list: { terminalID: string }[] }>(c.post('/device/findByUserId', {}));
    expect(list.list.map((d) => d.terminalID)).toEqual([imeis[0]]);
    const wrong = await new ApiClient(server).post('/loginByCert', { terminalID: imeis[1], password: 'bad-password' });
    expect(wrong.meta).toMatchObject({ success: false, code: 209, message: 'wrong username or password' });
    // A device without a device account cannot be used to log in.
    expect((await new ApiClient(server).post('/loginByCert', { terminalID: imeis[2], password: 'x' })).meta.code).toBe(
      209,
    );
    expect(
      (await new ApiClient(server).post('/loginByCert', { terminalID: 'bad imei', password: 'x' })).meta.code,
    ).toBe(201);
    expect((await new ApiClient(server).post('/loginByCert', { terminalID: imeis[0] })).status).toBe(400);
  });

  it('updatePwdByTerminalIds gives device accounts of the subtree new random passwords, shown once', async () => {
    const agentA = await loginAs(server, 'agentA');
    const before = passwords.get(imeis[1])!;
    const acct = await loginAs(server, imeis[1], before);
    await expectOk(
      acct.post('/user/checkUserPassword', { oldPassword: before, password: 'Changed1', confirmPassword: 'Changed1' }),
    );
    const res = await expectOk<{
      updated: string[];
      notFound: string[];
      passwords: { terminalId: string; password: string }[];
    }>(agentA.post('/user/updatePwdByTerminalIds', { terminalIds: [imeis[1], imeis[2], '999999999999999'] }));
    expect(res.updated).toEqual([imeis[1]]);
    expect(res.notFound).toEqual([imeis[2], '999999999999999']);
    expect(res.passwords.map((p) => p.terminalId)).toEqual([imeis[1]]);
    const fresh = res.passwords[0].password;
    expect(fresh).not.toBe(before);
    expect((await new ApiClient(server).login(imeis[1], 'Changed1')).meta.code).toBe(209);
    const again = await new ApiClient(server).login(imeis[1], fresh);
    expect(again.meta.code).toBe(200);
    expect((again.data as unknown as { restriction: string }).restriction).toBe('changePassword');
    const agentB = await loginAs(server, 'agentB');
    const foreign = await expectOk<{ updated: string[]; passwords: unknown[] }>(
      agentB.post('/user/updatePwdByTerminalIds', { terminalIds: [imeis[0]] }),
    );
    expect(foreign.updated).toEqual([]);
    expect(foreign.passwords).toEqual([]);
    expect((await agentA.post('/user/updatePwdByTerminalIds', { terminalIds: [] })).status).toBe(400);
    const user = await loginAs(server, 'userA2');
    expect((await user.post('/user/updatePwdByTerminalIds', { terminalIds: [imeis[0]] })).status).toBe(403);
  });
  it('updateDeviceUsername (main:device_username) renames the account of a device of the subtree, nothing else', async () => {
    const agentA = await loginAs(server, 'agentA');
    const agentB = await loginAs(server, 'agentB');
    const user = await loginAs(server, 'userA2');
    const account = await server.ctx.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', '=', imeis[0])
      .executeTakeFirstOrThrow();
    // Without the permission, from the sibling tenant, a device held by an agent, oneself, bad input: refused.
    expect((await user.post('/user/updateDeviceUsername', { terminalID: imeis[0], username: 'car-1' })).status).toBe(
      403,
    );
    expect((await agentB.post('/user/updateDeviceUsername', { terminalID: imeis[0], username: 'car-1' })).status).toBe(
      403,
    );
    expect((await t.admin.post('/user/updateDeviceUsername', { terminalID: imeis[2], username: 'car-1' })).status).toBe(
      403,
    );
    expect((await agentA.post('/user/updateDeviceUsername', { terminalID: imeis[2], username: 'car-1' })).status).toBe(
      400,
    );
    expect((await agentA.post('/user/updateDeviceUsername', { terminalID: imeis[0] })).status).toBe(400);
    const taken = await agentA.post('/user/updateDeviceUsername', { terminalID: imeis[0], username: 'AGENTB' });
    expect(taken.meta.message).toBe('The user name is already in use!');
    expect(
      (await server.ctx.db.selectFrom('users').select('username').where('id', '=', account.id).executeTakeFirst())
        ?.username,
    ).toBe(imeis[0]);

    const renamed = await expectOk<{ id: string; from: string; to: string }>(
      agentA.post('/user/updateDeviceUsername', { terminalID: imeis[0], username: 'Car-Owner-1' }),
    );
    expect(renamed).toEqual({ id: account.id, from: imeis[0], to: 'Car-Owner-1' });
    // The account signs in under its new name with its password, and still sees its device.
    const owner = await loginAs(server, 'Car-Owner-1', passwords.get(imeis[0]));
    const list = await expectOk<{ list: { terminalID: string }[] }>(owner.post('/device/findByUserId', {}));
    expect(list.list.map((d) => d.terminalID)).toEqual([imeis[0]]);
  });
});

describe('importUser (bulk accounts as a job with progress)', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
  });
  afterAll(async () => {
    await server.close();
  });

  interface Job {
    id: string;
    status: string;
    total: number;
    processed: number;
    result: {
      success: number;
      failure: number;
      created: { username: string; password?: string }[];
      refused: { line: number; username: string; message: string }[];
    } | null;
  }

  it('creates the valid rows, refuses the others with reasons, and reports progress until done', async () => {
    const agentA = await loginAs(server, 'agentA');
    const rows = [
      { username: 'imp1', nickname: 'One' },
      { username: 'imp2', password: 'Secret12', role: 4 },
      { username: 'agentB' },
      { username: 'imp1' },
      { username: 'bad name' },
      { username: 'imp3', role: 1 },
    ];
    const started = await expectOk<Job>(agentA.post('/user/importUser', { parentId: t.ids.subA, rows }));
    expect(started.total).toBe(6);
    let job = started;
    for (let i = 0; i < 200 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      job = await expectOk<Job>(agentA.get(`/user/importJob?id=${started.id}`));
    }
    expect(job.status).toBe('done');
    expect(job.processed).toBe(6);
    expect(job.result).toMatchObject({ success: 2, failure: 4 });
    expect(job.result!.refused.map((r) => [r.line, r.message])).toEqual([
      [3, 'The user name is already in use!'],
      [4, 'The user name is already in use!'],
      [5, 'Enter the correct username!'],
      [6, 'This role cannot be assigned by this account'],
    ]);
    // A row without a password gets a random one, answered once to the importer; every imported account must
    // change its password at first sign-in.
    const generated = job.result!.created.find((c) => c.username === 'imp1')?.password;
    expect(generated).toMatch(/^[A-HJ-NP-Za-km-z2-9]{12}$/);
    expect(job.result!.created.find((c) => c.username === 'imp2')?.password).toBeUndefined();
    const reread = await expectOk<Job>(agentA.get(`/user/importJob?id=${started.id}`));
    expect(reread.result!.created.every((c) => c.password === undefined)).toBe(true);
    const imp2 = await new ApiClient(server).login('imp2', 'Secret12');
    expect((imp2.data as unknown as { restriction: string }).restriction).toBe('changePassword');
    expect((await new ApiClient(server).login('imp1', 'Carhere-123456')).meta.code).toBe(209);
    const imp1 = await new ApiClient(server).login('imp1', generated!);
    expect((imp1.data as unknown as { restriction: string }).restriction).toBe('changePassword');
    const kids = await expectOk<{ username: string }[]>(agentA.post('/user/findAllUser', { id: t.ids.subA }));
    expect(kids.map((k) => k.username)).toEqual(expect.arrayContaining(['imp1', 'imp2']));
  });

  it('refuses a foreign parent, a missing permission, bad rows, and another account’s job', async () => {
    const agentA = await loginAs(server, 'agentA');
    expect(
      (await agentA.post('/user/importUser', { parentId: t.ids.agentB, rows: [{ username: 'x1x' }] })).status,
    ).toBe(403);
    expect((await agentA.post('/user/importUser', { rows: [] })).status).toBe(400);
    expect((await agentA.post('/user/importUser', { rows: [{ nickname: 'no name' }] })).status).toBe(400);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/user/importUser', { rows: [{ username: 'x2x' }] })).status).toBe(403);
    const job = await expectOk<Job>(agentA.post('/user/importUser', { rows: [{ username: 'imp9' }], wait: true }));
    expect(job.status).toBe('done');
    const agentB = await loginAs(server, 'agentB');
    expect((await agentB.get(`/user/importJob?id=${job.id}`)).status).toBe(404);
    expect((await agentA.get('/user/importJob?id=not-a-uuid')).status).toBe(400);
  });
});
