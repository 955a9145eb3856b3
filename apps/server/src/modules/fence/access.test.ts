// Every /api/fence/* endpoint refuses callers without main:fence, callers without a session, and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor } from './testFixtures.ts';

const ENDPOINTS: { url: string; valid: unknown; bad: unknown }[] = [
  { url: '/fence/find', valid: {}, bad: { pageSize: 0 } },
  { url: '/fence/findById', valid: { id: '1' }, bad: { id: 'one' } },
  {
    url: '/fence/add',
    valid: { name: 'x', shape: 'circle', lat: 1, lon: 1, radius: 500, alarmType: 'in' },
    bad: { name: 'x', shape: 'circle', lat: 1, lon: 1, radius: 500, alarmType: 'around' },
  },
  { url: '/fence/update', valid: { id: '1', name: 'y' }, bad: { id: '1', name: '' } },
  { url: '/fence/setState', valid: { id: '1', state: 'closed' }, bad: { id: '1', state: 'half' } },
  { url: '/fence/delete', valid: { id: '1' }, bad: {} },
  { url: '/fence/assign', valid: { id: '1', terminalIDs: ['1'] }, bad: { id: '1', terminalIDs: [] } },
  { url: '/fence/unassign', valid: { id: '1', terminalIDs: ['1'] }, bad: { id: '1', deviceIds: ['x'] } },
  { url: '/fence/findDevices', valid: { id: '1' }, bad: { id: '1', pageNum: -1 } },
  { url: '/fence/findByDevice', valid: { terminalID: '1' }, bad: { terminalID: '' } },
  { url: '/fence/findAlarmFences', valid: { alarmIds: [] }, bad: { alarmIds: ['x'] } },
];

describe('fence endpoints: permission and input checks', () => {
  let server: TestServer;
  let tester: ApiClient;
  let user: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    tester = await clientFor(server, await buildUser(server.ctx.db, 'access-tester', 5));
    user = await clientFor(server, await buildUser(server.ctx.db, 'access-user', 3));
  });
  afterAll(async () => {
    await server.close();
  });

  for (const e of ENDPOINTS) {
    it(`${e.url}: 407 without a session, 403 without main:fence, 400 on bad input`, async () => {
      const anonymous = await new ApiClient(server).post(e.url, e.valid);
      expect(anonymous.meta.message).toBe('407');
      const denied = await tester.post(e.url, e.valid);
      expect(denied.status).toBe(403);
      expect(denied.meta.message).toBe('This account has no permission to do this!');
      const bad = await user.post(e.url, e.bad);
      expect(bad.status).toBe(400);
      expect(bad.meta.success).toBe(false);
    });
  }
});
