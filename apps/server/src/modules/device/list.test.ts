import { countTabs, type DeviceListEntry, filterByTab, matchesExpiryFilter, sortDevices } from '@carhere/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, expectOk, insertDeviceState, loginAs, type StateValues, type Tree } from '../agent/fixtures.ts';
import { isHiddenForSpecialBrand } from '../custself/testFixtures.ts';
import {
  DEVICE_ROW_FIELDS,
  type DeviceListDbRow,
  type DeviceListQuery,
  deviceRowsByIds,
  type ListExpiry,
  type ListTab,
  listPage,
  listRowsJson,
  tabCounts,
} from './listQueries.ts';
import { presentDevice, toDomainEntry } from './presenter.ts';

type Tuple = (string | number | null)[];

/** The 'rows' format read back: the tuples (and the IMEIs, field 1). */
async function rowsOf(server: TestServer, q: DeviceListQuery, offset: number, limit: number) {
  const page = await listRowsJson(server.ctx, q, offset, limit);
  const tuples = JSON.parse(page.rows) as Tuple[];
  expect(tuples).toHaveLength(page.count);
  return { ...page, tuples, imeis: tuples.map((t) => t[1] as string) };
}

/** The tuple the 'rows' format must hold for a device, from its full item (presenter.ts, a separate path). */
function expectedTuple(row: DeviceListDbRow): Tuple {
  const item = presentDevice(row, Date.now());
  const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
  const finite = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  return [
    Number(item.id),
    item.terminalID,
    item.nickname,
    item.carNumber,
    { zx: 0, lx: 1, wjh: 2 }[item.state],
    ms(item.expire),
    item.device.iconType,
    item.device.deviceType,
    item.user_id === null ? null : Number(item.user_id),
    finite(item.location?.lat),
    finite(item.location?.lon),
    finite(item.location?.speed),
    finite(item.location?.course),
    ms(item.location?.utcTime),
    ms(item.location?.stateTime),
  ];
}

/** A device as a property test generates it: its state relative to `now`. */
interface GenDevice {
  activated: boolean;
  state: null | {
    online: boolean;
    /** Seconds before now (negative: in the future); null: no position time. */
    posAge: number | null;
    lastSeenAge: number | null;
    lat: number | null;
    lon: number | null;
    speed: number | null;
  };
  platformExpiryDays: number | null;
  userExpiryDays: number | null;
}

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

const genDevice: fc.Arbitrary<GenDevice> = fc.record({
  activated: fc.boolean(),
  state: fc.option(
    fc.record({
      online: fc.boolean(),
      // Few distinct ages, so ties (broken by IMEI) happen; the 60 s boundary is included.
      posAge: fc.option(fc.constantFrom(-5, 0, 10, 59, 60, 61, 600, 86_400, 400_000)),
      lastSeenAge: fc.option(fc.constantFrom(0, 30, 60, 3600, 259_199, 259_200, 500_000)),
      lat: fc.option(fc.constantFrom(0, 39.9, -33.5, 91)),
      lon: fc.option(fc.constantFrom(0, 116.4, 181, -70.2)),
      speed: fc.option(fc.constantFrom(0, 5, 10, 10.5, 60, 61, 121)),
    }),
    { nil: null },
  ),
  platformExpiryDays: fc.option(fc.constantFrom(-10, -1, 0, 3, 7, 30, 60, 61, 400)),
  userExpiryDays: fc.option(fc.constantFrom(-2, 5, 90)),
});

