// /api/stat/*, /api/stay/find: answers from daily rows built by the real roll-up, permission denials, bad
// input and hierarchy refusals.

import { greatCircleMetres, STAT_COLUMN_LABELS } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, demoClient, newTerminalId, userClient, waitFor } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { rowTailSql, sqlZone } from './daily.ts';
import { markForRebuild, runRollup } from './rollup.ts';
import { dailySchema } from './routes.ts';

/** 2026-11-02 00:00 in Shanghai (the demo account's zone). */
const DAY0 = Date.UTC(2026, 10, 1, 16, 0, 0);
const DAY_MS = 86_400_000;

interface Fix {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  acc: boolean;
}

/** 20 min east at ~54 km/h, a 30-min stop (ACC off), 10 min east again; one fix every 10 s. */
function drive(start: number): Fix[] {
  const out: Fix[] = [];
  let lon = 116.3;
  let t = start;
  const step = 0.0019; // ~161 m at 39.9° N per 10 s
  const move = (n: number) => {
    for (let i = 0; i < n; i++, t += 10_000) {
      lon += step;
      out.push({ t, lat: 39.9, lon, speed: 58, acc: true });
    }
  };
  move(120);
  for (let i = 0; i < 180; i++, t += 10_000) out.push({ t, lat: 39.9, lon, speed: 0, acc: false });
  move(60);
  return out;
}

function pathLength(fixes: Fix[]): number {
  let m = 0;
  for (let i = 1; i < fixes.length; i++) {
    const a = fixes[i - 1];
    const b = fixes[i];
    if (a.speed === 0 && b.speed === 0) continue;
    m += greatCircleMetres(a.lat, a.lon, b.lat, b.lon);
  }
  return m;
}

async function insertFixes(server: TestServer, deviceId: string, fixes: Fix[]): Promise<void> {
  await server.ctx.dbHandle.pool.query(
    `INSERT INTO positions (device_id, time, lat, lon, speed, valid, location_type, acc)
     SELECT $1, to_timestamp(t / 1000.0), la, lo, sp, true, 'gps', ac
     FROM unnest($2::float8[], $3::float8[], $4::float8[], $5::real[], $6::bool[]) AS u(t, la, lo, sp, ac)`,
    [
      deviceId,
      fixes.map((f) => f.t),
      fixes.map((f) => f.lat),
      fixes.map((f) => f.lon),
      fixes.map((f) => f.speed),
      fixes.map((f) => f.acc),
    ],
  );
}

