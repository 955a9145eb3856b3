// Test fixtures for the accounts area: a small reseller tree built through the API, and direct inserts for
// device state. Used by the accounts tests only.
//
//   admin (1)
//   ├── agentA (agent)          ← tenant A
//   │   ├── subA (agent)
//   │   │   └── userA2 (user)
//   │   └── userA1 (user)
//   └── agentB (agent)          ← tenant B, a sibling subtree
//       └── userB1 (user)
import { ApiClient, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';

export const PASSWORD = 'Passw0rd!';

export interface Tree {
  admin: ApiClient;
  ids: Record<'admin' | 'agentA' | 'subA' | 'userA1' | 'userA2' | 'agentB' | 'userB1', string>;
}

type Envelope<T> = Awaited<ReturnType<ApiClient['post']>> & { data: T };

export async function expectOk<T>(
  p: Promise<Envelope<T> | { status: number; meta: { success: boolean; message: string }; data: T }>,
): Promise<T> {
  const res = await p;
  if (!res.meta?.success) throw new Error(`call failed: ${res.status} ${res.meta?.message}`);
  return res.data;
}

export async function adminClient(server: TestServer): Promise<ApiClient> {
  const c = new ApiClient(server);
  await c.login('admin', TEST_ADMIN_PASSWORD);
  return c;
}

export async function createUser(
  c: ApiClient,
  username: string,
  role: number,
  parentId?: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const data = await expectOk<{ id: string }>(
    c.post('/user/insertUser', { username, password: PASSWORD, role, ...(parentId ? { parentId } : {}), ...extra }),
  );
  return data.id;
}

export async function buildTree(server: TestServer, prefix = ''): Promise<Tree> {
  const admin = await adminClient(server);
  const agentA = await createUser(admin, `${prefix}agentA`, 2);
  const subA = await createUser(admin, `${prefix}subA`, 2, agentA);
  const userA1 = await createUser(admin, `${prefix}userA1`, 3, agentA);
  const userA2 = await createUser(admin, `${prefix}userA2`, 3, subA);
  const agentB = await createUser(admin, `${prefix}agentB`, 2);
  const userB1 = await createUser(admin, `${prefix}userB1`, 3, agentB);
  return { admin, ids: { admin: '1', agentA, subA, userA1, userA2, agentB, userB1 } };
}

export async function loginAs(server: TestServer, username: string, password = PASSWORD): Promise<ApiClient> {
  const c = new ApiClient(server);
  // Accounts made by someone else change their password at first sign-in; the owner does that here.
  const res = await c.signInAsOwner(username, password);
  if (res.meta.code !== 200) throw new Error(`login ${username} failed: ${res.meta.message}`);
  return c;
}

/** Imports devices as the admin (no quota) straight to an owner; answers the IMEIs. */
export async function importDevices(
  admin: ApiClient,
  ownerId: string,
  imeis: string[],
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const job = await expectOk<{ status: string; result: { success: number } }>(
    admin.post('/device/import', {
      userId: ownerId,
      text: imeis.join('\n'),
      protocol: 2,
      deviceType: 12,
      wait: true,
      ...extra,
    }),
  );
  if (job.status !== 'done' || job.result.success !== imeis.length)
    throw new Error(`import failed: ${JSON.stringify(job)}`);
  return imeis;
}

let imeiCounter = 0;
/** A fresh 15-digit IMEI per call. */
export function nextImei(prefix = '86'): string {
  imeiCounter++;
  return `${prefix}${String(Date.now() % 1e6).padStart(6, '0')}${String(imeiCounter).padStart(7, '0')}`.slice(0, 15);
}

export interface StateValues {
  device_id: string;
  online?: boolean;
  pos_time?: Date | null;
  last_seen?: Date | null;
  state_time?: Date | null;
  lat?: number | null;
  lon?: number | null;
  speed?: number | null;
}

/** Inserts a device_state row (the gateway's job in production) with every other column empty. */
export async function insertDeviceState(db: TestServer['ctx']['db'], v: StateValues): Promise<void> {
  await db
    .insertInto('device_state')
    .values({
      device_id: v.device_id,
      online: v.online ?? false,
      state_time: v.state_time ?? null,
      last_seen: v.last_seen ?? null,
      pos_time: v.pos_time ?? null,
      lat: v.lat ?? null,
      lon: v.lon ?? null,
      altitude: null,
      speed: v.speed ?? null,
      course: null,
      valid: null,
      satellites: null,
      location_type: null,
      acc: null,
      battery: null,
      mileage: null,
      tyres: null,
      battery_pack: null,
      attributes: '{}',
    })
    .execute();
}
