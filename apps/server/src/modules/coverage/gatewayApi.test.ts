// Endpoint coverage for the gateway's API areas (issue 5: location, track, deviceAlarms, tire, battery,
// command, tracker_cmd, order). For every endpoint: (b) a role without the permission is refused with code 403
// and the spec's message in the caller's language; a device, alarm, command or account of the sibling subtree
// is refused the same way (or a list call shows none of it) — with the database unchanged in both cases; (c)
// bad input is refused with code 400 and a message in the caller's language (the spec's where it has one),
// again with the database unchanged. Happy paths are in the per-module tests (apps/server/ENDPOINT-COVERAGE.md).
import { hasPermission, permissionsFor, ROLES, translate } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedMessage } from '../../testing/expectations.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { snapshotTables } from '../../testing/snapshot.ts';
import { buildTree, createUser, expectOk, importDevices, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

const LANGS = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'];
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);
const MARK = 'MARK-B-5d1c';

/** Ids of one tenant's objects. */
interface Side {
  userId: string;
  deviceId: string;
  parentId: string;
  imei: string;
  alarmId: string;
  commandId: string;
}
type Req = { url?: string; body?: unknown };
interface BadInput {
  req: (a: Side) => Req;
  /** The field a schema refusal names, or a message key (domain catalogue first, then server texts). */
  field?: string;
  key?: string;
  params?: Record<string, string | number>;
}
interface Endpoint {
  name: string;
  method?: 'GET' | 'POST';
  url?: string;
  perm: string[];
  own: (a: Side) => Req;
  cross: (b: Side) => Req;
  /** 'denied' (default): 403 with the spec message; 'empty': 200 listing nothing of the other tenant. */
  crossAnswer?: 'denied' | 'empty';
  bad: BadInput[];
}

const body = (b: unknown): Req => ({ body: b });
const range = { startTime: T0, endTime: T0 + DAY };
const box = { minLat: 39, maxLat: 41, minLon: 116, maxLon: 117 };
const MONITOR = ['main:monitor'];
const TRACK = ['main:track'];
const ALARMS = ['main:alarms'];
const COMMAND = ['main:command'];

