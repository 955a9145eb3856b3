import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor, type FixtureUser } from '../fence/testFixtures.ts';
import { isNoticeActive } from './notice.ts';

const FAR_FUTURE = '2099-10-08T03:00:00.000Z';

describe('maintenance notice, demo account and API keys', () => {
  let server: TestServer;
  let admin: ApiClient;
  let user: ApiClient;
  let endUser: FixtureUser;
  let agent: FixtureUser;

  beforeAll(async () => {
    server = await createTestServer();
    agent = await buildUser(server.ctx.db, 'sys-agent', 2);
    endUser = await buildUser(server.ctx.db, 'sys-user', 3, agent);
    admin = await clientFor(server, { username: 'admin' }, TEST_ADMIN_PASSWORD);
    user = await clientFor(server, endUser);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('notice', () => {
    it('is shown from its start until its end time (rule)', () => {
      const notice = {
        title: 't',
        content: 'c',
        startsAt: null,
        endsAt: '2022-10-07T19:00:00.000Z',
        showOnStart: false,
        version: 'v',
      };
      expect(isNoticeActive(notice, Date.parse('2022-10-07T18:59:59Z'))).toBe(true);
      expect(isNoticeActive(notice, Date.parse('2022-10-07T19:00:00Z'))).toBe(false);
      const later = { ...notice, startsAt: '2022-10-07T12:00:00.000Z' };
      expect(isNoticeActive(later, Date.parse('2022-10-07T11:00:00Z'))).toBe(false);
      expect(isNoticeActive(null, 0)).toBe(false);
    });

    it('is read publicly while it runs, set and removed by the administrator', async () => {
      const anonymous = new ApiClient(server);
      expect((await anonymous.get('/notice')).data).toBeNull();
      const saved = await admin.post<{ version: string; endsAt: string }>('/notice/update', {
        title: 'Maintenance',
        content: 'The server is down from 00:00 to 01:00 for maintenance.',
        endsAt: FAR_FUTURE,
      });
      expect(saved.meta.success).toBe(true);
      expect(saved.data.endsAt).toBe(FAR_FUTURE);
      const shown = await anonymous.get<{ title: string; content: string; version: string }>('/notice');
      expect(shown.data).toMatchObject({ title: 'Maintenance', version: saved.data.version, showOnStart: false });
      // "On start" (spec §1): the flag is stored and given to the login page.
      const onStart = await admin.post<{ showOnStart: boolean }>('/notice/update', {
        title: 'Maintenance',
        content: 'On start too.',
        endsAt: FAR_FUTURE,
        showOnStart: true,
      });
      expect(onStart.data.showOnStart).toBe(true);
      expect((await anonymous.get('/notice')).data).toMatchObject({ content: 'On start too.', showOnStart: true });
      expect((await admin.post('/notice/find')).data).toMatchObject({ showOnStart: true, active: true });
      expect(
        (await admin.post('/notice/update', { title: 'x', content: 'y', endsAt: FAR_FUTURE, showOnStart: 'yes' }))
          .status,
      ).toBe(400);
      // Not started yet: stored, not shown.
      await admin.post('/notice/update', {
        title: 'Later',
        content: 'x',
        startsAt: '2098-01-01T00:00:00Z',
        endsAt: FAR_FUTURE,
      });
      expect((await anonymous.get('/notice')).data).toBeNull();
      expect((await admin.post<{ title: string; active: boolean }>('/notice/find')).data).toMatchObject({
        title: 'Later',
        active: false,
      });
      await admin.post('/notice/delete');
      expect((await admin.post('/notice/find')).data).toBeNull();
    });

    it('refuses non-administrators and bad input', async () => {
      expect((await user.post('/notice/update', { title: 'x', content: 'y', endsAt: FAR_FUTURE })).status).toBe(403);
      expect((await user.post('/notice/find')).status).toBe(403);
      const past = await admin.post('/notice/update', {
        title: 'x',
        content: 'y',
        endsAt: '2022-10-08T03:00:00+08:00',
      });
      expect(past.status).toBe(400);
      expect(past.meta.message).toBe('The end time must be in the future');
      const reversed = await admin.post('/notice/update', {
        title: 'x',
        content: 'y',
        startsAt: FAR_FUTURE,
        endsAt: '2098-01-01T00:00:00Z',
      });
      expect(reversed.meta.message).toBe('The start time must be before the end time');
      expect((await admin.post('/notice/update', { title: '', content: 'y', endsAt: FAR_FUTURE })).status).toBe(400);
      expect((await admin.post('/notice/update', { title: 'x', content: 'y', endsAt: 'soon' })).status).toBe(400);
    });
  });

  describe('demo account', () => {
    it('reads and changes the account behind "try it out"', async () => {
      expect((await admin.post('/system/demoAccount/find')).data).toEqual({ username: 'demo', enabled: true });
      const changed = await admin.post('/system/demoAccount/update', { username: 'SYS-USER', enabled: true });
      expect(changed.data).toEqual({ username: 'sys-user', enabled: true });
      const visitor = new ApiClient(server);
      const demo = await visitor.post<{ userInfo: { username: string } }>('/login/demo');
      expect(demo.data.userInfo.username).toBe('sys-user');
      await admin.post('/system/demoAccount/update', { username: 'demo', enabled: false });
      expect((await new ApiClient(server).post('/login/demo')).meta.success).toBe(false);
      await admin.post('/system/demoAccount/update', { username: 'demo', enabled: true });
    });

    it('refuses accounts that could manage anything, unknown accounts and non-administrators', async () => {
      const agentDemo = await admin.post('/system/demoAccount/update', { username: agent.username, enabled: true });
      expect(agentDemo.status).toBe(400);
      expect(agentDemo.meta.message).toBe('The demo account must be an end-user account (role user)');
      expect((await admin.post('/system/demoAccount/update', { username: 'admin', enabled: true })).status).toBe(400);
      const unknown = await admin.post('/system/demoAccount/update', { username: 'ghost', enabled: true });
      expect(unknown.meta.message).toBe('The demo account does not exist: ghost');
      expect((await admin.post('/system/demoAccount/update', { username: '', enabled: true })).status).toBe(400);
      expect((await user.post('/system/demoAccount/update', { username: 'demo', enabled: true })).status).toBe(403);
      expect((await user.post('/system/demoAccount/find')).status).toBe(403);
    });
  });

  describe('API keys', () => {
    it('creates a key shown once, logs in with it as its account, and refuses it once revoked', async () => {
      const created = await admin.post<{ id: string; key: string; prefix: string; username: string }>(
        '/system/apiKey/add',
        {
          name: 'ERP integration',
          userId: endUser.id,
        },
      );
      expect(created.data.key).toMatch(/^chk_[A-Za-z0-9_-]{43}$/);
      expect(created.data.key.startsWith(created.data.prefix)).toBe(true);
      expect(created.data.username).toBe('sys-user');
      const listed = await admin.post<{ total: number; list: Record<string, unknown>[] }>('/system/apiKey/find', {});
      expect(listed.data.total).toBe(1);
      expect(listed.data.list[0]).not.toHaveProperty('key');
      expect(JSON.stringify(listed.data)).not.toContain(created.data.key);

      const integration = new ApiClient(server);
      const login = await integration.post<{ userInfo: { username: string }; permissions: string[] }>(
        '/system/apiKey/login',
        {
          key: created.data.key,
        },
      );
      expect(login.data.userInfo.username).toBe('sys-user');
      expect(login.data.permissions).toContain('main:fence');
      // The session works like a login session, with the account's own permissions.
      expect((await integration.post('/fence/find', {})).meta.success).toBe(true);
      expect((await integration.post('/system/apiKey/find', {})).status).toBe(403);
      const used = await admin.post<{ list: { lastUsedAt: string | null }[] }>('/system/apiKey/find', {});
      expect(used.data.list[0].lastUsedAt).not.toBeNull();

      expect((await admin.post('/system/apiKey/delete', { id: created.data.id })).data).toEqual({ revoked: 1 });
      const refused = await new ApiClient(server).post('/system/apiKey/login', { key: created.data.key });
      expect(refused.status).toBe(401);
      expect(refused.meta.message).toBe('The API key is not valid or has been revoked');
    });

    it('refuses non-administrators, unknown keys and bad input', async () => {
      expect((await user.post('/system/apiKey/add', { name: 'x' })).status).toBe(403);
      expect((await new ApiClient(server).post('/system/apiKey/login', { key: 'chk_nope' })).status).toBe(401);
      expect((await new ApiClient(server).post('/system/apiKey/login', { key: '' })).status).toBe(400);
      expect((await admin.post('/system/apiKey/add', { name: '' })).status).toBe(400);
      expect((await admin.post('/system/apiKey/add', { name: 'x', userId: '999999' })).status).toBe(404);
      expect((await admin.post('/system/apiKey/delete', { id: '999999' })).status).toBe(404);
    });
  });
});
