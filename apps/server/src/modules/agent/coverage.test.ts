// Endpoint coverage for the accounts area (issue 6): for every endpoint, (b) a role without the permission is
// refused with code 403 and the spec's message in the caller's language, and a target in a sibling subtree is
// refused the same way (or, for batch calls, listed as failed) — with the database unchanged in both cases;
// (c) bad input is refused with code 400 and a message in the caller's language (the spec's message where the
// spec has one), again with the database unchanged. Happy paths live in the per-module tests (see
// apps/server/ENDPOINT-COVERAGE.md). The languages rotate over all 11 of spec §1.
import { randomUUID } from 'node:crypto';
import { hasPermission, permissionsFor, ROLES, translate } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMessage } from '../../http/messages.ts';
import { expectedMessage } from '../../testing/expectations.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { snapshotTables } from '../../testing/snapshot.ts';
import { buildTree, createUser, expectOk, importDevices, loginAs, nextImei, PASSWORD, type Tree } from './fixtures.ts';
import { type NEEDS, needs } from './permissions.ts';

const LANGS = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'];

interface Who {
  id: string;
  imei: string;
  deviceId: string;
}
type Req = { url?: string; body?: unknown };
/** How a call aimed at the sibling tenant must be answered. */
type CrossAnswer =
  | 'denied' // 403, code 403, the spec's no-permission message
  | 'batchFailed' // 200, nothing done, every IMEI listed as failed
  | { check: (data: unknown, lang: string) => void }; // 200 with a body that must show nothing foreign
interface BadInput {
  req: (me: Who) => Req;
  /** A field the 400 names, or a message key (domain catalogue / server texts) the answer must carry. */
  field?: string;
  key?: string;
  params?: Record<string, string | number>;
  status?: number;
}
interface Endpoint {
  name: string;
  /** The path when `name` carries a description. */
  url?: string;
  method?: 'GET' | 'POST';
  perm: string[];
  /** A well-formed request aimed at the caller itself. */
  own: (me: Who) => Req;
  /** A request aimed at the sibling tenant; null when the call has no target. */
  cross: ((o: Who & { parentId: string }) => Req) | null;
  crossAnswer?: CrossAnswer;
  /** The caller for the cross-tenant call (default agentA, which holds every agent permission). */
  crossCaller?: 'agentA' | 'userA1';
  bad: BadInput[];
}

const body = (b: unknown): Req => ({ body: b });
const LIMITS = {
  devicesPerOperation: 1000,
  devicesPerExport: 50000,
  agentsPerExport: 20000,
  daysPerExport: 31,
  devicesPerImport: 20000,
};
const noForeign = (data: unknown) => {
  expect(JSON.stringify(data)).not.toContain('MARK-B');
};

