// The authorization matrix: every accounts endpoint called as every one of the 14 roles (permission check,
// against spec §6's role table from @carhere/domain) and as accounts of a sibling subtree aimed at the other
// tenant (hierarchy check): no cross-tenant read may show the other tenant's data, and no cross-tenant call may
// change anything in the database.
import { randomUUID } from 'node:crypto';
import { guardDecision, hasPermission, permissionsFor, ROLE_NAMES, ROLES } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { snapshotTables } from '../../testing/snapshot.ts';
import { buildTree, createUser, expectOk, importDevices, loginAs, nextImei, PASSWORD, type Tree } from './fixtures.ts';

interface Who {
  id: string;
  imei: string;
  /** Database id of the device `imei`. */
  deviceId: string;
}

interface Endpoint {
  name: string;
  method?: 'GET' | 'POST';
  /** Permissions of which one is needed; [] = any logged-in account. */
  perm: string[];
  /** A request aimed at the caller's own account or device. */
  own: (me: Who) => { url?: string; body?: unknown };
  /** A request aimed at the other tenant; null when the call has no target (own account only, global). */
  cross: ((other: Who & { parentId: string }) => { url?: string; body?: unknown }) | null;
}

const LIMITS = {
  devicesPerOperation: 1000,
  devicesPerExport: 50000,
  agentsPerExport: 20000,
  daysPerExport: 31,
  devicesPerImport: 20000,
};

const body = (b: unknown) => ({ body: b });

