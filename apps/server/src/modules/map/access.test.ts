// Every /api/map/* endpoint: no session → 407; the key and geocoder settings need main:system_config; bad input → 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor } from '../fence/testFixtures.ts';

interface Case {
  url: string;
  valid: unknown;
  bad: unknown;
  adminOnly: boolean;
}

const ADMIN_ONLY: Case[] = [
  { adminOnly: true, url: '/map/findKeys', valid: {}, bad: null },
  {
    adminOnly: true,
    url: '/map/saveKey',
    valid: { mapType: 'baidu', key: 'k' },
    bad: { mapType: 'baidu', key: 'k', devicePlatform: -1 },
  },
  { adminOnly: true, url: '/map/deleteKey', valid: { mapType: 'baidu' }, bad: { mapType: 'here' } },
  { adminOnly: true, url: '/map/findGeocoder', valid: {}, bad: null },
  {
    adminOnly: true,
    url: '/map/saveGeocoder',
    valid: { provider: 'none' },
    bad: { provider: 'none', hongKongUserIds: ['x'] },
  },
];
const ANY_USER: Case[] = [
  { adminOnly: false, url: '/map/getKey', valid: { mapType: 'baidu' }, bad: { devicePlatform: 'web' } },
  { adminOnly: false, url: '/map/getKeyAddress', valid: { lat: 1, lon: 1 }, bad: { lat: 1 } },
  { adminOnly: false, url: '/map/getSuggestion', valid: { query: 'x' }, bad: { query: 'x'.repeat(101) } },
];

describe('map endpoints: permission and input checks', () => {
  let server: TestServer;
  let user: ApiClient;
  let admin: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    user = await clientFor(server, await buildUser(server.ctx.db, 'map-access-user', 3));
    admin = await clientFor(
      server,
      { username: 'admin' },
      (await import('../../testing/harness.ts')).TEST_ADMIN_PASSWORD,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  for (const e of [...ADMIN_ONLY, ...ANY_USER]) {
    it(`${e.url}: 407 without a session${e.adminOnly ? ', 403 for a user' : ''}, 400 on bad input`, async () => {
      expect((await new ApiClient(server).post(e.url, e.valid)).meta.message).toBe('407');
      if (e.adminOnly) {
        const denied = await user.post(e.url, e.valid);
        expect(denied.status).toBe(403);
      } else {
        expect((await user.post(e.url, e.valid)).status).not.toBe(403);
      }
      if (e.bad !== null) {
        const bad = await admin.post(e.url, e.bad);
        expect(bad.status).toBe(400);
      }
    });
  }
});
