// Vehicle checks (checkCar area and point) and the grants that open them to an agent: permission, hierarchy,
// answers from the positions table through the grid index.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { positionCellSql } from './grid.ts';
import { type CustomerMapTree, customerMapTree } from './testTree.ts';

describe('vehicle checks', () => {
  let server: TestServer;
  let t: CustomerMapTree;
  const hour = 3_600_000;
  const base = Date.UTC(2026, 10, 20, 8, 0, 0);

  beforeAll(async () => {
    server = await createTestServer();
    t = await customerMapTree(server);
    // Device A drives north along 116.404 E through (39.915, 116.404) at 08:10 and again at 10:00; device B
    // parks at the same point at 09:00.
    const fixes: [string, number, number, number][] = [];
    for (let i = 0; i <= 20; i++) fixes.push([t.deviceA.id, base + i * 60_000, 39.905 + i * 0.001, 116.404]);
    fixes.push([t.deviceA.id, base + 2 * hour, 39.9151, 116.4041]);
    fixes.push([t.deviceB.id, base + hour, 39.915, 116.404]);
    for (const [device, time, lat, lon] of fixes)
      await sql`INSERT INTO positions (device_id, time, lat, lon, valid) VALUES (${device}, ${new Date(time)}, ${lat}, ${lon}, true)`.execute(
        server.ctx.db,
      );
    await sql`INSERT INTO device_state (device_id, pos_time, lat, lon, online) VALUES (${t.deviceA.id}, ${new Date(base + 2 * hour)}, 39.9151, 116.4041, true)`.execute(
      server.ctx.db,
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  const point = { lat: 39.915, lon: 116.404, radius: 300, startTime: base - hour, endTime: base + 5 * hour };

  it('the grid index answers the point check (the plan uses positions_cell_time_idx)', async () => {
    await sql`SET enable_seqscan = off`.execute(server.ctx.db);
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT * FROM positions p
      WHERE ${sql.raw(positionCellSql('p'))} BETWEEN 1 AND 2 AND p.time > now()`.execute(server.ctx.db);
    await sql`SET enable_seqscan = on`.execute(server.ctx.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(
      /Index (Only )?Scan using positions_\w*(cell_time|expr_time)\w*/,
    );
  });

  it('admin: point check lists both devices with their passages', async () => {
    const res = await t.admin.post<{
      list: { terminalID: string; passages: { enteredAt: string; leftAt: string; fixes: number; closest: number }[] }[];
    }>('/checkCar/point', point);
    expect(res.status).toBe(200);
    const a = res.data.list.find((d) => d.terminalID === t.deviceA.terminalId);
    const b = res.data.list.find((d) => d.terminalID === t.deviceB.terminalId);
    expect(a?.passages.length).toBe(2);
    // ~300 m either side of the point at 1 fix a minute (111 m): 6 fixes 08:07–08:12 (boundary within rounding)
    expect(a?.passages[0].fixes).toBeGreaterThanOrEqual(5);
    expect(a?.passages[0].closest).toBeLessThan(5);
    expect(a?.passages[1].enteredAt).toBe(new Date(base + 2 * hour).toISOString());
    expect(b?.passages).toEqual([
      {
        enteredAt: new Date(base + hour).toISOString(),
        leftAt: new Date(base + hour).toISOString(),
        fixes: 1,
        closest: 0,
      },
    ]);
  });

  it('agent A (granted) sees only its subtree; agent B (not granted) and end users are refused', async () => {
    const res = await t.agentA.post<{ list: { terminalID: string }[] }>('/checkCar/point', point);
    expect(res.status).toBe(200);
    expect(res.data.list.map((d) => d.terminalID)).toEqual([t.deviceA.terminalId]);
    expect((await t.agentB.post('/checkCar/point', point)).status).toBe(403);
    expect((await t.userA1.post('/checkCar/point', point)).status).toBe(403);
    // agent A cannot ask about agent B's subtree
    const foreign = await t.agentA.post('/checkCar/point', { ...point, userId: t.ids.agentB.id });
    expect(foreign.status).toBe(403);
  });

  it('refuses windows over 24 h, reversed windows and radii out of range', async () => {
    expect((await t.admin.post('/checkCar/point', { ...point, endTime: point.startTime + 25 * hour })).status).toBe(
      400,
    );
    expect((await t.admin.post('/checkCar/point', { ...point, endTime: point.startTime - 1 })).status).toBe(400);
    expect((await t.admin.post('/checkCar/point', { ...point, radius: 5 })).status).toBe(400);
    expect((await t.admin.post('/checkCar/area', { shape: 'polygon', points: [[1, 1]] })).status).toBe(400);
  });

  it('area check: rectangle over a window, polygon over a window, and now', async () => {
    const rect = { minLat: 39.91, maxLat: 39.92, minLon: 116.4, maxLon: 116.41 };
    const windowed = await t.agentA.post<{ list: { terminalID: string; points: number }[] }>('/checkCar/area', {
      ...rect,
      startTime: point.startTime,
      endTime: point.endTime,
    });
    expect(windowed.status).toBe(200);
    expect(windowed.data.list.map((d) => d.terminalID)).toEqual([t.deviceA.terminalId]);
    expect(windowed.data.list[0].points).toBe(12);
    // A triangle west of 116.404 holds none of the fixes (all on 116.404 or east of it); east of it, device A's.
    const west = await t.admin.post<{ list: unknown[] }>('/checkCar/area', {
      shape: 'polygon',
      points: [
        [39.9, 116.39],
        [39.93, 116.39],
        [39.915, 116.4039],
      ],
      startTime: point.startTime,
      endTime: point.endTime,
    });
    expect(west.data.list).toEqual([]);
    const now = await t.agentA.post<{ list: { terminalID: string }[] }>('/checkCar/area', rect);
    expect(now.data.list.map((d) => d.terminalID)).toEqual([t.deviceA.terminalId]);
    expect((await t.agentB.post('/checkCar/area', rect)).status).toBe(403);
  });

  it('grants: only the administrator grants, only to agents, and the session lists them', async () => {
    expect((await t.agentA.post('/user/updateGrants', { id: t.ids.agentB.id, permissions: ['main:bus'] })).status).toBe(
      403,
    );
    expect((await t.admin.post('/user/updateGrants', { id: t.ids.userA1.id, permissions: ['main:bus'] })).status).toBe(
      400,
    );
    expect(
      (await t.admin.post('/user/updateGrants', { id: t.ids.agentB.id, permissions: ['main:system_config'] })).status,
    ).toBe(400);
    const session = await t.agentA.get<{ permissions: string[] }>('/session');
    expect(session.data.permissions).toEqual(expect.arrayContaining(['main:check_car', 'main:bus', 'main:risk_point']));
    const found = await t.admin.post<{ permissions: string[] }>('/user/findGrants', { id: t.ids.agentA.id });
    expect(found.data.permissions).toEqual(['main:bus', 'main:check_car', 'main:risk_point']);
  });
});
