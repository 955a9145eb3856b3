// Login throttling (issue 12): failures from one address cannot lock the owner out from another; waits grow
// per (account, address); the counters live in the database, so two app instances share them.
import { defaultLoginThrottle as policy } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../http/app.ts';
import type { App } from '../../http/types.ts';
import { createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { hashPassword } from './password.ts';
import { authRoutes } from './routes.ts';
import { passwordMatches } from './signIn.ts';

const OWNER_PASSWORD = 'Owner-pass-1';

async function login(app: App, username: string, password: string, address: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: address,
    headers: { lang: 'en' },
    payload: { username, password },
  });
  const body = res.json();
  return { status: res.statusCode, code: body.meta.code as number, data: body.data, message: body.meta.message };
}

describe('login throttle', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
    for (const name of ['victim', 'slow', 'shared']) {
      await server.ctx.db
        .insertInto('users')
        .values({
          username: name,
          password_hash: await hashPassword(OWNER_PASSWORD),
          role: 3,
          parent_id: '1',
          path: `/1/9${name.length}/`,
        })
        .execute();
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('an attacker from other addresses cannot lock the owner out of an address with no failures', async () => {
    // Enough failures from several addresses to pass the account-wide ceiling (the old limit locked at 8).
    const attackers = Array.from({ length: 6 }, (_, i) => `203.0.113.${i + 1}`);
    let failures = 0;
    for (const a of attackers) {
      for (let i = 0; i < policy.freePerAddress; i++) {
        const r = await login(server.app, 'victim', `guess-${a}-${i}`, a);
        if (r.code === 209) failures++;
      }
    }
    expect(failures).toBeGreaterThanOrEqual(policy.accountCeiling);
    // Every attacking address is now held back, even with the right password...
    const blocked = await login(server.app, 'victim', OWNER_PASSWORD, attackers[0]);
    expect(blocked.status).toBe(429);
    expect(blocked.message).toMatch(/Too many login attempts, please try again in \d+ seconds/);
    // ...and a new attacking address is held back after its first failure by the account-wide ceiling.
    expect((await login(server.app, 'victim', 'guess', '198.51.100.7')).code).toBe(209);
    expect((await login(server.app, 'victim', 'guess', '198.51.100.7')).status).toBe(429);
    // The owner, from an address that has not failed, still gets in.
    const owner = await login(server.app, 'victim', OWNER_PASSWORD, '192.0.2.50');
    expect(owner.code).toBe(200);
    expect(owner.data.userInfo.username).toBe('victim');
    // Every lock is recorded.
    const locks = await server.ctx.db
      .selectFrom('login_locks')
      .select(['scope', 'address'])
      .where('account', '=', 'victim')
      .execute();
    expect(locks.filter((l) => l.scope === 'address').length).toBe(
      Math.ceil(policy.accountCeiling / policy.freePerAddress),
    );
    expect(locks.some((l) => l.scope === 'account' && l.address === '*')).toBe(true);
    // ...and shown in the administrators' audit log.
    const audited = await server.ctx.db
      .selectFrom('audit_log')
      .select(['operation', 'ip', 'status'])
      .where('username', '=', 'victim')
      .where('operation', 'like', 'LOGIN LOCK%')
      .execute();
    expect(audited.length).toBe(locks.length);
    expect(audited.some((a) => a.operation === 'LOGIN LOCK account')).toBe(true);
    expect(audited.every((a) => a.status === 429)).toBe(true);
  });

  it('repeated failures from one address get waits that double', async () => {
    const address = '203.0.113.99';
    for (let i = 0; i < policy.freePerAddress; i++) {
      expect((await login(server.app, 'slow', `bad-${i}`, address)).code).toBe(209);
    }
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const held = await login(server.app, 'slow', 'bad-again', address);
      expect(held.status).toBe(429);
      waits.push(held.data.retryAfterSeconds);
      // The wait has passed (moved in the database instead of sleeping); the next failure starts a longer one.
      await server.ctx.db
        .updateTable('login_throttle')
        .set({ locked_until: new Date(Date.now() - 1000) })
        .where('account', '=', 'slow')
        .where('address', '=', address)
        .execute();
      expect((await login(server.app, 'slow', `bad-round-${round}`, address)).code).toBe(209);
    }
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits[2]).toBeGreaterThan(waits[1]);
    const counter = await server.ctx.db
      .selectFrom('login_throttle')
      .select('failures')
      .where('account', '=', 'slow')
      .where('address', '=', address)
      .executeTakeFirstOrThrow();
    expect(counter.failures).toBe(policy.freePerAddress + 3);
    // A success from the address clears its counter.
    await server.ctx.db
      .updateTable('login_throttle')
      .set({ locked_until: null })
      .where('account', '=', 'slow')
      .execute();
    expect((await login(server.app, 'slow', OWNER_PASSWORD, address)).code).toBe(200);
    expect((await login(server.app, 'slow', 'bad', address)).code).toBe(209);
  });

  it('two app instances on one database share the counters', async () => {
    const second = await buildApp(server.ctx, { modules: [authRoutes], webDist: '/nonexistent' });
    try {
      const address = '203.0.113.200';
      // Failures alternate between the two instances, as behind a load balancer.
      for (let i = 0; i < policy.freePerAddress; i++) {
        const app = i % 2 === 0 ? server.app : second;
        expect((await login(app, 'shared', `bad-${i}`, address)).code).toBe(209);
      }
      expect((await login(second, 'shared', OWNER_PASSWORD, address)).status).toBe(429);
      expect((await login(server.app, 'shared', OWNER_PASSWORD, address)).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('an account still on the old shared default password must change it before anything else', async () => {
    await server.ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('Carhere-123456') })
      .where('username', '=', 'shared')
      .execute();
    const r = await login(server.app, 'shared', 'Carhere-123456', '192.0.2.99');
    expect(r.code).toBe(200);
    expect(r.data.restriction).toBe('changePassword');
  });

  it('an unknown account costs the same scrypt work and answers like a wrong password', async () => {
    const unknown = await login(server.app, 'nobody-here', 'whatever', '192.0.2.77');
    const wrong = await login(server.app, 'admin', 'whatever', '192.0.2.77');
    expect(unknown.code).toBe(209);
    expect(wrong.code).toBe(209);
    expect(unknown.message).toBe(wrong.message);
    expect((await login(server.app, 'admin', TEST_ADMIN_PASSWORD, '192.0.2.78')).code).toBe(200);
    // The unknown name is checked against a hash made with the same scrypt parameters as a real one.
    const seen: string[] = [];
    const verify = async (_p: string, stored: string) => {
      seen.push(stored);
      return true;
    };
    expect(await passwordMatches(undefined, 'whatever', verify)).toBe(false);
    const real = await hashPassword('x');
    expect(seen).toHaveLength(1);
    expect(seen[0].split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));
  });
});