describe('device list order and filters equal the domain rules', () => {
  let server: TestServer;
  let t: Tree;
  let ownerId: string;
  let ownerPath: string;
  let seq = 0;

  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    ownerId = t.ids.userA1;
    const row = await server.ctx.db
      .selectFrom('users')
      .select('path')
      .where('id', '=', ownerId)
      .executeTakeFirstOrThrow();
    ownerPath = row.path;
  });
  afterAll(async () => {
    await server.close();
  });

  async function load(devices: GenDevice[]): Promise<void> {
    const db = server.ctx.db;
    await db.deleteFrom('devices').where('user_id', '=', ownerId).execute();
    for (const g of devices) {
      seq++;
      const at = (seconds: number | null) => (seconds === null ? null : new Date(NOW - seconds * 1000));
      const days = (n: number | null) => (n === null ? null : new Date(NOW + n * 86_400_000));
      const d = await db
        .insertInto('devices')
        .values({
          terminal_id: `35${String(seq).padStart(13, '0')}`,
          user_id: ownerId,
          activated_at: g.activated ? new Date(NOW - 86_400_000) : null,
          platform_expire_at: days(g.platformExpiryDays),
          user_expire_at: days(g.userExpiryDays),
          nickname: seq % 3 === 0 ? `car ${seq}` : '',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (g.state) {
        await insertDeviceState(db, {
          device_id: d.id,
          online: g.state.online,
          pos_time: at(g.state.posAge),
          last_seen: at(g.state.lastSeenAge),
          lat: g.state.lat,
          lon: g.state.lon,
          speed: g.state.speed,
        });
      }
    }
  }

  const query = (tab: ListTab, expiry: ListExpiry = 'all', special = false): DeviceListQuery => ({
    scope: { subtreePath: ownerPath },
    tab,
    expiry,
    specialBrand: special ? { noProcess: [] } : null,
    now: new Date(NOW),
  });

  async function domainView(tab: ListTab, expiry: ListExpiry) {
    const all = await listPage(server.ctx, query('all'), 0, 100_000);
    const entries = all.map((r) => ({ ...toDomainEntry(r), id: r.id }));
    const filtered = filterByTab(entries, tab, NOW).filter((e) => matchesExpiryFilter(e.expire, expiry, NOW));
    return { sorted: sortDevices(filtered, NOW).map((e) => e.terminalID), entries };
  }

  /** Every tab with no expiry filter, and every expiry filter on the all tab. */
  const COMBINATIONS: [ListTab, ListExpiry][] = [
    ...(['all', 'online', 'offline', 'unactivated', 'expired', 'unknown'] as ListTab[]).map(
      (tab): [ListTab, ListExpiry] => [tab, 'all'],
    ),
    ...(['within7Days', 'within60Days', 'expired'] as ListExpiry[]).map((expiry): [ListTab, ListExpiry] => [
      'all',
      expiry,
    ]),
    ['expired', 'within7Days'],
  ];

  it('every tab and expiry filter lists exactly the domain’s devices in the domain’s order', {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(genDevice, { minLength: 0, maxLength: 25 }), async (devices) => {
        await load(devices);
        const { entries } = await domainView('all', 'all');
        for (const [tab, expiry] of COMBINATIONS) {
          const filtered = filterByTab(entries, tab, NOW).filter((e) => matchesExpiryFilter(e.expire, expiry, NOW));
          const expected = sortDevices(filtered, NOW).map((e) => e.terminalID);
          const q = query(tab, expiry);
          // Segment walk (short reads), one sorted statement (long reads), and the 'rows' format.
          const walked = (await listPage(server.ctx, q, 0, 1000)).map((r) => r.terminal_id);
          const bulk = (await listPage(server.ctx, q, 0, 100_000)).map((r) => r.terminal_id);
          const rows = await rowsOf(server, q, 0, 100_000);
          expect(walked).toEqual(expected);
          expect(bulk).toEqual(expected);
          expect(rows.imeis).toEqual(expected);
          expect(rows).toMatchObject({ total: expected.length, hasMore: false, count: expected.length });
        }
      }),
      { numRuns: 80 },
    );
  });

  it('pages cut the same order at any offset', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(genDevice, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 35 }),
        fc.integer({ min: 1, max: 10 }),
        async (devices, offset, limit) => {
          await load(devices);
          const full = (await listPage(server.ctx, query('all'), 0, 100_000)).map((r) => r.terminal_id);
          const page = (await listPage(server.ctx, query('all'), offset, limit)).map((r) => r.terminal_id);
          const bulkPage = (await listPage(server.ctx, query('all'), offset, limit, { walkLimit: 0 })).map(
            (r) => r.terminal_id,
          );
          const rowsPage = await rowsOf(server, query('all'), offset, limit);
          expect(page).toEqual(full.slice(offset, offset + limit));
          expect(bulkPage).toEqual(page);
          expect(rowsPage.imeis).toEqual(page);
          // More rows after the page, or the whole list's length once the page reaches the end (unknown past it).
          const hasMore = full.length > offset + limit;
          expect(rowsPage.hasMore).toBe(hasMore);
          expect(rowsPage.total).toBe(hasMore || (page.length === 0 && offset > 0) ? null : full.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('tab counts equal the domain’s counts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(genDevice, { minLength: 0, maxLength: 25 }), async (devices) => {
        await load(devices);
        const { entries } = await domainView('all', 'all');
        const expected = countTabs(entries, NOW);
        const got = await tabCounts(server.ctx, query('all'));
        expect(got).toEqual({ ...expected, unknown: 0 });
      }),
      { numRuns: 20 },
    );
  });

  it('the special-brand rule hides not-activated devices and devices offline 3 days or more, as the domain does', async () => {
    const visibleDevices = <T extends DeviceListEntry>(list: T[]) =>
      list.filter((e) => !isHiddenForSpecialBrand(e, NOW));
    await fc.assert(
      fc.asyncProperty(fc.array(genDevice, { minLength: 0, maxLength: 25 }), async (devices) => {
        await load(devices);
        const { entries } = await domainView('all', 'all');
        const expected = sortDevices(visibleDevices(entries), NOW).map((e) => e.terminalID);
        const got = (await listPage(server.ctx, query('all', 'all', true), 0, 1000)).map((r) => r.terminal_id);
        const bulk = (await rowsOf(server, query('all', 'all', true), 0, 100_000)).imeis;
        expect(got).toEqual(expected);
        expect(bulk).toEqual(expected);
        const visible = visibleDevices(entries);
        expect(await tabCounts(server.ctx, query('all', 'all', true))).toEqual({
          ...countTabs(visible, NOW),
          unknown: 0,
        });
      }),
      { numRuns: 20 },
    );
  });

  it('IMEIs with letters sort in code-point order, as the domain compares them', async () => {
    const db = server.ctx.db;
    await db.deleteFrom('devices').where('user_id', '=', ownerId).execute();
    for (const imei of ['a00000000000001', 'B00000000000001', '100000000000001', 'b00000000000001']) {
      await db.insertInto('devices').values({ terminal_id: imei, user_id: ownerId }).execute();
    }
    const expected = ['100000000000001', 'B00000000000001', 'a00000000000001', 'b00000000000001'];
    expect((await listPage(server.ctx, query('all'), 0, 10)).map((r) => r.terminal_id)).toEqual(expected);
    expect((await listPage(server.ctx, query('all'), 0, 10, { walkLimit: 0 })).map((r) => r.terminal_id)).toEqual(
      expected,
    );
    expect((await rowsOf(server, query('all'), 0, 10)).imeis).toEqual(expected);
  });

  it('the rows format holds exactly the full items’ values, whatever the text and numbers', async () => {
    const db = server.ctx.db;
    await db.deleteFrom('devices').where('user_id', '=', ownerId).execute();
    // Texts that JSON must escape, the rows' own separator, non-BMP characters; floats that are not JSON numbers.
    const texts = ['say "hi"', 'back\\slash', 'tab\there\nnewline\u0001', '],[', '京A·12345', 'emoji 🚗', ' ', ''];
    const floats = [39.912345678901, -0.000001, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, null];
    const at = (s: number) => new Date(NOW - s * 1000);
    for (let i = 0; i < texts.length; i++) {
      const d = await db
        .insertInto('devices')
        .values({
          terminal_id: `37${String(i).padStart(13, '0')}`,
          user_id: ownerId,
          nickname: texts[i],
          car_number: texts[(i + 3) % texts.length],
          icon_type: (i % 12) + 1,
          device_type: i,
          activated_at: i === 7 ? null : at(86_400),
          platform_expire_at: i % 2 === 0 ? new Date(NOW + i * 86_400_000 + 123) : null,
          user_expire_at: i % 3 === 0 ? new Date(NOW - 5_000) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i < 6) {
        await insertDeviceState(db, {
          device_id: d.id,
          online: i % 2 === 0,
          pos_time: at(i * 17 + 0.25),
          last_seen: i === 4 ? null : at(i * 3),
          lat: floats[i],
          lon: floats[(i + 1) % floats.length],
          speed: i === 0 ? 61.5 : i,
        });
      }
    }
    const q = query('all');
    const rows = await rowsOf(server, q, 0, 100);
    const full = await listPage(server.ctx, q, 0, 100);
    expect(rows.imeis).toEqual(full.map((r) => r.terminal_id));
    expect(rows.tuples).toEqual(full.map(expectedTuple));
    expect(rows.tuples.every((t) => t.length === DEVICE_ROW_FIELDS.length)).toBe(true);
    expect(rows.tuples.map((t) => t[2])).toEqual(expect.arrayContaining(texts));
  });

  it('deviceRowsByIds keeps the order asked for', async () => {
    await load([
      { activated: true, state: null, platformExpiryDays: null, userExpiryDays: null },
      { activated: false, state: null, platformExpiryDays: null, userExpiryDays: null },
    ]);
    const rows = await listPage(server.ctx, query('all'), 0, 10);
    const reversed = await deviceRowsByIds(server.ctx, rows.map((r) => r.id).reverse());
    expect(reversed.map((r) => r.id)).toEqual(rows.map((r) => r.id).reverse());
  });
});

