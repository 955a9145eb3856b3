// Helpers for gateway tests: a test server with the gateway on ephemeral ports, registered devices,
// simulated trackers pointed at it, and polling.
import { type SimProtocol, SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import type { Config } from '../config.ts';
import type { ComponentStarter } from '../main.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { ApiClient, createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/harness.ts';
import { type Gateway, startGateway } from './component.ts';
import { type GatewayOptions, gatewayOptionsFrom } from './options.ts';

export interface GatewayTestServer extends TestServer {
  gateway: Gateway;
}

export async function createGatewayTestServer(
  config: Partial<Config> = {},
  options: Partial<GatewayOptions> = {},
): Promise<GatewayTestServer> {
  let gateway: Gateway | undefined;
  const starter: ComponentStarter = async (ctx) => {
    const base = gatewayOptionsFrom(ctx.config, ctx.dbHandle.kind, {});
    gateway = await startGateway(
      ctx,
      { ...base, host: '127.0.0.1', gt06Port: 0, jt808Port: 0, osmandPort: 0, ...options },
      { onError: () => {} },
    );
    return { name: 'gateway', stop: () => (gateway as Gateway).stop() };
  };
  const server = await createTestServer(config, { components: [starter] });
  return Object.assign(server, { gateway: gateway as unknown as Gateway });
}

let nextId = 1;

/** Registers a device (owner: the demo user, id 2, unless given); returns its id. */
export async function addDevice(
  server: TestServer,
  terminalId: string,
  protocol: SimProtocol,
  extra: { userId?: string | null; nbDeviceId?: string; deviceType?: number } = {},
): Promise<string> {
  const row = await server.ctx.db
    .insertInto('devices')
    .values({
      terminal_id: terminalId,
      user_id: extra.userId === undefined ? '2' : extra.userId,
      protocol: protocol === 'gt06' ? 2 : 1,
      nb_device_id: extra.nbDeviceId ?? null,
      device_type: extra.deviceType ?? (protocol === 'gt06' ? 12 : 8),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** A unique terminal id per call: 15 digits for GT06, 11 for JT/T 808. */
export function newTerminalId(protocol: SimProtocol): string {
  const n = String(process.pid % 1000).padStart(3, '0') + String(nextId++).padStart(4, '0');
  return protocol === 'gt06' ? `86812${n.padStart(10, '0')}` : `139${n.padStart(8, '0')}`;
}

export function simulatedDevice(
  gateway: Gateway,
  protocol: SimProtocol,
  terminalId: string,
  extra: Partial<ConstructorParameters<typeof SimulatedDevice>[0]> = {},
): SimulatedDevice {
  return new SimulatedDevice({
    protocol,
    terminalId,
    host: '127.0.0.1',
    port: protocol === 'gt06' ? gateway.ports.gt06 : gateway.ports.jt808,
    track: new VehicleTrack({
      centerLat: 39.915,
      centerLon: 116.404,
      radiusKm: 10,
      maxSpeed: 80,
      random: seededRandom(Number(terminalId.slice(-6))),
      startTime: Date.now() - 3_600_000,
    }),
    alarmProbability: 0,
    recordAcks: true,
    ...extra,
  });
}

/**
 * Polls until `check` returns a truthy value (or throws after `timeoutMs`: generous, because a loaded CI machine
 * is slow, and a wait only lasts that long when it fails).
 */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A user below `parentId` (the admin by default) with a role; returns a logged-in client. */
export async function userClient(
  server: TestServer,
  username: string,
  role: number,
  parentId = '1',
): Promise<ApiClient> {
  const parent = await server.ctx.db
    .selectFrom('users')
    .select('path')
    .where('id', '=', parentId)
    .executeTakeFirstOrThrow();
  const password = 'User-pass-1';
  const row = await server.ctx.db
    .insertInto('users')
    .values({ username, password_hash: await hashPassword(password), role, parent_id: parentId, expire_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await server.ctx.db
    .updateTable('users')
    .set({ path: `${parent.path}${row.id}/` })
    .where('id', '=', row.id)
    .execute();
  const client = new ApiClient(server);
  const res = await client.login(username, password);
  if (!res.meta.success) throw new Error(`login of ${username} failed: ${res.meta.message}`);
  return client;
}

export async function adminClient(server: TestServer): Promise<ApiClient> {
  const client = new ApiClient(server);
  await client.login('admin', TEST_ADMIN_PASSWORD);
  return client;
}

/**
 * The seeded end user 'demo' (id 2, owner of the test devices), signed in with a password like any customer, so
 * its writes are allowed. A "try it out" session (POST /api/login/demo) would be read-only.
 */
export async function demoClient(server: TestServer): Promise<ApiClient> {
  const password = 'Demo-user-pass-1';
  await server.ctx.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password) })
    .where('username', '=', 'demo')
    .execute();
  const client = new ApiClient(server);
  const res = await client.login('demo', password);
  if (!res.meta.success) throw new Error(`login of demo failed: ${res.meta.message}`);
  return client;
}
