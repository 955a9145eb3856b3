// Two-factor secrets sealed at rest (clear ones from earlier versions sealed at start), one-time recovery codes
// shown once at enrolment and usable instead of a code, and the reset of another account's two-factor sign-in by an
// administrator or by an agent for its subtree (audited).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSealed } from '../../security/secretBox.ts';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, loginAs, PASSWORD, type Tree } from '../agent/fixtures.ts';
import { base32Decode, generateTotpSecret, totp } from './totp.ts';
import { openTotpSecret, sealClearTotpSecrets } from './totpSecrets.ts';

const codeAt = (secret: string, offsetSteps = 0) => totp(base32Decode(secret), Date.now() + offsetSteps * 30_000);

describe('two-factor secrets at rest, recovery codes and reset', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const row = (id: string) =>
    server.ctx.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret', 'totp_enabled'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function enrol(c: ApiClient): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await expectOk<{ secret: string }>(c.post('/user/totp/setup'));
    const { recoveryCodes } = await expectOk<{ recoveryCodes: string[] }>(
      c.post('/user/totp/enable', { code: codeAt(setup.secret) }),
    );
    return { secret: setup.secret, recoveryCodes };
  }

  /** Password step; answers the ticket of the second step. */
  async function ticketOf(c: ApiClient, username: string): Promise<string> {
    const step1 = await c.login(username, PASSWORD);
    expect(step1.meta.code).toBe(210);
    return (step1.data as unknown as { ticket: string }).ticket;
  }

  it('keeps the secret sealed in the database, pending and confirmed', async () => {
    const c = await loginAs(server, 'userA1');
    const setup = await expectOk<{ secret: string }>(c.post('/user/totp/setup'));
    const pending = await row(t.ids.userA1);
    expect(isSealed(pending.totp_pending_secret!)).toBe(true);
    expect(pending.totp_pending_secret).not.toContain(setup.secret);
    expect(openTotpSecret(pending.totp_pending_secret!)).toBe(setup.secret);
    await expectOk(c.post('/user/totp/enable', { code: codeAt(setup.secret) }));
    const enabled = await row(t.ids.userA1);
    expect(enabled.totp_enabled).toBe(true);
    expect(isSealed(enabled.totp_secret!)).toBe(true);
    expect(JSON.stringify(await server.ctx.db.selectFrom('users').selectAll().execute())).not.toContain(setup.secret);
  });

  it('seals a clear secret of an earlier version at start, and sign-in goes on working before and after', async () => {
    const secret = generateTotpSecret();
    await server.ctx.db
      .updateTable('users')
      .set({ totp_secret: secret, totp_enabled: true, totp_last_step: '0' })
      .where('id', '=', t.ids.userB1)
      .execute();
    // Before the start-up sealing (an earlier version's row): still read.
    const before = new ApiClient(server);
    const done1 = await before.post('/login/totp', { ticket: await ticketOf(before, 'userB1'), code: codeAt(secret) });
    expect(done1.meta.code).toBe(200);
    expect(await sealClearTotpSecrets(server.ctx.db)).toBeGreaterThanOrEqual(1);
    const sealed = await row(t.ids.userB1);
    expect(isSealed(sealed.totp_secret!)).toBe(true);
    expect(await sealClearTotpSecrets(server.ctx.db)).toBe(0);
    const after = new ApiClient(server);
    const done2 = await after.post('/login/totp', { ticket: await ticketOf(after, 'userB1'), code: codeAt(secret, 1) });
    expect(done2.meta.code).toBe(200);
  });

  it('answers ten one-time recovery codes at enrolment (kept hashed); each signs in once instead of a code', async () => {
    const c = await loginAs(server, 'userA2');
    const { recoveryCodes } = await enrol(c);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await server.ctx.db
      .selectFrom('totp_recovery_codes')
      .selectAll()
      .where('user_id', '=', t.ids.userA2)
      .execute();
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of recoveryCodes) expect(dump).not.toContain(code.replace(/-/g, ''));

    const a = new ApiClient(server);
    const ticket = await ticketOf(a, 'userA2');
    expect((await a.post('/login/totp', { ticket, code: 'AAAA-BBBB-CCCC-DDDD' })).meta.code).toBe(211);
    // Typed in lower case without dashes: still the code.
    const typed = recoveryCodes[0].replace(/-/g, '').toLowerCase();
    const done = await a.post<{ userInfo: { username: string } }>('/login/totp', { ticket, code: typed });
    expect(done.meta.code).toBe(200);
    expect(done.data.userInfo.username).toBe('userA2');
    expect((await a.post('/user/findById', { id: t.ids.userA2 })).meta.success).toBe(true);
    // Used up.
    const b = new ApiClient(server);
    expect(
      (await b.post('/login/totp', { ticket: await ticketOf(b, 'userA2'), code: recoveryCodes[0] })).meta.code,
    ).toBe(211);
    // New codes (needs a current code) replace the old ones.
    const renewed = await c.post<{ recoveryCodes: string[]; unusedBefore: number }>('/user/totp/recoveryCodes', {
      code: recoveryCodes[1],
    });
    expect(renewed.meta.success).toBe(false);
    // Disabling accepts a recovery code.
    await expectOk(c.post('/user/totp/disable', { code: recoveryCodes[1] }));
    expect((await row(t.ids.userA2)).totp_enabled).toBe(false);
    const left = await server.ctx.db
      .selectFrom('totp_recovery_codes')
      .select('id')
      .where('user_id', '=', t.ids.userA2)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('renews recovery codes with a current code; the former codes stop working', async () => {
    const c = await loginAs(server, 'subA');
    const { secret, recoveryCodes } = await enrol(c);
    const renewed = await expectOk<{ recoveryCodes: string[]; unusedBefore: number }>(
      c.post('/user/totp/recoveryCodes', { code: codeAt(secret, 1) }),
    );
    expect(renewed.unusedBefore).toBe(10);
    expect(renewed.recoveryCodes).toHaveLength(10);
    const x = new ApiClient(server);
    const ticket = await ticketOf(x, 'subA');
    expect((await x.post('/login/totp', { ticket, code: recoveryCodes[0] })).meta.code).toBe(211);
    expect((await x.post('/login/totp', { ticket, code: renewed.recoveryCodes[0] })).meta.code).toBe(200);
  });

  it('an agent resets the two-factor sign-in of an account of its subtree, an admin of any; audited; others refused', async () => {
    // userA1 has two-factor sign-in on (first test); subA too (previous test).
    const agentA = await loginAs(server, 'agentA');
    const agentB = await loginAs(server, 'agentB');
    const user = new ApiClient(server);
    await user.post('/login/totp', {
      ticket: await ticketOf(user, 'userA1'),
      code: codeAt(openTotpSecret((await row(t.ids.userA1)).totp_secret!), 1),
    });
    expect((await user.post('/user/findById', { id: t.ids.userA1 })).meta.success).toBe(true);

    // Another tenant's agent, a plain user, bad input, oneself: refused, nothing changes.
    expect((await agentB.post('/user/totp/reset', { id: t.ids.userA1 })).status).toBe(403);
    expect((await user.post('/user/totp/reset', { id: t.ids.userA2 })).status).toBe(403);
    expect((await agentA.post('/user/totp/reset', { id: 'x' })).status).toBe(400);
    expect((await agentA.post('/user/totp/reset', { id: t.ids.agentA })).meta.success).toBe(false);
    expect((await row(t.ids.userA1)).totp_enabled).toBe(true);

    const reset = await expectOk<{ wasEnabled: boolean }>(agentA.post('/user/totp/reset', { id: t.ids.userA1 }));
    expect(reset.wasEnabled).toBe(true);
    const after = await row(t.ids.userA1);
    expect(after).toEqual({ totp_secret: null, totp_pending_secret: null, totp_enabled: false });
    // Its sessions ended; the password alone signs in again.
    expect((await user.post('/user/findById', { id: t.ids.userA1 })).meta.message).toBe('407');
    expect((await new ApiClient(server).login('userA1', PASSWORD)).meta.code).toBe(200);
    // The admin reaches any account.
    expect(
      (await expectOk<{ wasEnabled: boolean }>(t.admin.post('/user/totp/reset', { id: t.ids.subA }))).wasEnabled,
    ).toBe(true);

    await server.ctx.services.audit?.flush();
    const log = await server.ctx.db
      .selectFrom('audit_log')
      .select(['operation', 'user_id', 'targets'])
      .where('operation', '=', 'POST /api/user/totp/reset')
      .execute();
    expect(log.map((l) => l.user_id).sort()).toEqual([t.ids.admin, t.ids.agentA].sort());
    expect(log.some((l) => (l.targets as { user?: string[] }).user?.includes(t.ids.userA1))).toBe(true);
  });
});