const ENDPOINTS: Endpoint[] = [
  {
    name: '/location/find',
    perm: MONITOR,
    own: (a) => body({ terminalIDs: [a.imei] }),
    cross: (b) => body({ terminalIDs: [b.imei] }),
    bad: [
      { req: () => body({ terminalIDs: [] }), field: 'terminalIDs' },
      { req: () => body({ terminalIDs: ['12;DROP'] }), field: 'terminalIDs/0' },
    ],
  },
  {
    name: '/location/findV2',
    perm: MONITOR,
    own: (a) => body({ userId: a.userId }),
    cross: (b) => body({ userId: b.parentId, children: true }),
    bad: [{ req: () => body({ pageSize: 0 }), field: 'pageSize' }],
  },
  {
    name: '/location/findArea',
    perm: ['main:monitor', 'main:check_car'],
    own: (a) => body({ ...box, userId: a.userId }),
    cross: (b) => body({ ...box, userId: b.parentId }),
    bad: [
      { req: () => body({ ...box, minLat: 91 }), field: 'minLat' },
      { req: () => body({ ...box, startTime: T0 }), key: 'validation.rangeRequired' },
      { req: () => body({ ...box, startTime: T0 + 1000, endTime: T0 }), key: 'validation.rangeOrder' },
    ],
  },
  {
    name: '/track/find',
    perm: TRACK,
    own: (a) => body({ terminalIDs: [a.imei], ...range }),
    cross: (b) => body({ terminalIDs: [b.imei], ...range }),
    bad: [
      { req: (a) => body({ terminalIDs: [a.imei], startTime: 'yesterday', endTime: T0 }), field: 'startTime' },
      {
        req: (a) => body({ terminalIDs: [a.imei], startTime: T0, endTime: T0 + 91 * DAY }),
        key: 'validation.trackDays',
        params: { days: 90 },
      },
      {
        req: (a) => body({ terminalIDs: Array(6).fill(a.imei), ...range }),
        key: 'validation.trackDevices',
        params: { max: 5 },
      },
      { req: (a) => body({ terminalIDs: [a.imei], startTime: T0 + DAY, endTime: T0 }), key: 'validation.rangeOrder' },
    ],
  },
  {
    name: '/track/find (by database id)',
    url: '/track/find',
    perm: TRACK,
    own: (a) => body({ deviceIds: [a.deviceId], ...range }),
    cross: (b) => body({ deviceIds: [b.deviceId], ...range }),
    bad: [{ req: () => body({ deviceIds: ['x'], ...range }), field: 'deviceIds/0' }],
  },
  {
    name: '/track/findByTerminalID',
    perm: TRACK,
    own: (a) => body({ terminalID: a.imei, ...range }),
    cross: (b) => body({ terminalID: b.imei, ...range }),
    bad: [{ req: (a) => body({ terminalID: a.imei, startTime: T0 }), field: 'endTime' }],
  },
  {
    name: 'GET /track/findByTerminalID',
    method: 'GET',
    perm: TRACK,
    own: (a) => ({ url: `/track/findByTerminalID?terminalID=${a.imei}&startTime=${T0}&endTime=${T0 + DAY}` }),
    cross: (b) => ({ url: `/track/findByTerminalID?terminalID=${b.imei}&startTime=${T0}&endTime=${T0 + DAY}` }),
    bad: [
      {
        req: (a) => ({ url: `/track/findByTerminalID?terminalID=${a.imei}&startTime=${T0}&endTime=${T0 + 91 * DAY}` }),
        key: 'validation.trackDays',
        params: { days: 90 },
      },
    ],
  },
  {
    name: '/deviceAlarms/findAll',
    perm: ALARMS,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    crossAnswer: 'empty',
    bad: [{ req: () => body({ type: -1 }), field: 'type' }],
  },
  {
    name: '/deviceAlarms/findAll (by database id)',
    url: '/deviceAlarms/findAll',
    perm: ALARMS,
    own: (a) => body({ deviceIds: [a.deviceId] }),
    cross: (b) => body({ deviceIds: [b.deviceId] }),
    crossAnswer: 'empty',
    bad: [],
  },
  {
    name: '/deviceAlarms/export (by database id)',
    url: '/deviceAlarms/export',
    perm: ALARMS,
    own: (a) => body({ deviceIds: [a.deviceId] }),
    cross: (b) => body({ deviceIds: [b.deviceId] }),
    crossAnswer: 'empty',
    bad: [],
  },
  {
    name: 'GET /deviceAlarms/findAll',
    method: 'GET',
    perm: ALARMS,
    own: (a) => ({ url: `/deviceAlarms/findAll?terminalID=${a.imei}` }),
    cross: (b) => ({ url: `/deviceAlarms/findAll?terminalID=${b.imei}` }),
    crossAnswer: 'empty',
    bad: [{ req: () => ({ url: '/deviceAlarms/findAll?read=maybe' }), field: 'read' }],
  },
  {
    name: '/deviceAlarms/findAllById',
    perm: ALARMS,
    own: (a) => body({ id: a.userId }),
    cross: (b) => body({ id: b.userId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/deviceAlarms/save',
    perm: ALARMS,
    own: (a) => body({ ids: [a.alarmId] }),
    cross: (b) => body({ ids: [b.alarmId] }),
    bad: [{ req: () => body({ ids: [] }), field: 'ids' }],
  },
  {
    name: '/deviceAlarms/update',
    perm: ALARMS,
    own: (a) => body({ id: a.alarmId, read: true }),
    cross: (b) => body({ id: b.alarmId, read: true }),
    bad: [{ req: (a) => body({ id: a.alarmId, read: 'yes' }), field: 'read' }],
  },
  {
    name: '/deviceAlarms/delete',
    perm: ALARMS,
    own: (a) => body({ ids: [a.alarmId] }),
    cross: (b) => body({ ids: [b.alarmId] }),
    bad: [{ req: () => body({ ids: ['x'] }), field: 'ids/0' }],
  },
  {
    name: '/deviceAlarms/saveAlarmAddress',
    perm: ALARMS,
    own: (a) => body({ id: a.alarmId, address: 'here' }),
    cross: (b) => body({ id: b.alarmId, address: 'pwned' }),
    bad: [{ req: (a) => body({ id: a.alarmId, address: '  ' }), field: 'address' }],
  },
  {
    name: '/deviceAlarms/export',
    perm: ALARMS,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    crossAnswer: 'empty',
    bad: [{ req: () => body({ startTime: 'yesterday' }), field: 'startTime' }],
  },
  {
    name: '/deviceAlarms/exportCount',
    perm: ALARMS,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    crossAnswer: 'empty',
    bad: [{ req: () => body({ startTime: 'yesterday' }), field: 'startTime' }],
  },
  {
    name: '/tire/find',
    perm: ['main:taiya'],
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [{ req: () => body({}), field: 'terminalID' }],
  },
  {
    name: '/battery',
    perm: MONITOR,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [{ req: () => body({ terminalID: 'a b' }), field: 'terminalID' }],
  },
  {
    name: 'GET /battery/findByTerminalID',
    method: 'GET',
    perm: MONITOR,
    own: (a) => ({ url: `/battery/findByTerminalID?terminalID=${a.imei}` }),
    cross: (b) => ({ url: `/battery/findByTerminalID?terminalID=${b.imei}` }),
    bad: [{ req: () => ({ url: '/battery/findByTerminalID' }), field: 'terminalID' }],
  },
  {
    name: '/tracker_cmd',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei, content: 'WHERE#' }),
    cross: (b) => body({ terminalID: b.imei, content: 'RELAY,1#' }),
    bad: [
      { req: (a) => body({ terminalID: a.imei }), field: 'content' },
      // spec §4 and §8: the device is offline, so nothing is sent and nothing is recorded.
      { req: (a) => body({ terminalID: a.imei, content: 'WHERE#' }), key: 'command.offlineNotAllowed' },
    ],
  },
  {
    name: '/command/add',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei, content: 'WHERE#' }),
    cross: (b) => body({ terminalID: b.imei, content: 'RELAY,1#' }),
    bad: [{ req: (a) => body({ terminalID: a.imei, content: '   ' }), field: 'content' }],
  },
  {
    name: '/command/addBatch',
    perm: ['main:command', 'main:command_batch'],
    own: (a) => body({ terminalIDs: [a.imei], content: 'WHERE#' }),
    cross: (b) => body({ terminalIDs: [b.imei], content: 'RELAY,1#' }),
    bad: [{ req: () => body({ terminalIDs: [], content: 'WHERE#' }), field: 'terminalIDs' }],
  },
  {
    name: '/command/addBatch (own and foreign together)',
    url: '/command/addBatch',
    perm: ['main:command', 'main:command_batch'],
    own: (a) => body({ terminalIDs: [a.imei], content: 'WHERE#' }),
    cross: (b) => body({ terminalIDs: ['A-IMEI', b.imei], content: 'RELAY,1#' }),
    bad: [],
  },
  {
    name: '/command/find',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [{ req: () => body({ terminalID: '12;DROP' }), field: 'terminalID' }],
  },
  {
    name: '/command/findLog',
    perm: COMMAND,
    own: (a) => body({ commandId: a.commandId }),
    cross: (b) => body({ commandId: b.commandId }),
    bad: [{ req: () => body({ pageNum: 1 }), field: 'body' }],
  },
  {
    name: '/command/findLog (by device)',
    url: '/command/findLog',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [],
  },
  {
    name: '/command/insertOffline',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei, content: 'WHERE#' }),
    cross: (b) => body({ terminalID: b.imei, content: 'RELAY,1#' }),
    bad: [{ req: () => body({}), field: 'body' }],
  },
  {
    name: '/command/insertOffline (a foreign command)',
    url: '/command/insertOffline',
    perm: COMMAND,
    own: (a) => body({ commandId: a.commandId }),
    cross: (b) => body({ commandId: b.commandId }),
    bad: [],
  },
  {
    name: '/command/cancelOffline',
    perm: COMMAND,
    own: (a) => body({ commandId: a.commandId }),
    cross: (b) => body({ commandId: b.commandId }),
    bad: [{ req: () => body({ commandId: 'x' }), field: 'commandId' }],
  },
  {
    name: '/command/findAndOffline',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [{ req: () => body({}), field: 'terminalID' }],
  },
  {
    name: '/order/save',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei, items: { interval: 30 } }),
    cross: (b) => body({ terminalID: b.imei, items: { interval: 1 } }),
    bad: [{ req: (a) => body({ terminalID: a.imei, items: { interval: { nested: 1 } } }), field: 'items/interval' }],
  },
  {
    name: '/order/find',
    perm: COMMAND,
    own: (a) => body({ terminalID: a.imei }),
    cross: (b) => body({ terminalID: b.imei }),
    bad: [{ req: () => body({ terminalID: '' }), field: 'terminalID' }],
  },
];

