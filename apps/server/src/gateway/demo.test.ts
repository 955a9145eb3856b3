// The demo's data is made by the server: its devices, and a fence they drive through (visitors cannot add any).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { DEMO_FENCE_NAME, seedDemoDevices } from './demo.ts';

describe('seedDemoDevices', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => server.close());

  it('registers the demo devices and a fence linked to all of them, once', async () => {
    expect(await seedDemoDevices(server.ctx, 4)).toBe(4);
    expect(await seedDemoDevices(server.ctx, 4)).toBe(0);
    const demo = await server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const fences = await server.ctx.db.selectFrom('fences').select(['id', 'name', 'user_id', 'state']).execute();
    expect(fences).toEqual([{ id: expect.any(String), name: DEMO_FENCE_NAME, user_id: demo.id, state: 'opened' }]);
    const links = await server.ctx.db
      .selectFrom('fence_devices')
      .innerJoin('devices', 'devices.id', 'fence_devices.device_id')
      .select('devices.user_id')
      .where('fence_devices.fence_id', '=', fences[0].id)
      .execute();
    expect(links.map((l) => l.user_id)).toEqual([demo.id, demo.id, demo.id, demo.id]);
  });
});
