// Every /api/map/* endpoint: no session → 407; the key and geocoder settings need main:system_config; bad input → 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor } from '../fence/testFixtures.ts';

const ADMIN_ONLY = [
  { url: '/map/findKeys', valid: {}, bad: null },
  {
    url: '/map/saveKey',
    valid: { mapType: 'baidu', key: 'k' },
    bad: { mapType: 'baidu', key: 'k', devicePlatform: -1 },
  },
  { url: '/map/deleteKey', valid: { mapType: 'baidu' }, bad: { mapType: 'here' } },
  { url: '/map/findGeocoder', valid: {}, bad: null },
  { url: '/map/saveGeocoder', valid: { provider: 'none' }, bad: { provider: 'none', hongKongUserIds: ['x'] } },
];
const ANY_USER = [
  { url: '/map/getKey', valid: { mapType: 'baidu' }, bad: { devicePlatform: 'web' } },
  { url: '/map/getKeyAddress', valid: { lat: 1, lon: 1 }, bad: { lat: 1 } },
  { url: '/map/getSuggestion', valid: { query: 'x' }, bad: { query: 'x'.repeat(101) } },
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
    it(`${e.url}: 407 without a session${ADMIN_ONLY.includes(e) ? ', 403 for a user' : ''}, 400 on bad input`, async () => {
      expect((await new ApiClient(server).post(e.url, e.valid)).meta.message).toBe('407');
      if (ADMIN_ONLY.includes(e)) {
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
