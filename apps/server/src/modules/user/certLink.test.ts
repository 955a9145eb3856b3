// The seller's sign-in link for a device account (/loginByCert?imei=…&link=…, issue 16): made by a seller that
// reaches the device and holds main:device_reset_password; the customer who opens it chooses the password and is
// signed in on that device; the link works once, for its IMEI only, until it expires; forged links fail.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecret } from '../../security/secretBox.ts';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, importDevices, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Made {
  terminalId: string;
  path: string;
  expiresAt: string;
}

const linkOf = (path: string) => new URL(path, 'http://x').searchParams.get('link') ?? '';

describe('the seller’s sign-in link (/loginByCert with link)', () => {
  let server: TestServer;
  let t: Tree;
  let imeis: string[];
  let agentA: ApiClient;

  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    imeis = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei(), nextImei()]);
    agentA = await loginAs(server, 'agentA');
    await expectOk(agentA.post('/device/userSale', { terminalIDs: [imeis[0], imeis[1]], asDeviceAccounts: true }));
  });
  afterAll(async () => {
    await server.close();
  });

  const useLink = (terminalID: string, link: string, password = 'Customer-1', confirmPassword = password) =>
    new ApiClient(server).post<{ userInfo: { username: string }; restriction: string | null } | null>(
      '/loginByCert/link',
      { terminalID, link, password, confirmPassword },
    );

  it('the seller makes a link; the customer chooses a password with it and lands signed in on the device', async () => {
    const made = await expectOk<Made>(agentA.post('/user/certLink', { terminalId: imeis[0], days: 3 }));
    expect(made.path.startsWith(`/loginByCert?imei=${imeis[0]}&link=`)).toBe(true);
    const days = (Date.parse(made.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThanOrEqual(3);

    // A password that breaks the rules is refused and does not spend the link.
    const mismatch = await useLink(imeis[0], linkOf(made.path), 'Customer-1', 'Customer-2');
    expect(mismatch.meta.message).toBe('The two passwords do not match');
    expect((await useLink(imeis[0], linkOf(made.path), 'abc')).meta.success).toBe(false);

    const customer = new ApiClient(server);
    const login = await customer.post<{ userInfo: { username: string }; restriction: string | null }>(
      '/loginByCert/link',
      { terminalID: imeis[0], link: linkOf(made.path), password: 'Customer-1', confirmPassword: 'Customer-1' },
    );
    expect(login.meta.code).toBe(200);
    expect(login.data.userInfo.username).toBe(imeis[0]);
    expect(login.data.restriction).toBeNull();
    const list = await expectOk<{ list: { terminalID: string }[] }>(customer.post('/device/findByUserId', {}));
    expect(list.list.map((d) => d.terminalID)).toEqual([imeis[0]]);
    // The chosen password now opens the account the ordinary way.
    const again = await new ApiClient(server).post('/loginByCert', { terminalID: imeis[0], password: 'Customer-1' });
    expect(again.meta.code).toBe(200);

    // Used once: the same link no longer works.
    const reused = await useLink(imeis[0], linkOf(made.path), 'Someone-else-1');
    expect(reused.meta).toMatchObject({ success: false, code: 213 });
    expect(reused.meta.message).toContain('link');
  });

  it('a link opens only its own IMEI; forged, tampered and expired links fail', async () => {
    const made = await expectOk<Made>(agentA.post('/user/certLink', { terminalId: imeis[1] }));
    const link = linkOf(made.path);
    expect((await useLink(imeis[0], link)).meta.code).toBe(213);
    const tampered = `${link.slice(0, -3)}${link.endsWith('A') ? 'B' : 'A'}${link.slice(-2)}`;
    expect((await useLink(imeis[1], tampered)).meta.code).toBe(213);
    expect((await useLink(imeis[1], 'sb1:bm90LWEtbGluaw')).meta.code).toBe(213);
    const row = await server.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', imeis[1])
      .executeTakeFirstOrThrow();
    const h = createHash('sha256').update(row.password_hash).digest('base64url').slice(0, 22);
    const expired = sealSecret(JSON.stringify({ v: 1, t: imeis[1].toLowerCase(), e: Date.now() - 1000, h }));
    expect((await useLink(imeis[1], expired)).meta.code).toBe(213);
    // A reset of the device account's password ends links made before it.
    await expectOk(agentA.post('/user/updatePwdByTerminalIds', { terminalIds: [imeis[1]] }));
    expect((await useLink(imeis[1], link)).meta.code).toBe(213);
    expect((await useLink('bad imei', link)).meta.code).toBe(201);
    expect((await new ApiClient(server).post('/loginByCert/link', { terminalID: imeis[1] })).status).toBe(400);
  });

  it('only a seller that reaches the device and holds the permission makes links; bad input is refused', async () => {
    const agentB = await loginAs(server, 'agentB');
    expect((await agentB.post('/user/certLink', { terminalId: imeis[0] })).status).toBe(404);
    const user = await loginAs(server, 'userA1');
    expect((await user.post('/user/certLink', { terminalId: imeis[0] })).status).toBe(403);
    // A device without a device account has nothing to sign in to.
    expect((await agentA.post('/user/certLink', { terminalId: imeis[2] })).status).toBe(404);
    expect((await agentA.post('/user/certLink', { terminalId: 'x' })).status).toBe(400);
    expect((await agentA.post('/user/certLink', { terminalId: imeis[0], days: 31 })).status).toBe(400);
    expect((await new ApiClient(server).post('/user/certLink', { terminalId: imeis[0] })).meta.success).toBe(false);
  });
});
