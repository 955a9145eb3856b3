// Bus routes through the API: permission, hierarchy, stops and polyline, assigned buses, next stop and ETA.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { type CustomerMapTree, customerMapTree } from '../checks/testTree.ts';

describe('bus routes', () => {
  let server: TestServer;
  let t: CustomerMapTree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await customerMapTree(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const route = {
    name: 'Line 1',
    stops: [
      { name: 'North gate', lat: 39.9, lon: 116.4, radius: 50 },
      { name: 'Library', lat: 39.91, lon: 116.4 },
      { name: 'Terminus', lat: 39.92, lon: 116.4, radius: 80 },
    ],
    polyline: [
      [39.9, 116.4],
      [39.92, 116.4],
    ],
  };

  it('a granted agent adds a route with its bus, edits it, lists it, and sees the next stop and ETA', async () => {
    const added = await t.agentA.post<{ id: string; stops: { radius: number }[]; devices: { terminalID: string }[] }>(
      '/bus/add',
      { ...route, terminalIDs: [t.deviceA.terminalId] },
    );
    expect(added.status).toBe(200);
    expect(added.data.stops[1].radius).toBe(50);
    expect(added.data.devices.map((d) => d.terminalID)).toEqual([t.deviceA.terminalId]);
    // Agent A cannot put agent B's car on its route.
    expect((await t.agentA.post('/bus/edit', { id: added.data.id, terminalIDs: [t.deviceB.terminalId] })).status).toBe(
      403,
    );
    const edited = await t.agentA.post<{ name: string }>('/bus/edit', { id: added.data.id, name: 'Line 1A' });
    expect(edited.data.name).toBe('Line 1A');
    const list = await t.agentA.get<{ id: string; name: string }[]>('/bus/routes');
    expect(list.data.map((r) => r.name)).toEqual(['Line 1A']);
    expect((await t.agentA.get(`/bus/routes?userId=${t.ids.agentB.id}`)).status).toBe(403);

    await sql`INSERT INTO device_state (device_id, pos_time, lat, lon, speed, online) VALUES (${t.deviceA.id}, now(), 39.905, 116.4, 36, true)`.execute(
      server.ctx.db,
    );
    const live = await t.agentA.get<{
      buses: { terminalID: string; nextStop: number; nextStopName: string; etaSeconds: number; atStop: null }[];
    }>(`/bus/live?id=${added.data.id}`);
    expect(live.status).toBe(200);
    expect(live.data.buses[0]).toMatchObject({ terminalID: t.deviceA.terminalId, atStop: null, nextStop: 1 });
    expect(live.data.buses[0].nextStopName).toBe('Library');
    expect(live.data.buses[0].etaSeconds).toBeGreaterThan(40);
    expect(live.data.buses[0].etaSeconds).toBeLessThan(70);

    expect((await t.agentB.get(`/bus/live?id=${added.data.id}`)).status).toBe(403);
    expect((await t.admin.post('/bus/delete', { id: added.data.id })).status).toBe(200);
    expect((await t.agentA.get(`/bus/live?id=${added.data.id}`)).status).toBe(404);
  });

  it('refuses callers without main:bus and bad routes', async () => {
    expect((await t.agentB.post('/bus/add', route)).status).toBe(403);
    expect((await t.userA1.get('/bus/routes')).status).toBe(403);
    expect((await t.admin.post('/bus/add', { ...route, stops: route.stops.slice(0, 1) })).status).toBe(400);
    expect((await t.admin.post('/bus/add', { ...route, polyline: [[91, 0]] })).status).toBe(400);
    const foreign = await t.admin.post<{ id: string }>('/bus/add', { ...route, userId: t.ids.agentB.id });
    expect((await t.agentA.post('/bus/delete', { id: foreign.data.id })).status).toBe(403);
  });
});
