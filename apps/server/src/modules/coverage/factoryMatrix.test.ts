// The authorization matrix of the factory back office: every factory endpoint (factoryEndpoints.ts) called as
// each of the nine factory roles, and admin, agent and user, in the live and test environments: a role is
// refused (403, nothing changed) exactly when its permissions (spec §6, @carhere/domain) in that environment
// hold none of the endpoint's; an anonymous caller gets the session code.
import { type Environment, hasPermission, permissionsFor, ROLES } from '@carhere/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, adminClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';
import { apiOperations } from '../../testing/openapi.ts';
import { snapshotTables } from '../../testing/snapshot.ts';
import { FACTORY_ENDPOINTS, type FactoryEndpoint, type MatrixFixtures } from './factoryEndpoints.ts';

const ROLES_UNDER_TEST = [
  ROLES.admin,
  ROLES.agent,
  ROLES.user,
  ROLES.test,
  ROLES.testSearch,
  ROLES.wanweiTest,
  ROLES.log,
  ROLES.otaLookPremissionUser,
  ROLES.originLogSearch,
  ROLES.configPlatformUser,
  ROLES.testStockUser,
  ROLES.testTransferIpUser,
];

/** Tables a refused call must leave as they were. */
const WATCHED = [
  'devices',
  'tasks',
  'task_items',
  'frame_capture',
  'log_retention',
  'stock_records',
  'sim_cards',
  'qc_criteria',
  'import_jobs',
  'ota_firmware',
  'settings',
];

async function call(server: TestServer, c: ApiClient | null, e: FactoryEndpoint, imei: string, fx: MatrixFixtures) {
  const r = e.req(imei, fx);
  const res = await server.app.inject({
    method: e.method ?? 'POST',
    url: `/api${r.url ?? e.name}`,
    headers: { ...(c ? { cookie: c.cookie } : {}), lang: 'en' },
    ...(r.body === undefined ? {} : { payload: r.body as Record<string, unknown> }),
  });
  return { status: res.statusCode, text: res.body };
}

for (const env of ['live', 'test'] as Environment[]) {
  /** Waits until the watched tables stop changing (a background job done), at most 15 s. */
  async function settled(server: TestServer): Promise<void> {
    let last = await snapshotTables(server, WATCHED);
    for (let i = 0; i < 75; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await snapshotTables(server, WATCHED);
      if (now === last) return;
      last = now;
    }
  }

  describe(`factory authorization matrix (APP_ENV ${env})`, () => {
    let server: TestServer;
    let imei: string;
    let fx: MatrixFixtures;
    const clients = new Map<number, ApiClient>();

    beforeAll(async () => {
      server = await createTestServer({ appEnv: env });
      imei = newTerminalId('gt06');
      await addDevice(server, imei, 'gt06', { userId: null });
      for (const role of ROLES_UNDER_TEST) {
        clients.set(
          role,
          role === ROLES.admin ? await adminClient(server) : await userClient(server, `fm-${role}`, role),
        );
      }
      const admin = clients.get(ROLES.admin)!;
      const task = await admin.post<{ id: string }>('/task/create', {
        content: 'WHERE#',
        terminalIDs: [imei],
        area: 'factory',
      });
      expect(task.meta.success, task.meta.message).toBe(true);
      const agent = await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', `fm-${ROLES.agent}`)
        .executeTakeFirstOrThrow();
      fx = { taskId: task.data.id, agentId: String(agent.id) };
    });
    afterAll(async () => {
      await server.close();
    });

    it('answers each role exactly as its permissions allow, and a refusal changes nothing', async () => {
      const mismatches: string[] = [];
      const table: string[] = [];
      for (const role of ROLES_UNDER_TEST) {
        const held = [...permissionsFor(role, env)];
        let open = 0;
        for (const e of FACTORY_ENDPOINTS) {
          const allowed = hasPermission(held, e.perm);
          const before = allowed ? '' : await snapshotTables(server, WATCHED);
          const res = await call(server, clients.get(role)!, e, imei, fx);
          if (res.status >= 500) mismatches.push(`role ${role} ${e.name}: ${res.status} ${res.text.slice(0, 160)}`);
          if (allowed && res.status === 403) mismatches.push(`role ${role} ${e.method ?? 'POST'} ${e.name}: refused`);
          if (!allowed) {
            if (res.status !== 403)
              mismatches.push(`role ${role} ${e.method ?? 'POST'} ${e.name}: ${res.status}, not 403`);
            const after = await snapshotTables(server, WATCHED);
            if (after !== before) mismatches.push(`role ${role} ${e.name}: refused but changed the database`);
          } else {
            open++;
            // An import answers at once and writes in a job: let it finish, or its writes would be taken for
            // those of the next (refused) call.
            if (/import/i.test(e.name)) await settled(server);
          }
        }
        table.push(`role ${String(role).padStart(2)}: ${open}/${FACTORY_ENDPOINTS.length} factory endpoints open`);
      }
      console.log(`factory authorization matrix (${env}):\n${table.join('\n')}`);
      expect(mismatches).toEqual([]);
    }, 120_000);

    it('lists every operation that a factory permission opens (the OpenAPI document names them)', async () => {
      const listed = new Set(FACTORY_ENDPOINTS.map((e) => `${e.method ?? 'POST'} /api${e.name}`));
      const factoryOps = (await apiOperations(server)).filter((op) =>
        op.permissions.some((p) => p.startsWith('factory:')),
      );
      expect(factoryOps.length).toBeGreaterThan(50);
      expect(factoryOps.map((op) => `${op.method} ${op.path}`).filter((name) => !listed.has(name))).toEqual([]);
    });

    it('asks an anonymous caller to log in', async () => {
      for (const e of FACTORY_ENDPOINTS) {
        const res = await call(server, null, e, imei, fx);
        expect(res.status, e.name).not.toBe(200);
        expect(JSON.parse(res.text).meta.message, e.name).toBe('407');
      }
    });
  });
}
