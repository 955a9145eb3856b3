// Device accounts: an end-user account named by its device's IMEI (created by a sale "as device accounts"),
// so a customer logs in with the IMEI printed on the tracker (/api/loginByCert) and sees that device.

import { ROLES } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { type Caller, callerIsAdmin, subtreePattern } from '../agent/scope.ts';
import { generateAccountPassword, hashPassword } from '../auth/password.ts';
import { renameUser } from './service.ts';

/** Device accounts below the caller whose name is one of these IMEIs and whose device the caller reaches. */
export async function findDeviceAccounts(
  ctx: AppContext,
  caller: Caller,
  terminalIds: readonly string[],
): Promise<{ id: string; username: string }[]> {
  const names = [...new Set(terminalIds.map((t) => t.trim().toLowerCase()))];
  if (names.length === 0) return [];
  let q = ctx.db
    .selectFrom('users as u')
    .innerJoin('devices as d', (j) => j.on(sql<boolean>`lower(d.terminal_id) = lower(u.username)`))
    .innerJoin('users as owner', 'owner.id', 'd.user_id')
    .select(['u.id', 'u.username'])
    .where(sql<boolean>`lower(u.username) = ANY(${names})`)
    .where('u.id', '!=', caller.id);
  if (!callerIsAdmin(caller)) {
    const pattern = subtreePattern(caller.path);
    q = q.where('u.path', 'like', pattern).where('owner.path', 'like', pattern);
  }
  return q.execute();
}

/**
 * Gives each device account a new random password (answered once, per IMEI), to be changed at its next sign-in;
 * their sessions end.
 */
export async function resetDeviceAccountPasswords(
  ctx: AppContext,
  caller: Caller,
  terminalIds: readonly string[],
): Promise<{ updated: string[]; notFound: string[]; passwords: { terminalId: string; password: string }[] }> {
  const accounts = await findDeviceAccounts(ctx, caller, terminalIds);
  const passwords: { terminalId: string; password: string }[] = [];
  for (const a of accounts) {
    const password = generateAccountPassword();
    await ctx.db
      .updateTable('users')
      .set({
        password_hash: await hashPassword(password),
        must_change_password: true,
        password_changed_at: new Date(),
        updated_at: new Date(),
      })
      .where('id', '=', a.id)
      .execute();
    passwords.push({ terminalId: a.username, password });
  }
  if (accounts.length > 0) {
    await ctx.db
      .deleteFrom('sessions')
      .where(
        'user_id',
        'in',
        accounts.map((a) => a.id),
      )
      .execute();
  }
  const found = new Set(accounts.map((a) => a.username.toLowerCase()));
  const wanted = [...new Set(terminalIds.map((t) => t.trim()))];
  return {
    updated: wanted.filter((t) => found.has(t.toLowerCase())),
    notFound: wanted.filter((t) => !found.has(t.toLowerCase())),
    passwords,
  };
}

/**
 * The device username change (spec §6 main:device_username): renames the account that signs in for a device, i.e.
 * the end-user account (role user) owning it, below the caller and reached through the caller's subtree.
 */
export async function renameDeviceAccount(
  ctx: AppContext,
  caller: Caller,
  terminalID: string,
  username: string,
): Promise<{ id: string; from: string; to: string }> {
  let q = ctx.db
    .selectFrom('devices as d')
    .innerJoin('users as owner', 'owner.id', 'd.user_id')
    .select(['owner.id', 'owner.username', 'owner.role', 'owner.path'])
    .where(sql<boolean>`lower(d.terminal_id) = lower(${terminalID.trim()})`);
  if (!callerIsAdmin(caller)) q = q.where('owner.path', 'like', subtreePattern(caller.path));
  const owner = await q.executeTakeFirst();
  // Not reached, or a device held by an agent (no account of its own): no permission. One's own: not here.
  if (!owner) throw noPermission();
  if (owner.id === caller.id) throw new ApiError(400, 'account.notSelf', 400);
  if (owner.role !== ROLES.user) throw noPermission();
  await renameUser(ctx, caller, owner.id, username);
  const renamed = await ctx.db
    .selectFrom('users')
    .select('username')
    .where('id', '=', owner.id)
    .executeTakeFirstOrThrow();
  return { id: owner.id, from: owner.username, to: renamed.username };
}
