// Small factories for the web features' API tests: users at a place in the tree, devices they own.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Running } from '../../main.ts';
import { ApiClient } from '../../testing/harness.ts';
import { hashPassword } from '../auth/password.ts';

export const FIXTURE_PASSWORD = 'Fixture-pass-1';
let passwordHash: Promise<string> | undefined;

export interface FixtureUser {
  id: string;
  username: string;
  path: string;
  role: number;
}

/** A user under `parent` (admin when omitted) with the fixture password. */
export async function buildUser(
  db: Kysely<Database>,
  username: string,
  role: number,
  parent?: FixtureUser,
): Promise<FixtureUser> {
  passwordHash ??= hashPassword(FIXTURE_PASSWORD);
  const parentRow =
    parent ??
    (await db
      .selectFrom('users')
      .select(['id', 'path', 'role', 'username'])
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow());
  const row = await db
    .insertInto('users')
    .values({
      username,
      password_hash: await passwordHash,
      role,
      parent_id: parentRow.id,
      expire_at: null,
      nickname: username,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const path = `${parentRow.path}${row.id}/`;
  await db.updateTable('users').set({ path }).where('id', '=', row.id).execute();
  return { id: row.id, username, path, role };
}

export async function buildDevice(
  db: Kysely<Database>,
  terminalId: string,
  owner: FixtureUser | null,
  extra: { nickname?: string; protocol?: number } = {},
): Promise<{ id: string; terminalId: string; ownerPath: string }> {
  const row = await db
    .insertInto('devices')
    .values({
      terminal_id: terminalId,
      user_id: owner?.id ?? null,
      nickname: extra.nickname ?? '',
      protocol: extra.protocol ?? 2,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, terminalId, ownerPath: owner?.path ?? '' };
}

export async function clientFor(
  server: Running,
  user: { username: string },
  password = FIXTURE_PASSWORD,
): Promise<ApiClient> {
  const c = new ApiClient(server);
  const res = await c.login(user.username, password);
  if (res.meta.code !== 200) throw new Error(`login of ${user.username} failed: ${res.meta.message}`);
  return c;
}
