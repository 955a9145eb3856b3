// The System settings endpoints need main:system_config (administrator); the public ones need nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor } from '../fence/testFixtures.ts';

const ADMIN_ONLY = [
  { url: '/notice/find', valid: {}, bad: null },
  {
    url: '/notice/update',
    valid: { title: 't', content: 'c', endsAt: '2099-01-01T00:00:00Z' },
    bad: { title: 't', content: 'c' },
  },
  { url: '/notice/delete', valid: {}, bad: null },
  { url: '/system/demoAccount/find', valid: {}, bad: null },
  { url: '/system/demoAccount/update', valid: { username: 'demo', enabled: true }, bad: { username: 'demo' } },
  { url: '/system/apiKey/find', valid: {}, bad: { pageSize: 'all' } },
  { url: '/system/apiKey/add', valid: { name: 'k' }, bad: { name: 'k', userId: 'me' } },
  { url: '/system/apiKey/delete', valid: { id: '1' }, bad: { id: 'first' } },
];

describe('System settings endpoints: permission and input checks', () => {
  let server: TestServer;
  let agent: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    agent = await clientFor(server, await buildUser(server.ctx.db, 'settings-agent', 2));
    admin = await clientFor(server, { username: 'admin' }, TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await server.close();
  });

  for (const e of ADMIN_ONLY) {
    it(`${e.url}: 407 without a session, 403 for an agent, 400 on bad input`, async () => {
      expect((await new ApiClient(server).post(e.url, e.valid)).meta.message).toBe('407');
      const denied = await agent.post(e.url, e.valid);
      expect(denied.status).toBe(403);
      expect(denied.meta.message).toBe('This account has no permission to do this!');
      if (e.bad !== null) expect((await admin.post(e.url, e.bad)).status).toBe(400);
    });
  }

  it('the notice read and the API-key login are public', async () => {
    expect((await new ApiClient(server).get('/notice')).meta.success).toBe(true);
    expect((await new ApiClient(server).post('/system/apiKey/login', { key: 'chk_x' })).status).toBe(401);
  });
});