describe('/api/stat', () => {
  let server: TestServer;
  let demo: ApiClient;
  let agent: ApiClient;
  let logUser: ApiClient;
  let tid: string;
  let other: string;
  let foreign: string;
  let expected: number;
  const range = { startTime: DAY0, endTime: DAY0 + 2 * DAY_MS - 1 };

  beforeAll(async () => {
    server = await createTestServer();
    demo = await demoClient(server);
    agent = await userClient(server, 'stat-agent', 2);
    logUser = await userClient(server, 'stat-log', 8);
    const agentRow = await server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'stat-agent')
      .executeTakeFirstOrThrow();
    tid = newTerminalId('gt06');
    other = newTerminalId('gt06');
    foreign = newTerminalId('gt06');
    const id = await addDevice(server, tid, 'gt06');
    await addDevice(server, other, 'gt06');
    const foreignId = await addDevice(server, foreign, 'gt06', { userId: String(agentRow.id) });
    const day1 = drive(DAY0 + 2 * 3_600_000);
    const day2 = drive(DAY0 + DAY_MS + 3 * 3_600_000);
    expected = pathLength(day1);
    await insertFixes(server, id, [...day1, ...day2]);
    await insertFixes(server, foreignId, drive(DAY0 + 5 * 3_600_000));
    await server.ctx.db
      .insertInto('alarms')
      .values([
        { device_id: id, type: 1, time: new Date(DAY0 + 2.5 * 3_600_000), source: 'device', name: 'sos' },
        { device_id: id, type: 6, time: new Date(DAY0 + 2.6 * 3_600_000), source: 'derived', name: 'overspeed' },
        { device_id: id, type: 1, time: new Date(DAY0 + DAY_MS + 4 * 3_600_000), source: 'device', name: 'sos' },
      ])
      .execute();
    await server.ctx.db
      .insertInto('device_state')
      .values({ device_id: id, battery: 8, last_seen: new Date(DAY0), attributes: '{}' })
      .execute();
    await server.ctx.db
      .updateTable('devices')
      .set({ platform_expire_at: new Date(Date.now() + 3 * DAY_MS) })
      .where('id', '=', id)
      .execute();
    await markForRebuild(server.ctx.dbHandle.pool);
    await runRollup(server.ctx.dbHandle.pool);
  });
  afterAll(async () => {
    await server.close();
  });

  it('stat/find: one row per device and day from the daily rows', async () => {
    const res = await demo.post<{ total: number; list: Record<string, unknown>[] }>('/stat/find', {
      terminalIDs: [tid],
      ...range,
    });
    expect(res.status).toBe(200);
    expect(res.data.total).toBe(2);
    const [d1, d2] = res.data.list;
    expect(d1).toMatchObject({ terminalID: tid, statsticDate: '2026-11-02', stopCount: 1, alarmCount: 2 });
    expect(d2).toMatchObject({ statsticDate: '2026-11-03', alarmCount: 1 });
    expect(Math.abs((d1.mileage as number) - expected) / expected).toBeLessThan(0.01);
    expect(d1.stopSeconds).toBe(1800);
    expect(d1.runSeconds).toBe(1790); // 120 + 59 intervals starting at a moving fix
    expect(d1.engineSeconds).toBe(1790);
    expect(d1.maxSpeed).toBe(58);
    // the caller's subtree by default: the demo's devices only (not the agent's)
    const mine = await demo.post<{ total: number; list: { terminalID: string }[] }>('/stat/find', range);
    expect(new Set(mine.data.list.map((r) => r.terminalID))).toEqual(new Set([tid]));
  });

  it('stat/find: the hand-written JSON is the documented row (id, statsticState, any name)', async () => {
    const name = 'Truck "7" \\ 东\u2028<b>';
    await server.ctx.db.updateTable('devices').set({ nickname: name }).where('terminal_id', '=', tid).execute();
    try {
      const res = await demo.post<{ total: number; list: Record<string, unknown>[] }>('/stat/find', {
        terminalIDs: [tid],
        ...range,
      });
      for (const row of res.data.list) expect(() => dailySchema.strict().parse(row)).not.toThrow();
      expect(res.data.list.map((r) => r.displayName)).toEqual([name, name]);
      const id = await server.ctx.db
        .selectFrom('devices')
        .select('id')
        .where('terminal_id', '=', tid)
        .executeTakeFirstOrThrow();
      expect(res.data.list.map((r) => r.id)).toEqual([`${id.id}-2026-11-02`, `${id.id}-2026-11-03`]);
      // Rolled up after those days ended: final.
      expect(res.data.list.map((r) => r.statsticState)).toEqual(['final', 'final']);
      const beyond = await demo.post<{ total: number; list: unknown[] }>('/stat/find', {
        terminalIDs: [tid],
        ...range,
        pageNum: 5,
        pageSize: 1,
      });
      expect(beyond.data).toEqual({ total: 2, list: [] });
    } finally {
      await server.ctx.db.updateTable('devices').set({ nickname: '' }).where('terminal_id', '=', tid).execute();
    }
  });

  it('stat/find: paging, bad input, denial, hierarchy', async () => {
    const p = await demo.post<{ total: number; list: unknown[] }>('/stat/find', { ...range, pageSize: 1, pageNum: 2 });
    expect(p.data.total).toBe(2);
    expect(p.data.list).toHaveLength(1);
    expect((await demo.post('/stat/find', { startTime: range.endTime, endTime: range.startTime })).status).toBe(400);
    expect((await demo.post('/stat/find', { ...range, pageSize: 100_001 })).status).toBe(400);
    expect((await demo.post('/stat/find', { terminalIDs: [tid] })).status).toBe(400);
    expect((await logUser.post('/stat/find', range)).status).toBe(403);
    expect((await demo.post('/stat/find', { ...range, terminalIDs: [foreign] })).status).toBe(403);
  });

  it('stat/find: the row text stored by the roll-up is the one formatted at read time; fixed-offset zones', async () => {
    const pool = server.ctx.dbHandle.pool;
    const id = String(
      (await server.ctx.db.selectFrom('devices').select('id').where('terminal_id', '=', tid).executeTakeFirstOrThrow())
        .id,
    );
    const stored = await pool.query('SELECT 1 FROM stat_daily WHERE device_id = $1 AND row_json IS NOT NULL', [id]);
    expect(stored.rowCount).toBe(2);
    const read = () => demo.post<{ total: number; list: unknown[] }>('/stat/find', { terminalIDs: [tid], ...range });
    const withStored = (await read()).data;
    await pool.query('UPDATE stat_daily SET row_json = NULL WHERE device_id = $1', [id]);
    try {
      expect((await read()).data).toEqual(withStored);
    } finally {
      await markForRebuild(pool);
      await runRollup(pool);
    }
    // '+08:00' is 8 hours east for PostgreSQL too (its POSIX reading of the bare text is 8 hours west).
    const end = await pool.query<{ t: Date }>(`SELECT (DATE '2026-11-02' + 1)::timestamp AT TIME ZONE $1 AS t`, [
      sqlZone('+08:00'),
    ]);
    expect(end.rows[0].t.toISOString()).toBe('2026-11-02T16:00:00.000Z');
    expect(sqlZone('UTC')).toBe('UTC');
    expect(sqlZone('Asia/Shanghai')).toBe('Asia/Shanghai');
  });

  it('stat/find: big pages (a text per day) and small pages (row by row) give the same rows in order', async () => {
    const pager = await userClient(server, 'stat-pager', 2);
    const pagerId = String(
      (
        await server.ctx.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'stat-pager')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const pool = server.ctx.dbHandle.pool;
    // 45 devices × 30 days = 1,350 daily rows written directly (no stored text: formatted at read time)
    await pool.query(
      `INSERT INTO devices (terminal_id, user_id, protocol)
       SELECT '86213000' || lpad(g::text, 7, '0'), $1, 2 FROM generate_series(1, 45) g`,
      [pagerId],
    );
    try {
      await pool.query(
        `INSERT INTO stat_daily (device_id, day, mileage, run_seconds, stop_count, max_speed, alarm_count, computed_at)
         SELECT d.id, DATE '2026-09-01' + g, 1000 + d.id + g, 60 * g, g % 3, 40.5 + g, g % 2, now()
         FROM devices d, generate_series(0, 29) g WHERE d.user_id = $1`,
        [pagerId],
      );
      const sept = { startTime: Date.UTC(2026, 7, 31, 16), endTime: Date.UTC(2026, 8, 30, 16) - 1 };
      type Page = { total: number; list: { statsticDate: string; terminalID: string }[] };
      const all = (await pager.post<Page>('/stat/find', sept)).data;
      expect(all.total).toBe(1350);
      expect(all.list).toHaveLength(1350);
      const keys = all.list.map((r) => `${r.statsticDate} ${r.terminalID}`);
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(1350);
      const big = await pager.post<Page>('/stat/find', { ...sept, pageSize: 1001, pageNum: 2 });
      expect(big.data).toEqual({ total: 1350, list: all.list.slice(1001) });
      const small = await pager.post<Page>('/stat/find', { ...sept, pageSize: 1000, pageNum: 2 });
      expect(small.data).toEqual({ total: 1350, list: all.list.slice(1000) });
      const cut = await pager.post<Page>('/stat/find', { ...sept, pageSize: 1200, pageNum: 1 });
      expect(cut.data).toEqual({ total: 1350, list: all.list.slice(0, 1200) });
    } finally {
      await pool.query('DELETE FROM devices WHERE user_id = $1', [pagerId]);
    }
  });

  it('stat/find: a whole-range page (by COPY on PostgreSQL) equals the row-by-row pages: names with quotes, backslashes, control characters and other scripts; terminalID order unlike id order; stored and formatted row texts', async () => {
    const owner = await userClient(server, 'stat-names', 2);
    const ownerId = String(
      (
        await server.ctx.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'stat-names')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const names = [
      'said "hi" \\ back\\slash, comma',
      "it's \u0001 \t tab",
      '京A·12345 车',
      'emoji 🚗 \u2028 sep',
      '\\x01 \\. end',
      '',
    ];
    const pool = server.ctx.dbHandle.pool;
    // 12 devices whose terminalIDs fall as their ids rise; 5 days each; every other device's rows keep their text
    await pool.query(
      `INSERT INTO devices (terminal_id, user_id, protocol, nickname)
       SELECT '86214000' || lpad((13 - g)::text, 7, '0'), $1, 2, ($2::text[])[1 + g % 6] FROM generate_series(1, 12) g`,
      [ownerId, names],
    );
    try {
      await pool.query(
        `INSERT INTO stat_daily (device_id, day, mileage, run_seconds, stop_count, max_speed, alarm_count, computed_at)
         SELECT d.id, DATE '2026-08-01' + g, 500 + d.id + g, 30 * g, g % 2, 33.5 + g, g % 3, now()
         FROM devices d, generate_series(0, 4) g WHERE d.user_id = $1`,
        [ownerId],
      );
      await pool.query(
        `UPDATE stat_daily SET row_json = ${rowTailSql((c) => c, `'${sqlZone('Asia/Shanghai')}'`)}
         WHERE device_id IN (SELECT id FROM devices WHERE user_id = $1) AND device_id % 2 = 0`,
        [ownerId],
      );
      const aug = { startTime: Date.UTC(2026, 6, 31, 16), endTime: Date.UTC(2026, 7, 5, 16) - 1 };
      type Page = {
        total: number;
        list: { statsticDate: string; terminalID: string; displayName: string; id: string }[];
      };
      const all = (await owner.post<Page>('/stat/find', aug)).data;
      expect(all.total).toBe(60);
      const keys = all.list.map((r) => `${r.statsticDate} ${r.terminalID}`);
      expect(keys).toEqual([...keys].sort());
      expect(new Set(keys).size).toBe(60);
      expect(new Set(all.list.map((r) => r.displayName))).toEqual(
        new Set([...names.filter((n) => n !== ''), '862140000000008', '862140000000002']),
      );
      const rowByRow = [
        ...(await owner.post<Page>('/stat/find', { ...aug, pageSize: 35, pageNum: 1 })).data.list,
        ...(await owner.post<Page>('/stat/find', { ...aug, pageSize: 35, pageNum: 2 })).data.list,
      ];
      expect(all.list).toEqual(rowByRow);
    } finally {
      await pool.query('DELETE FROM devices WHERE user_id = $1', [ownerId]);
    }
  });

  it('stat/findAllMileage: per device totals, zero rows included', async () => {
    const res = await demo.post<{ total: number; list: Record<string, number | string>[] }>('/stat/findAllMileage', {
      terminalIDs: [tid, other],
      ...range,
    });
    expect(res.data.total).toBe(2);
    const byTid = new Map(res.data.list.map((r) => [r.terminalID, r]));
    expect(byTid.get(tid)).toMatchObject({ stopCount: 2, alarmCount: 3, days: 2 });
    expect(byTid.get(other)).toMatchObject({ mileage: 0, days: 0 });
    expect((await logUser.post('/stat/findAllMileage', range)).status).toBe(403);
    expect((await demo.post('/stat/findAllMileage', { ...range, userId: 'x' })).status).toBe(400);
    expect((await demo.post('/stat/findAllMileage', { ...range, deviceIds: ['999999'] })).status).toBe(403);
  });

  it('stat/findByUserIds: per account totals within reach', async () => {
    const res = await demo.post<{ list: Record<string, number | string>[] }>('/stat/findByUserIds', {
      userIds: ['2'],
      ...range,
    });
    expect(res.data.list[0]).toMatchObject({ userId: '2', deviceCount: 2, alarmCount: 3 });
    expect((await demo.post('/stat/findByUserIds', { userIds: ['1'], ...range })).status).toBe(403);
    expect((await demo.post('/stat/findByUserIds', { userIds: [], ...range })).status).toBe(400);
    expect((await logUser.post('/stat/findByUserIds', { userIds: ['2'], ...range })).status).toBe(403);
  });

  it('stay/find and stat/trips: the domain rules over the raw fixes', async () => {
    const stays = await demo.post<{ total: number; list: Record<string, number | string>[] }>('/stay/find', {
      terminalIDs: [tid],
      ...range,
    });
    expect(stays.data.total).toBe(2);
    expect(stays.data.list[0]).toMatchObject({ terminalID: tid, seconds: 1800, accOnSeconds: 0 });
    expect(stays.data.list[0].startTime).toBe(new Date(DAY0 + 2 * 3_600_000 + 1_200_000).toISOString());
    const longer = await demo.post<{ total: number }>('/stay/find', { terminalIDs: [tid], ...range, minSeconds: 3600 });
    expect(longer.data.total).toBe(0);
    const trips = await demo.post<{ total: number; list: Record<string, number | string>[] }>('/stat/trips', {
      terminalIDs: [tid],
      ...range,
    });
    expect(trips.data.total).toBe(4);
    expect(trips.data.list[0].startTime).toBe(new Date(DAY0 + 2 * 3_600_000).toISOString());
    expect(trips.data.list[0].maxSpeed).toBe(58);
    // A place, not coordinates: the nearest populated place of the built-in index, in the caller's language.
    expect(stays.data.list[0].address).toMatch(/^\d+\.\d km [NESW]{1,2} of .+, China$|^[^,\d]+, China$/);
    expect(trips.data.list[0].startAddress).toMatch(/China$/);
    expect(trips.data.list[0].endAddress).toMatch(/China$/);
    expect((await demo.post('/stay/find', { terminalIDs: [], ...range })).status).toBe(400);
    expect((await demo.post('/stay/find', { terminalIDs: [tid], ...range, minSeconds: 1 })).status).toBe(400);
    expect((await logUser.post('/stay/find', { terminalIDs: [tid], ...range })).status).toBe(403);
    expect((await demo.post('/stay/find', { terminalIDs: [foreign], ...range })).status).toBe(403);
    expect((await logUser.post('/stat/trips', { terminalIDs: [tid], ...range })).status).toBe(403);
    expect((await demo.post('/stat/trips', { terminalIDs: [foreign], ...range })).status).toBe(403);
    expect((await demo.post('/stat/trips', { terminalIDs: [tid], startTime: 0, endTime: 200 * DAY_MS })).status).toBe(
      400,
    );
  });

  it('stat/alarms: counts per device and code, rows on request', async () => {
    const res = await demo.post<{ total: number; list: Record<string, number | string>[]; rows?: { total: number } }>(
      '/stat/alarms',
      { terminalIDs: [tid], ...range },
    );
    expect(res.data.list).toEqual([
      { terminalID: tid, displayName: tid, type: 1, count: 2 },
      { terminalID: tid, displayName: tid, type: 6, count: 1 },
    ]);
    expect(res.data.rows).toBeUndefined();
    const rows = await demo.post<{ rows: { total: number; list: { type: number }[] } }>('/stat/alarms', {
      terminalIDs: [tid],
      ...range,
      type: 1,
      rows: true,
    });
    expect(rows.data.rows.total).toBe(2);
    expect(rows.data.rows.list.every((r) => r.type === 1)).toBe(true);
    expect((await logUser.post('/stat/alarms', range)).status).toBe(403);
    expect((await demo.post('/stat/alarms', { ...range, type: 'sos' })).status).toBe(400);
    expect((await demo.post('/stat/alarms', { ...range, terminalIDs: [foreign] })).status).toBe(403);
  });

  it('stat/fenceVisits: visits from fence alarms', async () => {
    const fence = await server.ctx.db
      .insertInto('fences')
      .values({ user_id: '2', name: 'Depot', shape: 'circle', lat: 39.9, lon: 116.3, radius: 500, alarm_type: 'inOut' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = await server.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('terminal_id', '=', tid)
      .executeTakeFirstOrThrow();
    for (const [type, at] of [
      [4, DAY0 + 3_600_000],
      [5, DAY0 + 3 * 3_600_000],
    ] as const) {
      const a = await server.ctx.db
        .insertInto('alarms')
        .values({ device_id: device.id, type, time: new Date(at), source: 'derived', name: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await server.ctx.db
        .insertInto('fence_alarms')
        .values({ alarm_id: a.id, fence_id: fence.id, fence_name: 'Depot' })
        .execute();
    }
    const res = await demo.post<{ list: Record<string, unknown>[] }>('/stat/fenceVisits', {
      terminalIDs: [tid],
      ...range,
    });
    expect(res.data.list).toEqual([
      {
        terminalID: tid,
        displayName: tid,
        fenceId: String(fence.id),
        fenceName: 'Depot',
        enterTime: new Date(DAY0 + 3_600_000).toISOString(),
        exitTime: new Date(DAY0 + 3 * 3_600_000).toISOString(),
        seconds: 7200,
      },
    ]);
    expect((await logUser.post('/stat/fenceVisits', range)).status).toBe(403);
    expect((await demo.post('/stat/fenceVisits', { ...range, fenceIds: ['abc'] })).status).toBe(400);
    expect((await demo.post('/stat/fenceVisits', { ...range, terminalIDs: [foreign] })).status).toBe(403);
  });

  it('stat/pastDue: devices by expiry filter', async () => {
    const admin = new (await import('../../testing/harness.ts')).ApiClient(server);
    await admin.post('/login', { username: 'admin', password: 'Admin-pass-1' });
    const soon = await admin.post<{ list: { terminalID: string; platformDue: boolean }[] }>('/stat/pastDue', {
      userId: '2',
      filter: '7d',
    });
    expect(soon.status).toBe(200);
    expect(soon.data.list).toEqual([expect.objectContaining({ terminalID: tid, platformDue: true, userDue: false })]);
    const expired = await admin.post<{ total: number }>('/stat/pastDue', { userId: '2', filter: 'expired' });
    expect(expired.data.total).toBe(0);
    expect((await demo.post('/stat/pastDue', { filter: 'all' })).status).toBe(403); // users lack stat_pastdue
    expect((await agent.post('/stat/pastDue', { userId: '2', filter: 'all' })).status).toBe(403); // not its subtree
    expect((await admin.post('/stat/pastDue', { filter: 'soon' })).status).toBe(400);
  });

  it('stat/battery: last level per device and the low count', async () => {
    const res = await demo.post<{ total: number; lowCount: number; list: Record<string, unknown>[] }>('/stat/battery', {
      terminalIDs: [tid, other],
    });
    expect(res.data.total).toBe(2);
    expect(res.data.lowCount).toBe(1);
    expect(res.data.list[0]).toMatchObject({ terminalID: tid, battery: 8, low: true });
    expect(res.data.list[1]).toMatchObject({ terminalID: other, battery: null, low: false });
    expect((await logUser.post('/stat/battery', {})).status).toBe(403);
    expect((await demo.post('/stat/battery', { threshold: 101 })).status).toBe(400);
    expect((await demo.post('/stat/battery', { terminalIDs: [foreign] })).status).toBe(403);
  });

  it('stat/export: an xlsx through the job queue, with progress and a download', async () => {
    const admin = new (await import('../../testing/harness.ts')).ApiClient(server);
    await admin.post('/login', { username: 'admin', password: 'Admin-pass-1' });
    const start = await admin.post<{ jobId: string }>('/stat/export', { kind: 'find', terminalIDs: [tid], ...range });
    expect(start.status).toBe(200);
    const jobId = start.data.jobId;
    const done = await waitFor(
      async () => {
        const p = await admin.get<{ state: string; progress: number; rows: number }>(
          `/stat/export/progress?jobId=${jobId}`,
        );
        return p.data.state === 'done' || p.data.state === 'failed' ? p.data : null;
      },
      20_000,
      'export',
    );
    expect(done).toMatchObject({ state: 'done', progress: 1, rows: 2 });
    const file = await server.app.inject({
      method: 'GET',
      url: `/api/stat/export/download?jobId=${jobId}`,
      headers: { cookie: admin.cookie },
    });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(2).getCell(1).value).toBe(tid);
    // The stays export names each stay's place next to its coordinates.
    const stayJob = (
      await admin.post<{ jobId: string }>('/stat/export', { kind: 'stays', terminalIDs: [tid], ...range })
    ).data.jobId;
    await waitFor(
      async () => {
        const p = await admin.get<{ state: string }>(`/stat/export/progress?jobId=${stayJob}`);
        return p.data.state === 'done' || p.data.state === 'failed' ? p.data : null;
      },
      20_000,
      'stays export',
    );
    const stayFile = await server.app.inject({
      method: 'GET',
      url: `/api/stat/export/download?jobId=${stayJob}`,
      headers: { cookie: admin.cookie },
    });
    const stayBook = new ExcelJS.Workbook();
    await stayBook.xlsx.load(stayFile.rawPayload as unknown as ArrayBuffer);
    const staySheet = stayBook.worksheets[0];
    const headers = (staySheet.getRow(1).values as unknown[]).slice(1);
    const placeLabels: unknown[] = Object.values(STAT_COLUMN_LABELS.address);
    const placeColumn = headers.findIndex((h) => placeLabels.includes(h)) + 1;
    expect(placeColumn).toBeGreaterThan(0);
    // in the admin's language (Chinese): "中国 <place> <direction> <n> 公里"
    expect(String(staySheet.getRow(2).getCell(placeColumn).value)).toMatch(/^中国 \S+.* 公里$|^中国 \S+$/);
    // someone else's export, a missing permission, a bad kind, over the limit
    expect((await agent.get(`/stat/export/progress?jobId=${jobId}`)).status).toBe(403);
    expect((await demo.post('/stat/export', { kind: 'find', ...range })).status).toBe(403);
    expect((await admin.post('/stat/export', { kind: 'nothing', ...range })).status).toBe(400);
    expect((await admin.post('/stat/export', { kind: 'find', startTime: 0, endTime: 100 * DAY_MS })).status).toBe(400);
    expect((await agent.post('/stat/export', { kind: 'find', terminalIDs: [tid], ...range })).status).toBe(403);
  });
});