/** Everything these areas store; two equal snapshots mean a call changed nothing. */
async function snapshot(server: TestServer): Promise<string> {
  return snapshotTables(server, [
    'users',
    'devices',
    'device_state',
    'alarms',
    'commands',
    'command_log',
    'command_orders',
  ]);
}

describe('gateway API endpoints: permission denial, sibling-subtree denial and bad input, each with nothing changed', () => {
  let server: TestServer;
  let t: Tree;
  let A: Side;
  let B: Side;
  let agentA: ApiClient;
  const byRole = new Map<number, ApiClient>();

  async function seedSide(admin: ApiClient, userId: string, parentId: string, marker: string): Promise<Side> {
    const [imei] = await importDevices(admin, userId, [nextImei()]);
    await expectOk(admin.post('/device/update', { terminalID: imei, nickname: marker }));
    const dev = await server.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('terminal_id', '=', imei)
      .executeTakeFirstOrThrow();
    await server.ctx.db
      .insertInto('device_state')
      .values({
        device_id: dev.id,
        online: false,
        last_seen: new Date(T0),
        pos_time: new Date(T0),
        lat: 40,
        lon: 116.5,
        speed: 0,
        battery: 50,
        tyres: JSON.stringify([{ index: 0, pressure: 2.4, temperature: 30 }]),
        attributes: '{}',
      })
      .execute();
    await server.ctx.db
      .insertInto('positions')
      .values({
        device_id: dev.id,
        time: new Date(T0 + 60_000),
        lat: 40,
        lon: 116.5,
        speed: 10,
        course: 0,
        valid: true,
      })
      .execute();
    const alarm = await server.ctx.db
      .insertInto('alarms')
      .values({ device_id: dev.id, type: 1, time: new Date(T0), source: 'device', address: marker })
      .returning('id')
      .executeTakeFirstOrThrow();
    // An offline command queued by the administrator, and a stored command configuration.
    const cmd = await expectOk<{ id: string }>(
      admin.post('/command/insertOffline', { terminalID: imei, content: `${marker}#` }),
    );
    await expectOk(admin.post('/order/save', { terminalID: imei, items: { note: marker } }));
    return { userId, deviceId: String(dev.id), parentId, imei, alarmId: String(alarm.id), commandId: String(cmd.id) };
  }

  /** The placeholder A-IMEI stands for tenant A's device. */
  function resolve(req: Req): Req {
    if (req.body === undefined) return req;
    return { ...req, body: JSON.parse(JSON.stringify(req.body).replaceAll('"A-IMEI"', JSON.stringify(A.imei))) };
  }

  async function call(c: ApiClient, e: Endpoint, req: Req, lang: string) {
    const r = resolve(req);
    const res = await server.app.inject({
      method: e.method ?? 'POST',
      url: `/api${r.url ?? e.url ?? e.name}`,
      headers: { cookie: c.cookie, lang },
      ...(r.body === undefined ? {} : { payload: r.body as Record<string, unknown> }),
    });
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    const json = isJson ? res.json() : null;
    return { status: res.statusCode, meta: json?.meta, data: json?.data, text: res.body, raw: res.rawPayload };
  }

  beforeAll(async () => {
    server = await createTestServer({ commandTimeoutMs: 300 });
    t = await buildTree(server);
    A = await seedSide(t.admin, t.ids.userA1, t.ids.agentA, 'tenant-A');
    B = await seedSide(t.admin, t.ids.userB1, t.ids.agentB, MARK);
    agentA = await loginAs(server, 'agentA');
    byRole.set(ROLES.agent, agentA);
    byRole.set(ROLES.user, await loginAs(server, 'userA1'));
    for (const role of [ROLES.superUser, ROLES.superAgent, ROLES.log, ROLES.test]) {
      await createUser(t.admin, `gw-cov-${role}`, role, t.ids.agentA);
      byRole.set(role, await loginAs(server, `gw-cov-${role}`));
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('a role without the permission gets code 403 and the spec message in its language; nothing changes', async () => {
    let checked = 0;
    for (const [i, e] of ENDPOINTS.entries()) {
      const roles = [ROLES.superAgent, ROLES.log, ROLES.test].filter(
        (r) => !hasPermission([...permissionsFor(r, 'live')], e.perm),
      );
      expect(roles.length, `${e.name}: roles without ${e.perm}`).toBeGreaterThan(0);
      for (const [j, role] of roles.entries()) {
        const lang = LANGS[(i + j) % LANGS.length];
        const before = await snapshot(server);
        const res = await call(byRole.get(role)!, e, e.own(A), lang);
        expect({ endpoint: e.name, role, status: res.status, meta: res.meta }).toEqual({
          endpoint: e.name,
          role,
          status: 403,
          meta: { success: false, code: 403, message: translate('permission.denied', lang) },
        });
        expect(await snapshot(server), `${e.name} changed the database`).toBe(before);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(ENDPOINTS.length * 2);
  });

  it('the sibling subtree’s devices, alarms, commands and accounts are refused or not shown; nothing changes', async () => {
    const callers = [
      { label: 'agentA', client: agentA, target: B },
      { label: 'userA1', client: byRole.get(ROLES.user)!, target: B },
      { label: 'userB1', client: await loginAs(server, 'userB1'), target: A },
    ];
    let checked = 0;
    for (const c of callers) {
      const marker = c.target === B ? MARK : 'tenant-A';
      for (const [i, e] of ENDPOINTS.entries()) {
        const lang = LANGS[(i + 5) % LANGS.length];
        const before = await snapshot(server);
        const req = e.cross(c.target);
        const res = await call(c.client, e, c.target === A ? { ...req, body: req.body } : req, lang);
        if ((e.crossAnswer ?? 'denied') === 'denied') {
          expect({ caller: c.label, endpoint: e.name, status: res.status, meta: res.meta }).toEqual({
            caller: c.label,
            endpoint: e.name,
            status: 403,
            meta: { success: false, code: 403, message: translate('permission.denied', lang) },
          });
        } else {
          expect({ caller: c.label, endpoint: e.name, status: res.status }).toEqual({
            caller: c.label,
            endpoint: e.name,
            status: 200,
          });
          if (res.meta) expect(res.data.total).toBe(0);
          else expect(res.raw.includes(Buffer.from(c.target.imei))).toBe(false);
        }
        expect(res.text, `${c.label} ${e.name} showed the other tenant`).not.toContain(marker);
        expect(await snapshot(server), `${c.label} ${e.name} changed the database`).toBe(before);
        checked++;
      }
    }
    expect(checked).toBe(ENDPOINTS.length * 3);
  });

  it('bad input is refused with code 400 and a message in the caller language; nothing changes', async () => {
    let checked = 0;
    for (const [i, e] of ENDPOINTS.entries()) {
      for (const [j, bad] of e.bad.entries()) {
        const lang = LANGS[(i + j + 7) % LANGS.length];
        const before = await snapshot(server);
        const res = await call(agentA, e, bad.req(A), lang);
        expect({ endpoint: e.name, case: j, status: res.status, meta: res.meta }).toEqual({
          endpoint: e.name,
          case: j,
          status: 400,
          meta: { success: false, code: 400, message: expectedMessage(bad, lang) },
        });
        expect(await snapshot(server), `${e.name} bad input ${j} changed the database`).toBe(before);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('an answered or cancelled command is not queued again: the spec message, nothing changes', async () => {
    const queued = await expectOk<{ id: string }>(
      agentA.post('/command/insertOffline', { terminalID: A.imei, content: 'SOS#' }),
    );
    await expectOk(agentA.post('/command/cancelOffline', { commandId: queued.id }));
    for (const [url, lang] of [
      ['/command/cancelOffline', 'es'],
      ['/command/insertOffline', 'th'],
    ] as const) {
      const before = await snapshot(server);
      agentA.lang = lang;
      const res = await agentA.post(url, { commandId: queued.id });
      agentA.lang = 'en';
      expect({ url, status: res.status, meta: res.meta }).toEqual({
        url,
        status: 400,
        meta: { success: false, code: 400, message: translate('common.repeatOperation', lang) },
      });
      expect(await snapshot(server)).toBe(before);
    }
  });
});