describe('POST /device/findByUserId and /device/countByUserId', () => {
  let server: TestServer;
  let t: Tree;
  let agentA: ApiClient;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    const db = server.ctx.db;
    const now = Date.now();
    const mk = async (
      imei: string,
      owner: string,
      extra: Record<string, unknown>,
      state?: Omit<StateValues, 'device_id'>,
    ) => {
      const d = await db
        .insertInto('devices')
        .values({ terminal_id: imei, user_id: owner, ...extra })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (state) await insertDeviceState(db, { device_id: d.id, ...state });
    };
    const active = { activated_at: new Date(now - 86_400_000) };
    await mk(
      '861000000000001',
      t.ids.agentA,
      { ...active, car_number: '京A00001' },
      { online: true, pos_time: new Date(now - 5_000), lat: 39.9, lon: 116.4, speed: 40 },
    );
    await mk('861000000000002', t.ids.userA2, active, {
      online: true,
      pos_time: new Date(now - 120_000),
      lat: 39.9,
      lon: 116.4,
      speed: 0,
    });
    await mk(
      '861000000000003',
      t.ids.userA1,
      { ...active, platform_expire_at: new Date(now - 1000) },
      { online: false, last_seen: new Date(now - 3_600_000) },
    );
    await mk('861000000000004', t.ids.subA, { platform_expire_at: new Date(now + 3 * 86_400_000) });
    await mk('862000000000001', t.ids.agentB, active, {
      online: true,
      pos_time: new Date(now),
      lat: 1,
      lon: 1,
      speed: 50,
    });
    agentA = await loginAs(server, 'agentA');
  });
  afterAll(async () => {
    await server.close();
  });

  const page4 = () => [
    ['861000000000001', 'zx'],
    ['861000000000002', 'zx'],
    ['861000000000003', 'lx'],
    ['861000000000004', 'wjh'],
  ];

  interface Page {
    list: { terminalID: string; state: string; displayName: string; carIconState: string }[];
    hasMore: boolean;
    total: number | null;
    counts: Record<string, number> | null;
  }

  it('lists the subtree in the spec’s order with counts, and never a device of another tenant', async () => {
    const page = await expectOk<Page>(agentA.post('/device/findByUserId', { withCounts: true }));
    expect(page.list.map((d) => d.terminalID)).toEqual([
      '861000000000001',
      '861000000000002',
      '861000000000003',
      '861000000000004',
    ]);
    expect(page.list.map((d) => d.state)).toEqual(['zx', 'zx', 'lx', 'wjh']);
    expect(page.list[0]).toMatchObject({ displayName: '京A00001', carIconState: 'moving' });
    expect(page.list[2].carIconState).toBe('expired');
    expect(page.counts).toEqual({ all: 4, online: 2, offline: 1, unactivated: 1, expired: 1, unknown: 0 });
    expect(page.total).toBe(4);
  });

  it('filters by tab, keyword, expiry, one account only, and pages with hasMore', async () => {
    const online = await expectOk<Page>(agentA.post('/device/findByUserId', { tab: 'online', withCounts: true }));
    expect(online.list.map((d) => d.terminalID)).toEqual(['861000000000001', '861000000000002']);
    expect(online.total).toBe(2);
    const search = await expectOk<Page>(agentA.post('/device/findByUserId', { keyword: 'a0000' }));
    expect(search.list.map((d) => d.terminalID)).toEqual(['861000000000001']);
    const soon = await expectOk<Page>(agentA.post('/device/findByUserId', { expiry: 'within7Days' }));
    expect(soon.list.map((d) => d.terminalID)).toEqual(['861000000000004']);
    const own = await expectOk<Page>(
      agentA.post('/device/findByUserId', { userId: t.ids.subA, includeChildren: false }),
    );
    expect(own.list.map((d) => d.terminalID)).toEqual(['861000000000004']);
    const sub = await expectOk<Page>(agentA.post('/device/findByUserId', { userId: t.ids.subA }));
    expect(sub.list.map((d) => d.terminalID)).toEqual(['861000000000002', '861000000000004']);
    const p1 = await expectOk<Page>(agentA.post('/device/findByUserId', { pageSize: 3 }));
    expect(p1).toMatchObject({ hasMore: true, total: null, counts: null });
    const p2 = await expectOk<Page>(agentA.post('/device/findByUserId', { pageSize: 3, pageNum: 2 }));
    expect(p2.list.map((d) => d.terminalID)).toEqual(['861000000000004']);
    expect(p2.hasMore).toBe(false);
    expect((await agentA.post('/device/findByUserId', { pageSize: 5000 })).meta.message).toBe(
      'Invalid parameter: pageSize',
    );
    const counts = await expectOk<Record<string, number>>(
      agentA.post('/device/countByUserId', { keyword: '86100000000000' }),
    );
    expect(counts.all).toBe(4);
  });

  interface RowsPage {
    pageNum: number;
    pageSize: number;
    hasMore: boolean;
    total: number | null;
    counts: Record<string, number> | null;
    now: number;
    fields: string[];
    rows: Tuple[];
  }

  it('format rows: the whole list as tuples in the same order, with the total and the ordering time', async () => {
    const before = Date.now();
    const all = await expectOk<RowsPage>(agentA.post('/device/findByUserId', { format: 'rows', pageSize: 100_000 }));
    expect(all.fields).toEqual([...DEVICE_ROW_FIELDS]);
    expect(all.rows.map((t) => [t[1], ['zx', 'lx', 'wjh'][t[4] as number]])).toEqual(page4());
    expect(all).toMatchObject({ pageNum: 1, pageSize: 100_000, hasMore: false, total: 4, counts: null });
    expect(all.now).toBeGreaterThanOrEqual(before);
    expect(all.rows[0][3]).toBe('京A00001');
    expect(all.rows[2][5]).toBeLessThan(Date.now());
    const items = await expectOk<{ list: { id: string }[] }>(agentA.post('/device/findByUserId', {}));
    expect(all.rows.map((t) => String(t[0]))).toEqual(items.list.map((d) => d.id));
    // Pages of the same order; a page past the end is empty.
    const p2 = await expectOk<RowsPage>(
      agentA.post('/device/findByUserId', { format: 'rows', pageSize: 3, pageNum: 2, withCounts: true, tab: 'all' }),
    );
    expect(p2.rows.map((t) => t[1])).toEqual(['861000000000004']);
    expect(p2).toMatchObject({ hasMore: false, total: 4 });
    expect(p2.counts).toMatchObject({ all: 4, online: 2 });
    const p1 = await expectOk<RowsPage>(agentA.post('/device/findByUserId', { format: 'rows', pageSize: 3 }));
    expect(p1).toMatchObject({ hasMore: true, total: null });
    expect(p1.rows.map((t) => t[1])).toEqual(
      page4()
        .slice(0, 3)
        .map(([imei]) => imei),
    );
    const p1Counts = await expectOk<RowsPage>(
      agentA.post('/device/findByUserId', { format: 'rows', pageSize: 3, withCounts: true }),
    );
    expect(p1Counts).toMatchObject({ hasMore: true, total: 4 });
    const online = await expectOk<RowsPage>(
      agentA.post('/device/findByUserId', { format: 'rows', pageSize: 2, tab: 'online' }),
    );
    expect(online).toMatchObject({ hasMore: false, total: 2 });
    const past = await expectOk<RowsPage>(
      agentA.post('/device/findByUserId', { format: 'rows', pageSize: 3, pageNum: 9 }),
    );
    expect(past).toMatchObject({ rows: [], hasMore: false, total: null });
    // Filters and the caller's reach apply as for full items.
    const subOnline = await expectOk<RowsPage>(
      agentA.post('/device/findByUserId', { format: 'rows', pageSize: 100_000, tab: 'online', userId: t.ids.subA }),
    );
    expect(subOnline.rows.map((t) => t[1])).toEqual(['861000000000002']);
    expect((await agentA.post('/device/findByUserId', { format: 'rows', userId: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/device/findByUserId', { format: 'columns' })).status).toBe(400);
    const admin = await expectOk<RowsPage>(t.admin.post('/device/findByUserId', { format: 'rows', pageSize: 1000 }));
    expect(admin.total).toBe(5);
  });

  it('refuses another tenant’s account, bad filters and callers without the permission', async () => {
    expect((await agentA.post('/device/findByUserId', { userId: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/device/countByUserId', { userId: t.ids.agentB })).status).toBe(403);
    expect((await agentA.post('/device/findByUserId', { tab: 'parked' })).status).toBe(400);
    expect((await agentA.post('/device/findByUserId', { pageSize: 0 })).status).toBe(400);
    expect((await agentA.post('/device/findByUserId', { expiry: 'soon' })).status).toBe(400);
    const admin = await expectOk<Page>(t.admin.post('/device/findByUserId', { withCounts: true }));
    expect(admin.total).toBe(5);
    const c = await expectOk<{ id: string }>(
      t.admin.post('/user/insertUser', { username: 'tester5', password: 'Passw0rd!', role: 5 }),
    );
    expect(c.id).toBeTruthy();
    const tester = await loginAs(server, 'tester5');
    expect((await tester.post('/device/findByUserId', {})).status).toBe(403);
  });

  it('findByImeis previews reachable devices and lists the rest', async () => {
    const res = await expectOk<{
      list: { terminalID: string }[];
      notFound: { terminalID: string }[];
      invalid: { value: string }[];
    }>(agentA.post('/device/findByImeis', { text: '861000000000001\n862000000000001\nxx' }));
    expect(res.list.map((d) => d.terminalID)).toEqual(['861000000000001']);
    expect(res.notFound.map((d) => d.terminalID)).toEqual(['862000000000001']);
    expect(res.invalid.map((d) => d.value)).toEqual(['xx']);
    expect((await agentA.post('/device/findByImeis', {})).status).toBe(400);
  });
});