const ENDPOINTS: Endpoint[] = [
  { name: '/user/findById', perm: [], own: (m) => body({ id: m.id }), cross: (o) => body({ id: o.id }) },
  {
    name: '/user/findAllUser',
    perm: ['main:agent_add', 'main:agent_edit'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/user/findAllUserV2',
    perm: ['main:agent_add', 'main:agent_edit'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/user/findAllAgentByIdV2',
    perm: ['main:agent_add', 'main:agent_edit'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/user/findUsername',
    perm: ['main:agent_add'],
    own: () => body({ username: 'nobody-x' }),
    cross: null,
  },
  {
    name: '/user/findLike',
    perm: ['main:agent_add', 'main:agent_edit'],
    own: (m) => body({ selectName: 'a', id: m.id }),
    cross: (o) => body({ selectName: 'e', id: o.parentId }),
  },
  {
    name: '/user/getFamily',
    perm: ['main:agent_add', 'main:agent_edit'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
  },
  { name: '/user/roles', method: 'GET', perm: [], own: () => ({ url: '/user/roles' }), cross: null },
  { name: '/user/superior', method: 'GET', perm: [], own: () => ({ url: '/user/superior' }), cross: null },
  {
    name: '/user/insertUser',
    perm: ['main:agent_add'],
    own: (m) => body({ username: `m-${randomUUID().slice(0, 8)}`, password: PASSWORD, role: 3, parentId: m.id }),
    cross: (o) =>
      body({ username: `x-${randomUUID().slice(0, 8)}`, password: PASSWORD, role: 3, parentId: o.parentId }),
  },
  {
    name: '/user/updateUser',
    perm: ['main:agent_edit'],
    own: (m) => body({ id: m.id, mark: 'matrix' }),
    cross: (o) => body({ id: o.id, mark: 'pwned' }),
  },
  {
    name: '/user/transferAgent',
    perm: ['main:agent_transfer'],
    own: (m) => body({ id: m.id, user_id: m.id }),
    cross: (o) => body({ id: o.id, user_id: o.parentId }),
  },
  {
    name: '/user/deleteUser',
    perm: ['main:agent_delete'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
  },
  {
    name: '/user/deleteAllUser',
    perm: ['main:agent_delete'],
    own: (m) => body({ ids: [m.id] }),
    cross: (o) => body({ ids: [o.id] }),
  },
  {
    name: '/user/updateUserName',
    perm: ['main:agent_username'],
    own: (m) => body({ id: m.id, username: 'renamed-self' }),
    cross: (o) => body({ id: o.id, username: `x-${randomUUID().slice(0, 8)}` }),
  },
  {
    name: '/user/updateRole',
    perm: ['main:agent_edit'],
    own: (m) => body({ id: m.id, role: 3 }),
    cross: (o) => body({ id: o.id, role: 2 }),
  },
  {
    name: '/user/resetPassword',
    perm: ['main:agent_reset_password'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
  },
  {
    name: '/user/clear',
    perm: ['main:agent_reset_password'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
  },
  {
    name: '/user/checkUserPassword',
    perm: [],
    own: () => body({ oldPassword: 'wrong-one', password: 'Abcdef1', confirmPassword: 'Abcdef1' }),
    cross: null,
  },
  {
    name: '/user/checkPassword',
    method: 'GET',
    perm: [],
    own: (m) => ({ url: `/user/checkPassword?id=${m.id}` }),
    cross: (o) => ({ url: `/user/checkPassword?id=${o.id}` }),
  },
  {
    name: '/user/updatePwdByTerminalIds',
    perm: ['main:device_reset_password'],
    own: (m) => body({ terminalIds: [m.imei] }),
    cross: (o) => body({ terminalIds: [o.imei] }),
  },
  {
    name: '/user/updateDeviceUsername',
    perm: ['main:device_username'],
    own: (m) => body({ terminalID: m.imei, username: `d-${randomUUID().slice(0, 8)}` }),
    cross: (o) => body({ terminalID: o.imei, username: `x-${randomUUID().slice(0, 8)}` }),
  },
  {
    name: '/user/totp/reset',
    perm: ['main:agent_reset_password'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
  },
  {
    name: '/user/importUser',
    perm: ['main:agent_add'],
    own: (m) => body({ parentId: m.id, rows: [{ username: `i-${randomUUID().slice(0, 8)}` }], wait: true }),
    cross: (o) => body({ parentId: o.parentId, rows: [{ username: `x-${randomUUID().slice(0, 8)}` }] }),
  },
  {
    name: '/user/importJob',
    method: 'GET',
    perm: ['main:agent_add'],
    own: () => ({ url: `/user/importJob?id=${randomUUID()}` }),
    cross: null,
  },
  {
    name: '/user/userRelationimportNum',
    perm: ['main:agent_import_quota', 'main:devices_import'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/user/findImportNumRecord',
    perm: ['main:agent_import_quota', 'main:devices_import'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/user/addAgentImportNum',
    perm: ['main:agent_import_quota'],
    own: (m) => body({ id: m.id, num: 1 }),
    cross: (o) => body({ id: o.parentId, num: 1 }),
  },
  {
    name: '/agent/export',
    perm: ['main:agent_export', 'main:agent_add'],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
  },
  {
    name: '/device/findByUserId',
    perm: ['main:monitor', 'main:devices', 'main:devices_management'],
    own: (m) => body({ userId: m.id, withCounts: true }),
    cross: (o) => body({ userId: o.parentId, withCounts: true }),
  },
  {
    name: '/device/countByUserId',
    perm: ['main:monitor', 'main:devices', 'main:devices_management'],
    own: (m) => body({ userId: m.id }),
    cross: (o) => body({ userId: o.parentId }),
  },
  {
    name: '/device/findById',
    perm: ['main:monitor', 'main:devices', 'main:devices_management'],
    own: (m) => body({ terminalID: m.imei }),
    cross: (o) => body({ terminalID: o.imei }),
  },
  {
    name: '/device/findByImeis',
    perm: ['main:monitor', 'main:devices', 'main:devices_management'],
    own: (m) => body({ text: m.imei }),
    cross: (o) => body({ text: o.imei }),
  },
  { name: '/device/limits', method: 'GET', perm: [], own: () => ({ url: '/device/limits' }), cross: null },
  { name: '/device/limits', perm: ['main:system_config'], own: () => body(LIMITS), cross: null },
  {
    name: '/device/update',
    perm: ['main:device_edit'],
    own: (m) => body({ terminalID: m.imei, nickname: 'matrix' }),
    cross: (o) => body({ terminalID: o.imei, nickname: 'pwned' }),
  },
  {
    name: '/device/deletePicture',
    perm: ['main:device_edit'],
    own: (m) => body({ id: m.deviceId }),
    cross: (o) => body({ id: o.deviceId }),
  },
  {
    name: '/device/updateAll',
    perm: ['main:devices_bulk_info'],
    own: (m) => body({ terminalIDs: [m.imei], nickname: 'matrix' }),
    cross: (o) => body({ terminalIDs: [o.imei], nickname: 'pwned' }),
  },
  {
    name: '/device/updateIconType',
    perm: ['main:devices_icon_type'],
    own: (m) => body({ terminalIDs: [m.imei], value: 2 }),
    cross: (o) => body({ terminalIDs: [o.imei], value: 2 }),
  },
  {
    name: '/device/updateZone',
    perm: ['main:devices_bulk_zone'],
    own: (m) => body({ terminalIDs: [m.imei], value: 8 }),
    cross: (o) => body({ terminalIDs: [o.imei], value: 1 }),
  },
  {
    name: '/device/updateHost',
    perm: ['main:devices_bulk_host'],
    own: (m) => body({ terminalIDs: [m.imei], value: 'h.example' }),
    cross: (o) => body({ terminalIDs: [o.imei], value: 'evil.example' }),
  },
  {
    name: '/device/updateDevicesType',
    perm: ['main:devices_bulk_type'],
    own: (m) => body({ terminalIDs: [m.imei], value: 12 }),
    cross: (o) => body({ terminalIDs: [o.imei], value: 1 }),
  },
  {
    name: '/device/transfer',
    perm: ['main:device_transfer', 'main:devices_bulk_transfer'],
    own: (m) => body({ terminalIDs: [m.imei], userId: m.id }),
    cross: (o) => body({ terminalIDs: [o.imei], userId: o.parentId }),
  },
  {
    name: '/device/userSale',
    perm: ['main:device_transfer', 'main:devices_bulk_transfer'],
    own: (m) => body({ terminalIDs: [m.imei], asDeviceAccounts: true }),
    cross: (o) => body({ terminalIDs: [o.imei], asDeviceAccounts: true }),
  },
  {
    name: '/device/reset',
    perm: ['main:devices_reset'],
    own: (m) => body({ terminalIDs: [m.imei] }),
    cross: (o) => body({ terminalIDs: [o.imei] }),
  },
  {
    name: '/device/updateTime',
    perm: ['main:devices_bulk_expire', 'main:devices_expire_type'],
    own: (m) => body({ terminalIDs: [m.imei], userExpireAt: '2040-01-01T00:00:00Z' }),
    cross: (o) => body({ terminalIDs: [o.imei], platformExpireAt: null }),
  },
  {
    name: '/device/updateTimeByImei',
    perm: ['main:devices_bulk_expire', 'main:devices_expire_type'],
    own: (m) => body({ text: m.imei, userExpireAt: '2040-01-01T00:00:00Z' }),
    cross: (o) => body({ text: o.imei, platformExpireAt: null }),
  },
  {
    name: '/device/updateExpireType',
    perm: ['main:devices_bulk_expire', 'main:devices_expire_type'],
    own: (m) => body({ terminalIDs: [m.imei], serviceTerm: 1 }),
    cross: (o) => body({ terminalIDs: [o.imei], serviceTerm: 3 }),
  },
  {
    name: '/device/resetExpire',
    perm: ['main:devices_bulk_expire', 'main:devices_expire_type'],
    own: (m) => body({ terminalIDs: [m.imei] }),
    cross: (o) => body({ terminalIDs: [o.imei] }),
  },
  {
    name: '/location/findArea',
    perm: ['main:monitor', 'main:check_car'],
    own: () => body({ minLat: 39, maxLat: 41, minLon: 115, maxLon: 117 }),
    cross: () => body({ minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }),
  },
  {
    name: '/device/import',
    perm: ['main:devices_import'],
    own: (m) => body({ userId: m.id, text: nextImei('35'), protocol: 2, deviceType: 12, wait: true }),
    cross: (o) => body({ userId: o.parentId, text: nextImei('35'), protocol: 2, deviceType: 12 }),
  },
  {
    name: '/device/importJob',
    method: 'GET',
    perm: ['main:devices_import'],
    own: () => ({ url: `/device/importJob?id=${randomUUID()}` }),
    cross: null,
  },
];

/** Texts only the other tenant's rows hold; a read that shows any of them leaks across tenants. */
const MARKERS = { A: 'MARK-A-7f3e', B: 'MARK-B-91c2' };

async function call(server: TestServer, c: ApiClient, e: Endpoint, req: { url?: string; body?: unknown }) {
  const res = await server.app.inject({
    method: e.method ?? 'POST',
    url: `/api${req.url ?? e.name}`,
    headers: { cookie: c.cookie, lang: 'en' },
    ...(req.body === undefined ? {} : { payload: req.body as Record<string, unknown> }),
  });
  return { status: res.statusCode, text: res.body };
}

/** Everything the accounts area stores, to prove a series of calls changed nothing. */
async function snapshot(server: TestServer): Promise<string> {
  return snapshotTables(server, [
    'users',
    'devices',
    'device_state',
    'import_quota_records',
    'device_ownership_log',
    'import_jobs',
    'alarms',
  ]);
}

describe('authorization matrix: 14 roles × every accounts endpoint, and sibling subtrees', () => {
  let server: TestServer;
  let t: Tree;
  const accounts = new Map<number, { client: ApiClient; who: Who }>();
  let tenantB: Who & { parentId: string };
  let tenantA: Who & { parentId: string };
  let agentBClient: ApiClient;
  let userB1Client: ApiClient;
  let userA1Client: ApiClient;

  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    const admin = t.admin;
    // Tenant markers on accounts and devices of each side.
    for (const [id, mark] of [
      [t.ids.agentA, MARKERS.A],
      [t.ids.userA1, MARKERS.A],
      [t.ids.agentB, MARKERS.B],
      [t.ids.userB1, MARKERS.B],
    ] as const) {
      await expectOk(admin.post('/user/updateUser', { id, nickname: mark, address: mark, telephone: '13800000000' }));
    }
    const [aImei] = await importDevices(admin, t.ids.userA1, [nextImei()]);
    const [bImei] = await importDevices(admin, t.ids.userB1, [nextImei()]);
    await expectOk(admin.post('/device/update', { terminalID: aImei, nickname: MARKERS.A }));
    await expectOk(admin.post('/device/update', { terminalID: bImei, nickname: MARKERS.B }));
    const deviceId = async (imei: string) =>
      (await server.ctx.db.selectFrom('devices').select('id').where('terminal_id', '=', imei).executeTakeFirstOrThrow())
        .id;
    tenantA = { id: t.ids.userA1, imei: aImei, deviceId: await deviceId(aImei), parentId: t.ids.agentA };
    tenantB = { id: t.ids.userB1, imei: bImei, deviceId: await deviceId(bImei), parentId: t.ids.agentB };

    // One account per role inside tenant A (the real admin for role 1, agentA for role 2), each owning a device
    // when its role may own devices.
    for (const name of ROLE_NAMES) {
      const role = ROLES[name];
      let id: string;
      let client: ApiClient;
      if (role === ROLES.admin) {
        id = '1';
        client = admin;
      } else if (role === ROLES.agent) {
        id = t.ids.agentA;
        client = await loginAs(server, 'agentA');
      } else {
        id = await createUser(admin, `role-${name}`, role, t.ids.agentA);
        client = await loginAs(server, `role-${name}`);
      }
      let imei = aImei;
      if ([ROLES.admin, ROLES.agent, ROLES.user, ROLES.superUser, ROLES.superAgent].includes(role as never)) {
        [imei] = await importDevices(admin, id, [nextImei()]);
      }
      accounts.set(role, { client, who: { id, imei, deviceId: await deviceId(imei) } });
    }
    agentBClient = await loginAs(server, 'agentB');
    userB1Client = await loginAs(server, 'userB1');
    userA1Client = await loginAs(server, 'userA1');
  });
  afterAll(async () => {
    await server.close();
  });

  it('covers all 14 roles', () => {
    expect(accounts.size).toBe(14);
  });

  it('each role reaches exactly the endpoints its permissions open (environment live)', async () => {
    const mismatches: string[] = [];
    const table: string[] = [];
    for (const [role, { client, who }] of [...accounts.entries()].sort((a, b) => a[0] - b[0])) {
      const held = [...permissionsFor(role, 'live')];
      let allowedCount = 0;
      for (const e of ENDPOINTS) {
        const expectAllowed = e.perm.length === 0 || hasPermission(held, e.perm);
        const res = await call(server, client, e, e.own(who));
        const denied = res.status === 403;
        if (expectAllowed === denied)
          mismatches.push(
            `role ${role} ${e.method ?? 'POST'} ${e.name}: status ${res.status} ${res.text.slice(0, 120)}`,
          );
        if (!denied) allowedCount++;
        if (res.status >= 500) mismatches.push(`role ${role} ${e.name}: server error ${res.text.slice(0, 120)}`);
      }
      table.push(`role ${String(role).padStart(2)}: ${allowedCount}/${ENDPOINTS.length} endpoints open`);
    }
    console.log(`authorization matrix (own subtree):\n${table.join('\n')}`);
    expect(mismatches).toEqual([]);
  });

  it("riskPoint, checkCar and bus (spec §6) are the admin's only, in both environments, by default", async () => {
    const ADMIN_ONLY: Record<string, string[]> = {
      'main:risk_point': ['/index/riskPoint'],
      'main:check_car': ['/index/checkCar/area', '/index/checkCar/point'],
      'main:bus': ['/index/bus/busLineList'],
    };
    const wrong: string[] = [];
    for (const [role, { client }] of accounts) {
      const session = await expectOk<{ permissions: string[]; userInfo: { role: number } }>(client.get('/session'));
      expect(session.userInfo.role).toBe(role);
      for (const [perm, paths] of Object.entries(ADMIN_ONLY)) {
        const expected = role === ROLES.admin;
        for (const env of ['live', 'test'] as const)
          if (hasPermission(permissionsFor(role, env), [perm]) !== expected) wrong.push(`role ${role} ${env} ${perm}`);
        if (hasPermission(session.permissions, [perm]) !== expected) wrong.push(`role ${role} session ${perm}`);
        for (const path of paths) {
          const decision = guardDecision({ path, user: { role }, permissions: session.permissions });
          if ((decision === 'allow') !== expected) wrong.push(`role ${role} ${path}: ${decision}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no role and no sibling-subtree account reads or writes the other tenant', async () => {
    const callers: { label: string; client: ApiClient; target: Who & { parentId: string } }[] = [
      ...[...accounts.entries()]
        .filter(([role]) => role !== ROLES.admin)
        .map(([role, a]) => ({ label: `role ${role} (tenant A)`, client: a.client, target: tenantB })),
      { label: 'agentB (sibling subtree)', client: agentBClient, target: tenantA },
      { label: 'userB1 (sibling subtree)', client: userB1Client, target: tenantA },
      { label: 'userA1 (sibling subtree)', client: userA1Client, target: tenantB },
    ];
    const before = await snapshot(server);
    const leaks: string[] = [];
    let calls = 0;
    let denied = 0;
    for (const c of callers) {
      const foreignMarker = c.target === tenantB ? MARKERS.B : MARKERS.A;
      for (const e of ENDPOINTS) {
        if (!e.cross) continue;
        const res = await call(server, c.client, e, e.cross(c.target));
        calls++;
        if (res.status === 403) denied++;
        if (res.text.includes(foreignMarker)) leaks.push(`${c.label} ${e.name}: read the other tenant (${res.status})`);
        if (res.status === 200 && /"success":[1-9]/.test(res.text))
          leaks.push(`${c.label} ${e.name}: changed a foreign device`);
        if (res.status >= 500) leaks.push(`${c.label} ${e.name}: server error`);
      }
    }
    const after = await snapshot(server);
    console.log(`cross-tenant calls: ${calls}, answered 403: ${denied}, others answered without touching foreign rows`);
    expect(leaks).toEqual([]);
    expect(after).toBe(before);
  });

  it('the environment is configuration: an agent may initialise (reset) devices only in the live environment', async () => {
    const testEnv = await createTestServer({ appEnv: 'test' });
    try {
      const tree = await buildTree(testEnv);
      const [imei] = await importDevices(tree.admin, tree.ids.agentA, [nextImei()]);
      const agent = await loginAs(testEnv, 'agentA');
      expect((await agent.post('/device/reset', { terminalIDs: [imei] })).status).toBe(403);
      const live = accounts.get(ROLES.agent)!;
      const ok = await live.client.post('/device/reset', { terminalIDs: [live.who.imei] });
      expect(ok.status).toBe(200);
    } finally {
      await testEnv.close();
    }
  });
});
