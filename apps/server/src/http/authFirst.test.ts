// Authentication and the permission check come before body validation: for every operation of the OpenAPI
// document, an anonymous caller with a bad body gets the session error (401, code 407) and a caller without the
// operation's permission gets 403 — never a 400 that describes the schema.
import { translate } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../modules/auth/password.ts';
import { ApiClient, createTestServer, type TestServer } from '../testing/harness.ts';
import { type ApiOperation, apiOperations } from '../testing/openapi.ts';
import { holdsPermission, permissionsOf } from './access.ts';

const BAD_BODY = { id: { nested: [null] }, pageNum: 'many', terminalIDs: 7, username: ['x'], '': 1 };
const BAD_QUERY = '?pageNum=abc&pageSize=-1&terminalID=%20&id=x&startTime=yesterday';

function call(server: TestServer, op: ApiOperation, cookie: string) {
  const url = op.path.replace(/\{[^}]+\}/g, '1') + BAD_QUERY;
  return server.app.inject({
    method: op.method as 'GET' | 'POST',
    url,
    headers: { lang: 'en', ...(cookie ? { cookie } : {}) },
    ...(op.method === 'GET' ? {} : { payload: BAD_BODY }),
  });
}

describe('authenticate, and check the permission, before validating', () => {
  let server: TestServer;
  let ops: ApiOperation[];
  let userCookie = '';
  let userPermissions: string[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    ops = (await apiOperations(server)).filter((op) => !op.public);
    // The seeded end user 'demo', signed in normally (not as "try it out") with a known password.
    await server.ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('User-pass-1') })
      .where('username', '=', 'demo')
      .execute();
    const user = new ApiClient(server);
    const login = await user.login('demo', 'User-pass-1');
    expect(login.meta.code).toBe(200);
    userCookie = user.cookie;
    userPermissions = permissionsOf(login.data.userInfo.role, server.config.appEnv);
  });
  afterAll(async () => server.close());

  it('answers an anonymous call with a bad body or query with 401 / 407 on every non-public operation', async () => {
    expect(ops.length).toBeGreaterThan(90);
    const wrong: string[] = [];
    for (const op of ops) {
      const res = await call(server, op, '');
      const body = res.json() as { meta: { code: number; message: string } };
      if (res.statusCode !== 401 || body.meta.code !== 407 || body.meta.message !== '407')
        wrong.push(`${op.name}: ${res.statusCode} ${JSON.stringify(body.meta)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers a caller without the permission with 403 whatever the body, on every operation that needs one', async () => {
    const forbidden = ops.filter(
      (op) => op.permissions.length > 0 && !holdsPermission(userPermissions, op.permissions),
    );
    expect(forbidden.length).toBeGreaterThan(30);
    const denied = translate('permission.denied', 'en');
    const wrong: string[] = [];
    for (const op of forbidden) {
      const res = await call(server, op, userCookie);
      const body = res.json() as { meta: { code: number; message: string } };
      if (res.statusCode !== 403 || body.meta.message !== denied)
        wrong.push(`${op.name}: ${res.statusCode} ${JSON.stringify(body.meta)}`);
    }
    expect(wrong).toEqual([]);
  });
});
