// Round trip of the device list's 'rows' format: the server writes it (PostgreSQL builds the JSON text,
// apps/server/src/modules/device/listQueries.ts) and the web decodes it (apps/web/src/features/device/deviceRows.ts);
// the decoded rows must equal the server's full items for the same devices. It lives here because it imports both
// apps (each app's own tests may only import its own sources).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTree,
  expectOk,
  insertDeviceState,
  loginAs,
  type Tree,
} from '../apps/server/src/modules/agent/fixtures.ts';
import { createTestServer, type TestServer } from '../apps/server/src/testing/harness.ts';
import { type DeviceRowsPage, decodeDeviceRows } from '../apps/web/src/features/device/deviceRows.ts';

interface Item {
  id: string;
  terminalID: string;
  displayName: string;
  nickname: string;
  carNumber: string;
  state: string;
  carIconState: string;
  markerIcon: number;
  expire: string | null;
  device: { iconType: number; deviceType: number };
  location: {
    lat: number | null;
    lon: number | null;
    speed: number | null;
    course: number | null;
    utcTime: string | null;
    stateTime: string | null;
  } | null;
  user_id: string | null;
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

describe('device list rows format, server to web', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server, 'rt');
    const db = server.ctx.db;
    const now = Date.now();
    const owners = [t.ids.agentA, t.ids.subA, t.ids.userA1, t.ids.userA2];
    const texts = ['', ' ', 'Bus "7"', 'a\\b', '],[', '京A·123', '🚗 car', 'line\nbreak'];
    // Ages far from the 60 s movement boundary, so the two requests below agree whatever the clock does between them.
    const ages = [2, 5, 600, 7200, 400_000];
    const speeds = [0, 8, 40, 75, 130];
    for (let i = 0; i < 40; i++) {
      const d = await db
        .insertInto('devices')
        .values({
          terminal_id: `88${String(i * 7919).padStart(13, '0')}`,
          user_id: owners[i % owners.length],
          nickname: texts[i % texts.length],
          car_number: texts[(i * 3) % texts.length],
          icon_type: (i % 12) + 1,
          device_type: i % 17,
          activated_at: i % 9 === 8 ? null : new Date(now - 30 * 86_400_000),
          platform_expire_at: i % 4 === 0 ? new Date(now + (i - 10) * 86_400_000) : null,
          user_expire_at: i % 5 === 0 ? new Date(now + (i - 3) * 3_600_000) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i % 7 === 6) continue;
      const age = ages[i % ages.length] * 1000;
      await insertDeviceState(db, {
        device_id: d.id,
        online: i % 3 !== 0,
        pos_time: i % 11 === 10 ? null : new Date(now - age),
        last_seen: i % 2 === 0 ? new Date(now - age / 2) : null,
        lat: i % 13 === 12 ? 0 : 30 + i / 7,
        lon: i % 13 === 12 ? 0 : 110 + i / 3,
        speed: speeds[Math.floor(i / 5) % speeds.length],
      });
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('the decoded rows equal the full items, in the same order', async () => {
    const agent = await loginAs(server, 'rtagentA');
    const wire = await expectOk<DeviceRowsPage>(
      agent.post('/device/findByUserId', { format: 'rows', pageSize: 100_000, withCounts: true }),
    );
    const items = await expectOk<{ list: Item[] }>(agent.post('/device/findByUserId', { pageSize: 1000 }));
    expect(items.list).toHaveLength(40);
    expect(wire.total).toBe(40);
    expect(wire.counts?.all).toBe(40);
    const decoded = decodeDeviceRows(wire);
    expect(decoded).toEqual(
      items.list.map((d) => ({
        id: d.id,
        terminalID: d.terminalID,
        displayName: d.displayName,
        nickname: d.nickname,
        carNumber: d.carNumber,
        state: d.state,
        carIconState: d.carIconState,
        markerIcon: d.markerIcon,
        expire: ms(d.expire),
        iconType: d.device.iconType,
        deviceType: d.device.deviceType,
        user_id: d.user_id,
        lat: d.location?.lat ?? null,
        lon: d.location?.lon ?? null,
        speed: d.location?.speed ?? null,
        course: d.location?.course ?? null,
        utcTime: ms(d.location?.utcTime),
        stateTime: ms(d.location?.stateTime),
      })),
    );
    // Every kind of row came through: each state, and several icon states.
    expect(new Set(decoded.map((r) => r.state))).toEqual(new Set(['zx', 'lx', 'wjh']));
    expect(new Set(decoded.map((r) => r.carIconState)).size).toBeGreaterThanOrEqual(5);
  });
});