const ENDPOINTS: Endpoint[] = [
  {
    name: '/user/findById',
    perm: [],
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    crossCaller: 'userA1',
    bad: [{ req: () => body({ id: -1 }), field: 'id' }],
  },
  {
    name: '/user/findAllUser',
    perm: needs('accountsView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({}), field: 'id' }],
  },
  {
    name: '/user/findAllUserV2',
    perm: needs('accountsView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({ id: 'abc' }), field: 'id' }],
  },
  {
    name: '/user/findAllAgentByIdV2',
    perm: needs('accountsView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({ id: 'abc' }), field: 'id' }],
  },
  {
    name: '/user/findUsername',
    perm: needs('agentAdd'),
    own: () => body({ username: 'nobody-x' }),
    cross: null,
    bad: [{ req: () => body({ username: '' }), field: 'username' }],
  },
  {
    name: '/user/findLike',
    perm: needs('accountsView'),
    own: (m) => body({ selectName: 'a', id: m.id }),
    cross: (o) => body({ selectName: 'user', id: o.parentId }),
    bad: [{ req: () => body({ selectName: '' }), field: 'selectName' }],
  },
  {
    name: '/user/getFamily',
    perm: needs('accountsView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    bad: [{ req: () => body({ id: 'abc' }), field: 'id' }],
  },
  {
    name: '/user/insertUser',
    perm: needs('agentAdd'),
    own: (m) => body({ username: `m-${randomUUID().slice(0, 8)}`, password: PASSWORD, role: 3, parentId: m.id }),
    cross: (o) =>
      body({ username: `x-${randomUUID().slice(0, 8)}`, password: PASSWORD, role: 3, parentId: o.parentId }),
    bad: [
      { req: () => body({ username: 'kid6', password: PASSWORD, role: 99 }), field: 'role' },
      {
        req: () => body({ username: 'kid7', password: PASSWORD, role: 3, telephone: '123' }),
        key: 'validation.telephone',
      },
      { req: () => body({ username: 'AgentB', password: PASSWORD, role: 3 }), key: 'account.usernameTaken' },
      { req: () => body({ username: 'has space', password: PASSWORD, role: 3 }), key: 'account.usernameInvalid' },
      {
        req: () => body({ username: 'kid8', password: PASSWORD, confirmPassword: 'other1', role: 3 }),
        key: 'account.passwordMismatch',
      },
      {
        req: () => body({ username: 'kid9', password: PASSWORD, role: 3, parentId: 'USERA1' }),
        key: 'account.noSubUsers',
      },
    ],
  },
  {
    name: '/user/updateUser',
    perm: needs('agentEdit'),
    own: (m) => body({ id: m.id, mark: 'coverage' }),
    cross: (o) => body({ id: o.id, mark: 'pwned' }),
    bad: [
      { req: (m) => body({ id: m.id, expireAt: 'not a date' }), field: 'expireAt' },
      { req: (m) => body({ id: m.id, telephone: '12' }), key: 'validation.telephone' },
      { req: (m) => body({ id: m.id, email: 'not-an-address' }), key: 'validation.email' },
    ],
  },
  {
    name: '/user/transferAgent',
    perm: needs('agentTransfer'),
    own: (m) => body({ id: m.id, user_id: m.id }),
    cross: (o) => body({ id: o.id, user_id: o.parentId }),
    bad: [
      { req: (m) => body({ id: m.id }), field: 'user_id' },
      { req: () => body({ id: 'SUBA', user_id: 'SUBSUBA' }), key: 'account.moveUnderSubordinate' },
    ],
  },
  {
    name: '/user/deleteUser',
    perm: needs('agentDelete'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    bad: [
      { req: () => body({ id: 'x' }), field: 'id' },
      { req: () => body({ id: 'SUBA' }), key: 'account.hasSubAgents' },
      { req: () => body({ id: 'USERA1' }), key: 'account.hasDevices' },
    ],
  },
  {
    name: '/user/deleteAllUser',
    perm: needs('agentDelete'),
    own: (m) => body({ ids: [m.id] }),
    cross: (o) => body({ ids: [o.id] }),
    crossAnswer: {
      check: (data, lang) => {
        const d = data as { deleted: string[]; refused: { message: string }[] };
        expect(d.deleted).toEqual([]);
        expect(d.refused.map((r) => r.message)).toEqual([translate('permission.denied', lang)]);
      },
    },
    bad: [{ req: () => body({ ids: [] }), field: 'ids' }],
  },
  {
    name: '/user/updateUserName',
    perm: needs('agentUsername'),
    own: (m) => body({ id: m.id, username: `self-${randomUUID().slice(0, 6)}` }),
    cross: (o) => body({ id: o.id, username: `x-${randomUUID().slice(0, 8)}` }),
    bad: [
      { req: (m) => body({ id: m.id }), field: 'username' },
      { req: () => body({ id: 'USERA1', username: ' ' }), key: 'account.usernameInvalid' },
      { req: () => body({ id: 'USERA1', username: 'AGENTB' }), key: 'account.usernameTaken' },
    ],
  },
  {
    name: '/user/updateRole',
    perm: needs('agentEdit'),
    own: (m) => body({ id: m.id, role: 3 }),
    cross: (o) => body({ id: o.id, role: 2 }),
    bad: [
      { req: (m) => body({ id: m.id, role: 'agent' }), field: 'role' },
      { req: () => body({ id: 'USERA1', role: 5 }), key: 'account.roleNotAssignable' },
    ],
  },
  {
    name: '/user/resetPassword',
    perm: needs('agentResetPassword'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    bad: [{ req: () => body({}), field: 'id' }],
  },
  {
    name: '/user/clear',
    perm: needs('agentResetPassword'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/user/checkUserPassword',
    perm: [],
    own: () => body({ oldPassword: 'wrong-one', password: 'Abcdef1', confirmPassword: 'Abcdef1' }),
    cross: null,
    bad: [
      { req: () => body({ oldPassword: PASSWORD }), field: 'password' },
      {
        req: () => body({ oldPassword: PASSWORD, password: 'NewPass1', confirmPassword: 'NewPass2' }),
        key: 'account.passwordMismatch',
      },
      {
        req: () => body({ oldPassword: 'nope', password: 'NewPass1', confirmPassword: 'NewPass1' }),
        key: 'account.oldPasswordWrong',
      },
    ],
  },
  {
    name: '/user/checkPassword',
    method: 'GET',
    perm: [],
    own: (m) => ({ url: `/user/checkPassword?id=${m.id}` }),
    cross: (o) => ({ url: `/user/checkPassword?id=${o.id}` }),
    crossCaller: 'userA1',
    bad: [{ req: () => ({ url: '/user/checkPassword?id=abc' }), field: 'id' }],
  },
  {
    name: '/user/updatePwdByTerminalIds',
    perm: needs('deviceAccountPassword'),
    own: (m) => body({ terminalIds: [m.imei] }),
    cross: (o) => body({ terminalIds: [o.imei] }),
    crossAnswer: {
      check: (data) => {
        expect((data as { updated: string[] }).updated).toEqual([]);
      },
    },
    bad: [{ req: () => body({ terminalIds: [] }), field: 'terminalIds' }],
  },
  {
    name: '/user/updateDeviceUsername',
    perm: needs('deviceAccountUsername'),
    own: (m) => body({ terminalID: m.imei, username: `d-${randomUUID().slice(0, 8)}` }),
    cross: (o) => body({ terminalID: o.imei, username: `x-${randomUUID().slice(0, 8)}` }),
    bad: [
      { req: (m) => body({ terminalID: m.imei }), field: 'username' },
      { req: () => body({ terminalID: '', username: 'abc' }), field: 'terminalID' },
    ],
  },
  {
    name: '/user/totp/reset',
    perm: needs('agentResetPassword'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.id }),
    bad: [{ req: () => body({ id: 'abc' }), field: 'id' }],
  },
  {
    name: '/user/importUser',
    perm: needs('agentAdd'),
    own: (m) => body({ parentId: m.id, rows: [{ username: `i-${randomUUID().slice(0, 8)}` }], wait: true }),
    cross: (o) => body({ parentId: o.parentId, rows: [{ username: `x-${randomUUID().slice(0, 8)}` }] }),
    bad: [
      { req: () => body({ rows: [] }), field: 'rows' },
      { req: () => body({ rows: [{ nickname: 'no name' }] }), field: 'rows/0/username' },
    ],
  },
  {
    name: '/user/importJob',
    method: 'GET',
    perm: needs('agentAdd'),
    own: () => ({ url: `/user/importJob?id=${randomUUID()}` }),
    cross: null,
    bad: [{ req: () => ({ url: '/user/importJob?id=not-a-uuid' }), field: 'id' }],
  },
  {
    name: '/user/userRelationimportNum',
    perm: needs('importQuotaView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/user/findImportNumRecord',
    perm: needs('importQuotaView'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/user/addAgentImportNum',
    perm: needs('importQuota'),
    own: (m) => body({ id: m.id, num: 1 }),
    cross: (o) => body({ id: o.parentId, num: 1 }),
    bad: [
      { req: () => body({ id: 'SUBA', num: 1.5 }), field: 'num' },
      { req: () => body({ id: 'SUBA', num: 1_000_000 }), key: 'quota.remainingInsufficient' },
    ],
  },
  {
    name: '/agent/export',
    perm: needs('agentExport'),
    own: (m) => body({ id: m.id }),
    cross: (o) => body({ id: o.parentId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/device/findByUserId',
    perm: needs('devicesView'),
    own: (m) => body({ userId: m.id, withCounts: true }),
    cross: (o) => body({ userId: o.parentId, withCounts: true }),
    bad: [
      { req: () => body({ tab: 'parked' }), field: 'tab' },
      { req: () => body({ pageSize: 0 }), field: 'pageSize' },
    ],
  },
  {
    name: '/device/countByUserId',
    perm: needs('devicesView'),
    own: (m) => body({ userId: m.id }),
    cross: (o) => body({ userId: o.parentId }),
    bad: [{ req: () => body({ userId: 'x' }), field: 'userId' }],
  },
  {
    name: '/device/findById',
    perm: needs('devicesView'),
    own: (m) => body({ terminalID: m.imei }),
    cross: (o) => body({ terminalID: o.imei }),
    bad: [{ req: () => body({}), field: 'body' }],
  },
  {
    name: '/device/findById (by database id)',
    url: '/device/findById',
    perm: needs('devicesView'),
    own: (m) => body({ id: m.deviceId }),
    cross: (o) => body({ id: o.deviceId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/device/update (by database id)',
    url: '/device/update',
    perm: needs('deviceEdit'),
    own: (m) => body({ id: m.deviceId, nickname: 'coverage' }),
    cross: (o) => body({ id: o.deviceId, nickname: 'pwned' }),
    bad: [],
  },
  {
    name: '/device/findByImeis',
    perm: needs('devicesView'),
    own: (m) => body({ text: m.imei }),
    cross: (o) => body({ text: o.imei }),
    crossAnswer: { check: noForeign },
    bad: [{ req: () => body({}), field: 'text' }],
  },
  {
    name: '/device/limits',
    perm: needs('systemConfig'),
    own: () => body(LIMITS),
    cross: null,
    bad: [{ req: () => body({ ...LIMITS, devicesPerOperation: -1 }), field: 'devicesPerOperation' }],
  },
  {
    name: '/device/update',
    perm: needs('deviceEdit'),
    own: (m) => body({ terminalID: m.imei, nickname: 'coverage' }),
    cross: (o) => body({ terminalID: o.imei, nickname: 'pwned' }),
    bad: [
      { req: (m) => body({ terminalID: m.imei, timeZone: 13 }), field: 'timeZone' },
      { req: (m) => body({ terminalID: m.imei, sim: '12345' }), key: 'validation.sim' },
      { req: (m) => body({ terminalID: m.imei, carNumber: 'ABC' }), key: 'validation.carNumber' },
      { req: (m) => body({ terminalID: m.imei, iconType: 13 }), key: 'device.invalidIconType' },
    ],
  },
  {
    name: '/device/deletePicture',
    perm: needs('deviceEdit'),
    own: (m) => body({ id: m.deviceId }),
    cross: (o) => body({ id: o.deviceId }),
    bad: [{ req: () => body({ id: 'x' }), field: 'id' }],
  },
  {
    name: '/device/updateAll',
    perm: needs('devicesBulkInfo'),
    own: (m) => body({ terminalIDs: [m.imei], nickname: 'coverage' }),
    cross: (o) => body({ terminalIDs: [o.imei], nickname: 'pwned' }),
    crossAnswer: 'batchFailed',
    bad: [
      { req: (m) => body({ terminalIDs: [m.imei], sim: 'x' }), key: 'validation.sim' },
      { req: (m) => body({ terminalIDs: [m.imei] }), key: 'common.selectFirst' },
      { req: () => body({ terminalIDs: [], nickname: 'x' }), field: 'terminalIDs' },
    ],
  },
  {
    name: '/device/updateIconType',
    perm: needs('devicesIcon'),
    own: (m) => body({ terminalIDs: [m.imei], value: 2 }),
    cross: (o) => body({ terminalIDs: [o.imei], value: 2 }),
    crossAnswer: 'batchFailed',
    bad: [{ req: (m) => body({ terminalIDs: [m.imei], value: 0 }), key: 'device.invalidIconType' }],
  },
  {
    name: '/device/transfer',
    perm: needs('deviceTransfer'),
    own: (m) => body({ terminalIDs: [m.imei], userId: m.id }),
    cross: (o) => body({ terminalIDs: [o.imei], userId: o.parentId }),
    bad: [{ req: (m) => body({ terminalIDs: [m.imei] }), field: 'userId' }],
  },
  {
    name: '/device/transfer (foreign device, own target)',
    url: '/device/transfer',
    perm: needs('deviceTransfer'),
    own: (m) => body({ terminalIDs: [m.imei], userId: m.id }),
    cross: (o) => body({ terminalIDs: [o.imei], userId: 'USERA1' }),
    crossAnswer: 'batchFailed',
    bad: [],
  },
  {
    name: '/device/userSale',
    perm: needs('deviceTransfer'),
    own: (m) => body({ terminalIDs: [m.imei], asDeviceAccounts: true }),
    cross: (o) => body({ terminalIDs: [o.imei], asDeviceAccounts: true }),
    crossAnswer: 'batchFailed',
    bad: [{ req: (m) => body({ terminalIDs: [m.imei] }), field: 'body' }],
  },
  {
    name: '/device/userSale (own device, foreign buyer)',
    url: '/device/userSale',
    perm: needs('deviceTransfer'),
    own: (m) => body({ terminalIDs: [m.imei], asDeviceAccounts: true }),
    cross: (o) => body({ terminalIDs: ['A-IMEI'], userId: o.id }),
    bad: [],
  },
  {
    name: '/device/reset',
    perm: needs('devicesReset'),
    own: (m) => body({ terminalIDs: [m.imei] }),
    cross: (o) => body({ terminalIDs: [o.imei] }),
    crossAnswer: 'batchFailed',
    bad: [{ req: () => body({}), field: 'terminalIDs' }],
  },
  {
    name: '/device/updateTime',
    perm: needs('devicesExpire'),
    own: (m) => body({ terminalIDs: [m.imei], userExpireAt: '2040-01-01T00:00:00Z' }),
    cross: (o) => body({ terminalIDs: [o.imei], platformExpireAt: null }),
    crossAnswer: 'batchFailed',
    bad: [{ req: (m) => body({ terminalIDs: [m.imei], platformExpireAt: 'soon' }), field: 'platformExpireAt' }],
  },
  {
    name: '/device/updateTimeByImei',
    perm: needs('devicesExpire'),
    own: (m) => body({ text: m.imei, userExpireAt: '2040-01-01T00:00:00Z' }),
    cross: (o) => body({ text: o.imei, platformExpireAt: null }),
    crossAnswer: 'batchFailed',
    bad: [{ req: (m) => body({ text: m.imei, userExpireAt: 'soon' }), field: 'userExpireAt' }],
  },
  {
    name: '/device/updateExpireType',
    perm: needs('devicesExpire'),
    own: (m) => body({ terminalIDs: [m.imei], serviceTerm: 1 }),
    cross: (o) => body({ terminalIDs: [o.imei], serviceTerm: 3 }),
    crossAnswer: 'batchFailed',
    bad: [{ req: (m) => body({ terminalIDs: [m.imei], serviceTerm: 9 }), key: 'device.invalidServiceTerm' }],
  },
  {
    name: '/device/resetExpire',
    perm: needs('devicesExpire'),
    own: (m) => body({ terminalIDs: [m.imei] }),
    cross: (o) => body({ terminalIDs: [o.imei] }),
    crossAnswer: 'batchFailed',
    bad: [{ req: () => body({ terminalIDs: [] }), field: 'terminalIDs' }],
  },
  {
    name: '/device/import',
    perm: needs('devicesImport'),
    own: (m) => body({ userId: m.id, text: nextImei('35'), protocol: 2, deviceType: 12, wait: true }),
    cross: (o) => body({ userId: o.parentId, text: nextImei('35'), protocol: 2, deviceType: 12 }),
    bad: [
      { req: () => body({ text: nextImei('35'), protocol: 9, deviceType: 12 }), field: 'protocol' },
      {
        req: () => body({ text: nextImei('35'), protocol: 2, deviceType: 12, serviceTerm: 99 }),
        key: 'device.invalidServiceTerm',
      },
    ],
  },
  {
    name: '/device/importJob',
    method: 'GET',
    perm: needs('devicesImport'),
    own: () => ({ url: `/device/importJob?id=${randomUUID()}` }),
    cross: null,
    bad: [{ req: () => ({ url: '/device/importJob?id=not-a-uuid' }), field: 'id' }],
  },
];

/** Everything the accounts area stores; two equal snapshots mean a call changed nothing. */
async function snapshot(server: TestServer): Promise<string> {
  return snapshotTables(server, [
    'users',
    'devices',
    'device_state',
    'import_quota_records',
    'device_ownership_log',
    'import_jobs',
    'alarms',
    'settings',
  ]);
}

describe('accounts endpoints: permission denial, sibling-subtree denial and bad input, each with nothing changed', () => {
  let server: TestServer;
  let t: Tree;
  let tenantB: Who & { parentId: string };
  let agentA: ApiClient;
  let userA1: ApiClient;
  let aImei: string;
  /** Accounts of tenant A by role, for the permission checks: user, superUser, superAgent, log, agent. */
  const byRole = new Map<number, { client: ApiClient; who: Who }>();
  const names: Record<string, string> = {};

  async function deviceId(imei: string): Promise<string> {
    const row = await server.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('terminal_id', '=', imei)
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  /** Replaces the placeholders SUBA, SUBSUBA, USERA1, USERA2 and A-IMEI with the fixture's ids. */
  function resolve(req: Req): Req {
    if (req.body === undefined) return req;
    const text = JSON.stringify(req.body).replace(/"(SUBA|SUBSUBA|USERA1|USERA2|A-IMEI)"/g, (_, k: string) =>
      JSON.stringify(names[k]),
    );
    return { ...req, body: JSON.parse(text) };
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
    return { status: res.statusCode, meta: json?.meta, data: json?.data, text: res.body };
  }

  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    const admin = t.admin;
    for (const id of [t.ids.agentB, t.ids.userB1]) {
      await expectOk(admin.post('/user/updateUser', { id, nickname: 'MARK-B', address: 'MARK-B' }));
    }
    [aImei] = await importDevices(admin, t.ids.userA1, [nextImei()]);
    const [bImei] = await importDevices(admin, t.ids.userB1, [nextImei()]);
    await expectOk(admin.post('/device/update', { terminalID: bImei, nickname: 'MARK-B' }));
    tenantB = { id: t.ids.userB1, imei: bImei, deviceId: await deviceId(bImei), parentId: t.ids.agentB };
    await expectOk(admin.post('/user/addAgentImportNum', { id: t.ids.agentA, num: 5 }));
    agentA = await loginAs(server, 'agentA');
    userA1 = await loginAs(server, 'userA1');
    const subSubA = await createUser(admin, 'subSubA', ROLES.agent, t.ids.subA);
    Object.assign(names, {
      SUBA: t.ids.subA,
      SUBSUBA: subSubA,
      USERA1: t.ids.userA1,
      USERA2: t.ids.userA2,
      'A-IMEI': aImei,
    });
    byRole.set(ROLES.agent, {
      client: agentA,
      who: { id: t.ids.agentA, imei: aImei, deviceId: await deviceId(aImei) },
    });
    byRole.set(ROLES.user, { client: userA1, who: { id: t.ids.userA1, imei: aImei, deviceId: await deviceId(aImei) } });
    for (const role of [ROLES.superUser, ROLES.superAgent, ROLES.log]) {
      const id = await createUser(admin, `cov-role-${role}`, role, t.ids.agentA);
      const [imei] = role === ROLES.log ? [aImei] : await importDevices(admin, id, [nextImei()]);
      byRole.set(role, {
        client: await loginAs(server, `cov-role-${role}`),
        who: { id, imei, deviceId: await deviceId(imei) },
      });
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('every endpoint of the permission table is in this test', () => {
    const covered = new Set(ENDPOINTS.map((e) => JSON.stringify(e.perm)));
    for (const key of [
      'accountsView',
      'agentAdd',
      'agentEdit',
      'agentUsername',
      'agentTransfer',
      'agentResetPassword',
      'agentDelete',
      'deviceAccountUsername',
      'agentExport',
      'importQuota',
      'importQuotaView',
      'devicesView',
      'deviceEdit',
      'devicesBulkInfo',
      'devicesImport',
      'deviceTransfer',
      'devicesReset',
      'devicesExpire',
      'devicesIcon',
      'deviceAccountPassword',
      'systemConfig',
    ] as (keyof typeof NEEDS)[]) {
      expect(covered.has(JSON.stringify(needs(key))), key).toBe(true);
    }
  });

  it('a role without the permission gets code 403 and the spec message in its language; nothing changes', async () => {
    let checked = 0;
    for (const [i, e] of ENDPOINTS.entries()) {
      if (e.perm.length === 0) continue;
      const role = [ROLES.user, ROLES.superUser, ROLES.superAgent, ROLES.log, ROLES.agent].find(
        (r) => !hasPermission([...permissionsFor(r, 'live')], e.perm),
      );
      expect(role, `${e.name}: some tenant-A role lacks ${e.perm}`).toBeDefined();
      const { client, who } = byRole.get(role as number)!;
      const lang = LANGS[i % LANGS.length];
      const before = await snapshot(server);
      const res = await call(client, e, e.own(who), lang);
      expect({ endpoint: e.name, role, status: res.status, meta: res.meta }).toEqual({
        endpoint: e.name,
        role,
        status: 403,
        meta: { success: false, code: 403, message: translate('permission.denied', lang) },
      });
      expect(await snapshot(server), `${e.name} changed the database`).toBe(before);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('a target in the sibling subtree is refused (or listed as failed) in the caller language; nothing changes', async () => {
    let checked = 0;
    for (const [i, e] of ENDPOINTS.entries()) {
      if (!e.cross) continue;
      const lang = LANGS[(i + 3) % LANGS.length];
      const client = e.crossCaller === 'userA1' ? userA1 : agentA;
      const before = await snapshot(server);
      const res = await call(client, e, e.cross(tenantB), lang);
      const answer = e.crossAnswer ?? 'denied';
      if (answer === 'denied') {
        expect({ endpoint: e.name, status: res.status, meta: res.meta }).toEqual({
          endpoint: e.name,
          status: 403,
          meta: { success: false, code: 403, message: translate('permission.denied', lang) },
        });
      } else if (answer === 'batchFailed') {
        expect({ endpoint: e.name, status: res.status, success: res.data?.success }).toEqual({
          endpoint: e.name,
          status: 200,
          success: 0,
        });
        expect(res.data.failed).toEqual([
          { terminalID: tenantB.imei, message: resolveMessage('device.notFound', lang, { terminalID: tenantB.imei }) },
        ]);
      } else {
        expect({ endpoint: e.name, status: res.status }).toEqual({ endpoint: e.name, status: 200 });
        answer.check(res.data, lang);
      }
      expect(res.text, `${e.name} showed the other tenant`).not.toContain('MARK-B');
      expect(await snapshot(server), `${e.name} changed the database`).toBe(before);
      checked++;
    }
    expect(checked).toBeGreaterThan(35);
  });

  it('bad input is refused with code 400 and a message in the caller language; nothing changes', async () => {
    let checked = 0;
    for (const [i, e] of ENDPOINTS.entries()) {
      for (const [j, bad] of e.bad.entries()) {
        const lang = LANGS[(i + j) % LANGS.length];
        // The caller holds the permission: the user for its own password, else the agent, else (system settings)
        // the admin. The permission is checked before the body is validated: a caller without it gets 403.
        const agent = byRole.get(ROLES.agent)!;
        const { client, who } =
          e.perm.length === 0
            ? byRole.get(ROLES.user)!
            : hasPermission(permissionsFor(ROLES.agent, 'live'), e.perm)
              ? agent
              : { client: t.admin, who: agent.who };
        const before = await snapshot(server);
        const res = await call(client, e, bad.req(who), lang);
        const message = expectedMessage(bad, lang);
        expect({ endpoint: e.name, case: j, status: res.status, meta: res.meta }).toEqual({
          endpoint: e.name,
          case: j,
          status: bad.status ?? 400,
          meta: { success: false, code: bad.status ?? 400, message },
        });
        expect(await snapshot(server), `${e.name} bad input ${j} changed the database`).toBe(before);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('loginByCert: a device of another account, a wrong password and bad input open no session, in the caller language', async () => {
    // A device account for tenant B's device, the sibling subtree's.
    const agentB = await loginAs(server, 'agentB');
    const [saleImei] = await importDevices(t.admin, t.ids.agentB, [nextImei()]);
    const sale = await expectOk<{ accounts: { password: string }[] }>(
      agentB.post('/device/userSale', { terminalIDs: [saleImei], asDeviceAccounts: true }),
    );
    const salePassword = sale.accounts[0].password;
    const cases: { body: Record<string, unknown>; lang: string; status: number; code: number; message: string }[] = [
      // Wrong password for an existing device account.
      {
        body: { terminalID: saleImei, password: 'bad-password' },
        lang: 'fr',
        status: 200,
        code: 209,
        message: translate('login.209', 'fr'),
      },
      // A device without a device account (tenant A's device) cannot be used to log in.
      {
        body: { terminalID: aImei, password: PASSWORD },
        lang: 'vi',
        status: 200,
        code: 209,
        message: translate('login.209', 'vi'),
      },
      // Not an IMEI.
      {
        body: { terminalID: 'bad imei', password: 'x' },
        lang: 'cn',
        status: 200,
        code: 201,
        message: translate('login.201', 'cn'),
      },
      // Missing password.
      {
        body: { terminalID: saleImei },
        lang: 'cn',
        status: 400,
        code: 400,
        message: resolveMessage('invalidParam', 'cn', { field: 'password' }),
      },
    ];
    for (const c of cases) {
      const before = await snapshot(server);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/loginByCert',
        headers: { lang: c.lang },
        payload: c.body,
      });
      expect({ status: res.statusCode, meta: res.json().meta, cookie: res.headers['set-cookie'] ?? null }).toEqual({
        status: c.status,
        meta: { success: false, code: c.code, message: c.message },
        cookie: null,
      });
      expect(await snapshot(server)).toBe(before);
    }
    // The right password logs in (happy path) and the session sees exactly that device.
    const ok = await server.app.inject({
      method: 'POST',
      url: '/api/loginByCert',
      headers: { lang: 'en' },
      payload: { terminalID: saleImei, password: salePassword },
    });
    expect(ok.json().meta).toMatchObject({ success: true, code: 200 });
  });

  it('agent/export: the subtree as an xlsx (agents only, or all), never the sibling tenant, within the export limit', async () => {
    const exportRows = async (agentsOnly: boolean) => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/agent/export',
        headers: { cookie: agentA.cookie, lang: 'en' },
        payload: { id: t.ids.agentA, agentsOnly },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/spreadsheetml/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const names: string[] = [];
      sheet.eachRow((row, n) => {
        if (n > 1) names.push(String(row.getCell(2).value));
      });
      return names.sort();
    };
    expect(await exportRows(true)).toEqual(['agentA', 'cov-role-13', 'subA', 'subSubA']); // 13: superAgent is an agent role
    const all = await exportRows(false);
    expect(all).toEqual(expect.arrayContaining(['agentA', 'subA', 'subSubA', 'userA1', 'userA2', 'cov-role-4']));
    expect(all.some((n) => n.includes('B'))).toBe(false);
    // Over the configured agent export limit: refused in the caller's language, nothing changes.
    const limits = await expectOk<Record<string, number>>(t.admin.get('/device/limits'));
    await expectOk(t.admin.post('/device/limits', { ...limits, agentsPerExport: 2 }));
    const before = await snapshot(server);
    agentA.lang = 'cn';
    const over = await agentA.post('/agent/export', { id: t.ids.agentA });
    agentA.lang = 'en';
    expect({ status: over.status, meta: over.meta }).toEqual({
      status: 400,
      meta: { success: false, code: 400, message: resolveMessage('device.exportLimit', 'cn', { max: 2 }) },
    });
    expect(await snapshot(server)).toBe(before);
    await expectOk(t.admin.post('/device/limits', limits));
  });

  it('importUser: a row with a malformed telephone is refused with the spec message in the caller language', async () => {
    agentA.lang = 'fr';
    const job = await expectOk<{
      status: string;
      result: { success: number; refused: { line: number; message: string }[] };
    }>(
      agentA.post('/user/importUser', {
        rows: [
          { username: 'telOk', telephone: '13800138000' },
          { username: 'telBad', telephone: '12-34' },
        ],
        wait: true,
      }),
    );
    agentA.lang = 'en';
    expect(job.status).toBe('done');
    expect(job.result.success).toBe(1);
    expect(job.result.refused).toEqual([
      { line: 2, username: 'telBad', message: translate('validation.telephone', 'fr') },
    ]);
    const found = await expectOk<{ exists: boolean }>(agentA.post('/user/findUsername', { username: 'telBad' }));
    expect(found.exists).toBe(false);
  });

  it('userSale to oneself is refused per device with the spec message in the caller language; nothing changes', async () => {
    const [imei] = await importDevices(t.admin, t.ids.agentA, [nextImei()]);
    const before = await snapshot(server);
    agentA.lang = 'pt';
    const res = await agentA.post<{ success: number; failed: { terminalID: string; message: string }[] }>(
      '/device/userSale',
      { terminalIDs: [imei], userId: t.ids.agentA },
    );
    agentA.lang = 'en';
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      success: 0,
      failed: [{ terminalID: imei, message: translate('account.sellToSelf', 'pt') }],
    });
    expect(await snapshot(server)).toBe(before);
    // Selling to an account that is not an end user stays a permission refusal.
    const toAgent = await agentA.post('/device/userSale', { terminalIDs: [imei], userId: t.ids.subA });
    expect(toAgent.meta).toEqual({ success: false, code: 403, message: translate('permission.denied', 'en') });
    expect(await snapshot(server)).toBe(before);
  });
});
