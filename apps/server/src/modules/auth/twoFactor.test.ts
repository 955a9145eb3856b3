// Two-factor sign-in through the API: enrolment confirmed by a first code, the password step alone opens no
// session, the code step does (once per code), disabling needs a code, and the administrator's requirement
// makes an administrator or agent without it enrol before anything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, loginAs, PASSWORD, type Tree } from '../agent/fixtures.ts';
import { base32Decode, totp } from './totp.ts';

const codeAt = (secret: string, offsetSteps = 0) => totp(base32Decode(secret), Date.now() + offsetSteps * 30_000);

describe('two-factor sign-in (TOTP)', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
  });
  afterAll(async () => {
    await server.close();
  });

  async function enrol(c: ApiClient): Promise<string> {
    const setup = await expectOk<{ secret: string; uri: string }>(c.post('/user/totp/setup'));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    expect(setup.uri.startsWith('otpauth://totp/Carhere')).toBe(true);
    await expectOk(c.post('/user/totp/enable', { code: codeAt(setup.secret) }));
    return setup.secret;
  }

  it('enrols with a first code; the password alone then gives no session; the code does, once', async () => {
    const c = await loginAs(server, 'userA1');
    const setup = await expectOk<{ secret: string }>(c.post('/user/totp/setup'));
    const wrong = await c.post('/user/totp/enable', { code: '000000' === codeAt(setup.secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.meta.message).toBe('The verification code is wrong');
    expect((await c.post('/user/totp/enable', { code: 12 })).status).toBe(400);
    await expectOk(c.post('/user/totp/enable', { code: codeAt(setup.secret) }));
    const secret = setup.secret;
    expect((await c.post('/user/totp/setup')).meta.message).toBe('Two-factor sign-in is already on');
    // The secret is never answered again.
    const session = await c.get('/session');
    expect(JSON.stringify(session)).not.toContain(secret);
    expect((session.data as { totpEnabled: boolean }).totpEnabled).toBe(true);

    const fresh = new ApiClient(server);
    const step1 = await fresh.login('userA1', PASSWORD);
    expect(step1.meta.code).toBe(210);
    expect(step1.meta.message).toBe('Enter the 6-digit code from your authenticator app');
    expect(fresh.cookie).toBe('');
    const ticket = (step1.data as unknown as { ticket: string }).ticket;
    expect(ticket.length).toBeGreaterThan(20);
    expect((await fresh.get('/session')).data).toBeNull();
    expect((await fresh.post('/user/findById', { id: t.ids.userA1 })).status).toBe(401);

    const bad = await fresh.post('/login/totp', { ticket, code: '12345x' });
    expect(bad.meta.code).toBe(211);
    expect(fresh.cookie).toBe('');
    const next = codeAt(secret, 1); // one step ahead (allowed), later than the step used to enrol
    const done = await fresh.post<{ userInfo: { username: string } }>('/login/totp', { ticket, code: next });
    expect(done.meta.code).toBe(200);
    expect(done.data.userInfo.username).toBe('userA1');
    expect(fresh.cookie).not.toBe('');
    expect((await fresh.post('/user/findById', { id: t.ids.userA1 })).meta.success).toBe(true);
    // The ticket is spent, and the same code cannot open another session.
    expect((await new ApiClient(server).post('/login/totp', { ticket, code: next })).meta.code).toBe(212);
    const other = new ApiClient(server);
    const t2 = (await other.login('userA1', PASSWORD)).data as unknown as { ticket: string };
    expect((await other.post('/login/totp', { ticket: t2.ticket, code: next })).meta.code).toBe(211);
    expect((await other.post('/login/totp', { ticket: 'nope', code: next })).meta.code).toBe(212);
    expect((await other.post('/login/totp', { ticket: t2.ticket })).status).toBe(400);
  });

  it('a ticket dies after five wrong codes', async () => {
    const c = new ApiClient(server);
    const { ticket } = (await c.login('userA1', PASSWORD)).data as unknown as { ticket: string };
    for (let i = 0; i < 5; i++)
      expect((await c.post('/login/totp', { ticket, code: '000000' })).meta.code).not.toBe(200);
    expect((await c.post('/login/totp', { ticket, code: '000000' })).meta.code).toBe(212);
  });

  it('disabling needs a current code', async () => {
    const c = await loginAs(server, 'userA2');
    const secret = await enrol(c);
    expect((await c.post('/user/totp/disable', { code: '' })).meta.message).toBe('The verification code is wrong');
    // Let the enrolment's step pass (instead of waiting 30 s): a code is accepted only once.
    await server.ctx.db.updateTable('users').set({ totp_last_step: '0' }).where('id', '=', t.ids.userA2).execute();
    await expectOk(c.post('/user/totp/disable', { code: codeAt(secret) }));
    expect((await c.post('/user/totp/disable', { code: codeAt(secret) })).meta.message).toBe(
      'Two-factor sign-in is not on',
    );
    expect((await new ApiClient(server).login('userA2', PASSWORD)).meta.code).toBe(200);
    expect((await new ApiClient(server).post('/user/totp/setup')).status).toBe(401);
  });

  it('the administrator can require it for administrators and agents: they enrol before anything else', async () => {
    const agentB = await loginAs(server, 'agentB');
    expect((await agentB.post('/system/loginSecurity', { requireTotpForStaff: true })).status).toBe(403);
    expect((await t.admin.post('/system/loginSecurity', { requireTotpForStaff: 'yes' })).status).toBe(400);
    await expectOk(t.admin.post('/system/loginSecurity', { requireTotpForStaff: true }));
    expect(await expectOk(t.admin.get('/system/loginSecurity'))).toEqual({ requireTotpForStaff: true });

    const agent = new ApiClient(server);
    const login = await agent.login('agentB', PASSWORD);
    expect(login.meta.code).toBe(200);
    expect((login.data as unknown as { restriction: string }).restriction).toBe('enrolTotp');
    const refused = await agent.post('/user/findById', { id: t.ids.agentB });
    expect(refused.status).toBe(403);
    expect(refused.meta.message).toBe('This account must use two-factor sign-in: set it up before continuing');
    await enrol(agent);
    expect((await expectOk<{ restriction: string | null }>(agent.get('/session'))).restriction).toBeNull();
    expect((await agent.post('/user/findById', { id: t.ids.agentB })).meta.success).toBe(true);
    // A plain user is not concerned.
    const user = new ApiClient(server);
    const userLogin = await user.signInAsOwner('userB1', PASSWORD);
    expect((userLogin.data as unknown as { restriction: string | null }).restriction).toBeNull();
    await expectOk(t.admin.post('/system/loginSecurity', { requireTotpForStaff: false }));
  });
});
