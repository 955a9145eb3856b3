// Account changes: create, edit, move, delete, rename, change role, passwords. Each checks the caller's reach
// (agent/scope.ts) and the domain's account rules (spec §5) before writing.
import {
  canAddSubUser,
  canDeleteAccount,
  canMoveUnder,
  email,
  isUsernameAvailable,
  passwordsMatch,
  telephone,
} from '@carhere/domain';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { revokeUserSessions } from '../../http/session.ts';
import { checkNewPassword, enforce, isUniqueViolation, normalizeUsername } from '../agent/rules.ts';
import {
  assignableRoles,
  type Caller,
  callerIsAdmin,
  loadReachableUser,
  loadSubordinate,
  type UserRow,
} from '../agent/scope.ts';
import { generateAccountPassword, hashPassword, verifyPassword } from '../auth/password.ts';
import { ancestorsOf } from './presenter.ts';
import { usernameTaken } from './queries.ts';

/** Serialises changes to the shape of the tree (create under, move, delete) across processes. */
const TREE_LOCK = 4242100;

export interface NewUser {
  username: string;
  /** Omitted: a random password is generated, answered once, and must be changed at first sign-in. */
  password?: string;
  confirmPassword?: string;
  parentId?: string;
  role: number;
  nickname?: string;
  telephone?: string;
  email?: string;
  address?: string;
  mark?: string;
  providerName?: string;
  providerLinkman?: string;
  providerTelephone?: string;
  expireAt?: Date | null;
}

export interface UserPatch {
  nickname?: string;
  telephone?: string;
  email?: string;
  address?: string;
  mark?: string;
  providerName?: string;
  providerLinkman?: string;
  providerTelephone?: string;
  lang?: string;
  timeZone?: string;
  expireAt?: Date | null;
}

const accountRef = (u: Pick<UserRow, 'id' | 'path'>) => ({ id: Number(u.id), ancestors: ancestorsOf(u.path) });

export function checkAssignableRole(caller: Caller, role: number): void {
  if (!assignableRoles(caller.role).includes(role)) throw new ApiError(400, 'account.roleNotAssignable', 400);
}

