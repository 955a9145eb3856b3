import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';

describe('login, session and logout (spec §8)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 200 with the user info and sets an httpOnly SameSite cookie', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: TEST_ADMIN_PASSWORD },
    });
    const body = res.json();
    expect(body.meta).toMatchObject({ success: true, code: 200 });
    expect(body.data.userInfo).toMatchObject({ username: 'admin', role: 1, ancestors: '0' });
    expect(body.data.permissions).toEqual(['*:*:*']);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/carhere_sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Expires/); // not remembered: a browser-session cookie
  });

  it('a remembered login gets a long-lived cookie', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: TEST_ADMIN_PASSWORD, remember: true },
    });
    expect(String(res.headers['set-cookie'])).toMatch(/Expires=/);
  });

  it('answers 209 for a wrong password and for an unknown user, 201 for an impossible name', async () => {
    const c = new ApiClient(server);
    const wrong = await c.login('admin', 'nope');
    expect(wrong.meta).toMatchObject({ success: false, code: 209, message: 'wrong username or password' });
    expect((await c.login('nobody', 'x')).meta.code).toBe(209);
    expect((await c.login('', 'x')).meta.code).toBe(201);
    c.lang = 'cn';
    expect((await c.login('nobody', 'x')).meta.message).toBe('用户名或密码错误');
  });

  it('answers 208 for an expired account', async () => {
    const { hashPassword } = await import('./password.ts');
    await server.ctx.db
      .insertInto('users')
      .values({
        username: 'old',
        password_hash: await hashPassword('Old-pass-1'),
        role: 3,
        parent_id: '1',
        path: '/1/99/',
        expire_at: new Date('2020-01-01'),
      })
      .execute();
    expect((await new ApiClient(server).login('old', 'Old-pass-1')).meta.code).toBe(208);
  });

  it('answers meta.message "407" without a session and after logout', async () => {
    const c = new ApiClient(server);
    const anon = await c.post('/user/findById', { id: 1 });
    expect(anon.status).toBe(401);
    expect(anon.meta.message).toBe('407');
    await c.login('admin', TEST_ADMIN_PASSWORD);
    const me = await c.post<{ username: string }>('/user/findById', { id: 1 });
    expect(me.meta.success).toBe(true);
    expect(me.data.username).toBe('admin');
    const oldCookie = c.cookie;
    await c.post('/logout');
    c.cookie = oldCookie; // the old token must no longer work
    expect((await c.post('/user/findById', { id: 1 })).meta.message).toBe('407');
  });

  it('throttles repeated failures from one address with a clear message (more in throttle.test.ts)', async () => {
    const c = new ApiClient(server);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await c.login('demo', `bad-${i}`)).meta.code);
    expect(codes.every((code) => code === 209)).toBe(true);
    const blocked = await c.login('demo', 'bad-again');
    expect(blocked.status).toBe(429);
    expect(blocked.meta.message).toMatch(/Too many login attempts/);
  });

  it('logs into the demo account through the try-it-out call without a password', async () => {
    const c = new ApiClient(server);
    const res = await c.post<{ userInfo: { username: string; role: number } }>('/login/demo');
    expect(res.meta.code).toBe(200);
    expect(res.data.userInfo).toMatchObject({ username: 'demo', role: 3 });
    const session = await c.get<{ userInfo: { username: string } }>('/session');
    expect(session.data.userInfo.username).toBe('demo');
  });

  it('a user cannot read a user outside its subtree, and bad input gets a clear 400', async () => {
    const c = new ApiClient(server);
    await c.post('/login/demo');
    const admin = await c.post('/user/findById', { id: 1 });
    expect(admin.status).toBe(403);
    expect(admin.meta.message).toBe('This account has no permission to do this!');
    const bad = await c.post('/user/findById', { id: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.meta.message).toMatch(/Invalid parameter: id/);
  });

  it('serves health and an OpenAPI document listing the routes', async () => {
    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json().data.status).toBe('ok');
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/logout', '/api/user/findById', '/api/health']),
    );
    expect(doc.paths['/api/login'].post.requestBody).toBeDefined();
  });
});