async function lockTree(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${TREE_LOCK})`.execute(trx);
}

async function ensureUsernameFree(ctx: AppContext, username: string, exceptId?: string): Promise<void> {
  const taken = (await usernameTaken(ctx, username, exceptId)) ? [username.toLowerCase()] : [];
  enforce(isUsernameAvailable(username.toLowerCase(), taken));
}

/**
 * The one insert of an account, under the tree lock with the parent read again (it may have moved or gone).
 * `passwordHash` is computed by the caller; `mustChangePassword` when someone else chose or generated it for an
 * account that does not know it yet (import, sale, generated).
 */
export async function insertAccount(
  trx: Transaction<Database>,
  parentId: string,
  input: Omit<NewUser, 'password' | 'confirmPassword' | 'parentId'>,
  passwordHash: string,
  mustChangePassword = false,
): Promise<string> {
  await lockTree(trx);
  const parent = await trx.selectFrom('users').select(['id', 'path']).where('id', '=', parentId).executeTakeFirst();
  if (!parent) throw noPermission();
  const row = await trx
    .insertInto('users')
    .values({
      username: input.username,
      password_hash: passwordHash,
      role: input.role,
      parent_id: parent.id,
      nickname: input.nickname ?? '',
      telephone: input.telephone ?? '',
      email: input.email ?? '',
      address: input.address ?? '',
      mark: input.mark ?? '',
      provider_name: input.providerName ?? '',
      provider_linkman: input.providerLinkman ?? '',
      provider_telephone: input.providerTelephone ?? '',
      expire_at: input.expireAt ?? null,
      must_change_password: mustChangePassword,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('users')
    .set({ path: `${parent.path}${row.id}/` })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

/** Checks that `parent` may receive a new account of `role` from this caller. */
export function checkNewChild(caller: Caller, parent: UserRow, role: number): void {
  checkAssignableRole(caller, role);
  enforce(canAddSubUser(parent.role));
}

/** Spec §5: a telephone (and the provider's) and an e-mail, when given, must have the right form. */
export function checkContactFields(input: Pick<UserPatch, 'telephone' | 'providerTelephone' | 'email'>): void {
  for (const v of [input.telephone, input.providerTelephone]) if (v?.trim()) enforce(telephone(v));
  if (input.email?.trim()) enforce(email(input.email));
}

/**
 * Creates an account. With a password chosen by the creator (the form offers it) the account gets it; without,
 * a random one is generated and answered once (`password`). Either way someone other than the account's owner
 * set it, so the account must change it at first sign-in.
 */
export async function createUser(
  ctx: AppContext,
  caller: Caller,
  input: NewUser,
): Promise<{ id: string; password: string | null }> {
  const username = normalizeUsername(input.username);
  checkContactFields(input);
  const chosen = input.password !== undefined && input.password !== '';
  if (chosen && input.confirmPassword !== undefined) enforce(passwordsMatch(input.password!, input.confirmPassword));
  if (chosen) checkNewPassword(input.password!);
  const parent = await loadReachableUser(ctx, caller, input.parentId ?? caller.id);
  checkNewChild(caller, parent, input.role);
  await ensureUsernameFree(ctx, username);
  const password = chosen ? input.password! : generateAccountPassword();
  const hash = await hashPassword(password);
  try {
    const id = await ctx.db
      .transaction()
      .execute((trx) => insertAccount(trx, parent.id, { ...input, username }, hash, true));
    return { id, password: chosen ? null : password };
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(400, 'account.usernameTaken', 400);
    throw err;
  }
}

export async function updateUser(ctx: AppContext, caller: Caller, id: string, patch: UserPatch): Promise<void> {
  const target = await loadReachableUser(ctx, caller, id);
  checkContactFields(patch);
  // Only a superior may change an account's own expiry; nobody extends their own.
  if (patch.expireAt !== undefined && target.id === caller.id && !callerIsAdmin(caller)) throw noPermission();
  const set: Record<string, unknown> = {};
  const map: [keyof UserPatch, string][] = [
    ['nickname', 'nickname'],
    ['telephone', 'telephone'],
    ['email', 'email'],
    ['address', 'address'],
    ['mark', 'mark'],
    ['providerName', 'provider_name'],
    ['providerLinkman', 'provider_linkman'],
    ['providerTelephone', 'provider_telephone'],
    ['lang', 'lang'],
    ['timeZone', 'time_zone'],
    ['expireAt', 'expire_at'],
  ];
  for (const [from, to] of map) if (patch[from] !== undefined) set[to] = patch[from];
  if (Object.keys(set).length === 0) return;
  await ctx.db
    .updateTable('users')
    .set({ ...set, updated_at: new Date() })
    .where('id', '=', target.id)
    .execute();
}

/** Moves an account (and everything below it) under another account of the caller's subtree. */
export async function moveUser(ctx: AppContext, caller: Caller, id: string, newParentId: string): Promise<void> {
  const target = await loadSubordinate(ctx, caller, id);
  const newParent = await loadReachableUser(ctx, caller, newParentId);
  enforce(canMoveUnder({ id: Number(target.id) }, accountRef(newParent)));
  enforce(canAddSubUser(newParent.role));
  if (target.parent_id === newParent.id) return;
  await ctx.db.transaction().execute(async (trx) => {
    await lockTree(trx);
    const [t, p] = await Promise.all([
      trx.selectFrom('users').select(['id', 'path']).where('id', '=', target.id).executeTakeFirst(),
      trx.selectFrom('users').select(['id', 'path']).where('id', '=', newParent.id).executeTakeFirst(),
    ]);
    if (!t || !p) throw noPermission();
    // Checked again under the lock: the tree may have changed since the first reads.
    enforce(canMoveUnder({ id: Number(t.id) }, accountRef(p)));
    const newPath = `${p.path}${t.id}/`;
    await trx.updateTable('users').set({ parent_id: p.id, updated_at: new Date() }).where('id', '=', t.id).execute();
    await sql`UPDATE users SET path = ${newPath} || substr(path, ${t.path.length + 1})
              WHERE path LIKE ${`${t.path}%`}`.execute(trx);
  });
}

/** Deletes an account without sub-accounts or devices; its remaining import quota goes back to its parent. */
export async function deleteUser(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  const target = await loadSubordinate(ctx, caller, id);
  await ctx.db.transaction().execute(async (trx) => {
    await lockTree(trx);
    const [children, devices] = await Promise.all([
      trx
        .selectFrom('users')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('parent_id', '=', target.id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('devices')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', target.id)
        .executeTakeFirstOrThrow(),
    ]);
    enforce(canDeleteAccount({ subAgentCount: children.n, deviceCount: devices.n }));
    const row = await trx
      .deleteFrom('users')
      .where('id', '=', target.id)
      .returning(['import_quota', 'parent_id'])
      .executeTakeFirst();
    if (row && row.import_quota > 0 && row.parent_id) {
      const parent = await trx
        .updateTable('users')
        .set((eb) => ({ import_quota: eb('import_quota', '+', row.import_quota) }))
        .where('id', '=', row.parent_id)
        .returning('import_quota')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('import_quota_records')
        .values({
          user_id: row.parent_id,
          kind: 'reclaim',
          amount: row.import_quota,
          balance: parent.import_quota,
          counterpart_id: null,
          operator_id: caller.id,
          // The note keeps the deleted account's name (the record outlives the account).
          note: target.username,
        })
        .execute();
    }
  });
}

export async function renameUser(ctx: AppContext, caller: Caller, id: string, username: string): Promise<void> {
  const target = await loadSubordinate(ctx, caller, id);
  const name = normalizeUsername(username);
  await ensureUsernameFree(ctx, name, target.id);
  try {
    await ctx.db
      .updateTable('users')
      .set({ username: name, updated_at: new Date() })
      .where('id', '=', target.id)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(400, 'account.usernameTaken', 400);
    throw err;
  }
}

export async function changeRole(ctx: AppContext, caller: Caller, id: string, role: number): Promise<void> {
  const target = await loadSubordinate(ctx, caller, id);
  checkAssignableRole(caller, target.role);
  checkAssignableRole(caller, role);
  const children = await ctx.db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('parent_id', '=', target.id)
    .executeTakeFirstOrThrow();
  if (children.n > 0 && !canAddSubUser(role).ok) throw new ApiError(400, 'account.subUsersNeedAgent', 400);
  await ctx.db.updateTable('users').set({ role, updated_at: new Date() }).where('id', '=', target.id).execute();
  // Permissions follow the role: end the account's sessions so the next login carries the new ones.
  if (role !== target.role) await revokeUserSessions(ctx, target.id);
}

/**
 * Sets a subordinate's password to a new random one (answered once to the caller), marks it to be changed at
 * the account's next sign-in, and ends its sessions.
 */
export async function resetPassword(ctx: AppContext, caller: Caller, id: string): Promise<string> {
  const target = await loadSubordinate(ctx, caller, id);
  const password = generateAccountPassword();
  await ctx.db
    .updateTable('users')
    .set({
      password_hash: await hashPassword(password),
      must_change_password: true,
      password_changed_at: new Date(),
      updated_at: new Date(),
    })
    .where('id', '=', target.id)
    .execute();
  await revokeUserSessions(ctx, target.id);
  return password;
}

/** The caller changes its own password; its other sessions end, this one stays. */
export async function changeOwnPassword(
  ctx: AppContext,
  caller: Caller & { sessionId: string },
  oldPassword: string,
  password: string,
  confirmPassword: string,
): Promise<void> {
  enforce(passwordsMatch(password, confirmPassword));
  checkNewPassword(password);
  const row = await ctx.db
    .selectFrom('users')
    .select(['password_hash', 'must_change_password'])
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, row.password_hash))) throw new ApiError(400, 'account.oldPasswordWrong', 400);
  // A password someone else set must really be replaced.
  if (row.must_change_password && password === oldPassword) throw new ApiError(400, 'account.passwordUnchanged', 400);
  await ctx.db
    .updateTable('users')
    .set({
      password_hash: await hashPassword(password),
      must_change_password: false,
      password_changed_at: new Date(),
      updated_at: new Date(),
    })
    .where('id', '=', caller.id)
    .execute();
  await ctx.db.deleteFrom('sessions').where('user_id', '=', caller.id).where('id', '!=', caller.sessionId).execute();
}

/** Whether an account still has a password someone else set (it must change it before anything else). */
export async function hasDefaultPassword(ctx: AppContext, caller: Caller, id: string): Promise<boolean> {
  const target = await loadReachableUser(ctx, caller, id);
  const row = await ctx.db
    .selectFrom('users')
    .select('must_change_password')
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow();
  return row.must_change_password;
}

/** Ends every session of a subordinate (forced log-out). */
export async function clearSessions(ctx: AppContext, caller: Caller, id: string): Promise<number> {
  const target = await loadSubordinate(ctx, caller, id);
  const res = await ctx.db.deleteFrom('sessions').where('user_id', '=', target.id).executeTakeFirst();
  return Number(res.numDeletedRows);
}
