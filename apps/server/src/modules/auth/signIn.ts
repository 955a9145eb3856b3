// The steps of signing in shared by /login, /loginByCert and the second step: the same scrypt work for an
// unknown account as for a known one, the throttle, the two-factor ticket, and the answer that opens a session.
import { createHash, randomBytes } from 'node:crypto';
import { signInRestriction } from '@carhere/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { permissionsOf } from '../../http/access.ts';
import { fail, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { createSession, LOGIN_SECURITY_SETTING, type LoginSecuritySetting } from '../../http/session.ts';
import { presentUser, type UserRowForInfo, userInfoSchema } from '../user/presenter.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { LoginThrottle } from './throttle.ts';

/** meta.code of a correct password whose account also needs its authenticator code (data.ticket). */
export const TOTP_STEP_CODE = 210;
/** meta.code of a wrong or reused authenticator code. */
export const TOTP_WRONG_CODE = 211;
/** meta.code of an unknown or expired ticket (sign in again with the password). */
export const TICKET_EXPIRED_CODE = 212;
const TICKET_TTL_MS = 5 * 60_000;
export const TICKET_MAX_ATTEMPTS = 5;

export const USER_LOGIN_COLUMNS = [
  'id',
  'username',
  'nickname',
  'role',
  'path',
  'parent_id',
  'telephone',
  'email',
  'address',
  'mark',
  'lang',
  'time_zone',
  'expire_at',
  'password_hash',
  'must_change_password',
  'totp_enabled',
] as const;

export interface LoginUserRow extends UserRowForInfo {
  password_hash: string;
  must_change_password: boolean;
  totp_enabled: boolean;
}

const restrictionSchema = z.enum(['changePassword', 'enrolTotp']).nullable();

/** The answer of a completed sign-in (and of GET /session). */
export const sessionData = z.object({
  userInfo: userInfoSchema,
  permissions: z.array(z.string()),
  /** What the account must do first; while set, the server refuses every other call. */
  restriction: restrictionSchema,
  totpEnabled: z.boolean(),
});
/** The answer of a correct password when the account uses two-factor sign-in (meta.code 210). */
export const totpStepData = z.object({ totpRequired: z.literal(true), ticket: z.string() });
export const loginAnswer = z.union([sessionData, totpStepData]).nullable();

export async function requireTotpForStaff(ctx: AppContext): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', LOGIN_SECURITY_SETTING)
    .executeTakeFirst();
  return (row?.value as LoginSecuritySetting | undefined)?.requireTotpForStaff === true;
}

export async function sessionAnswer(ctx: AppContext, user: LoginUserRow | Omit<LoginUserRow, 'password_hash'>) {
  return {
    userInfo: presentUser(user),
    permissions: permissionsOf(user.role, ctx.config.appEnv, await grantsOf(ctx, user.id)),
    restriction: signInRestriction({
      role: user.role,
      mustChangePassword: user.must_change_password,
      totpEnabled: user.totp_enabled,
      requireTotpForStaff: await requireTotpForStaff(ctx),
    }),
    totpEnabled: user.totp_enabled,
  };
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against an account, or against a dummy hash with the same scrypt parameters when there is
 * no such account, so an unknown name costs the same work as a known one.
 */
export async function passwordMatches(
  user: { password_hash: string } | undefined,
  password: string,
  verify: (password: string, stored: string) => Promise<boolean> = verifyPassword,
): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  const stored = user?.password_hash ?? (await dummyHash);
  const good = await verify(password, stored);
  return user !== undefined && good;
}

export const hashTicket = (token: string) => createHash('sha256').update(token).digest('hex');

/** 429 with the wait in seconds, when the throttle holds this address back for this account. */
export async function throttled(
  throttle: LoginThrottle,
  account: string,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const wait = await throttle.retryAfter(account, req.ip);
  if (wait <= 0) return false;
  const seconds = Math.ceil(wait / 1000);
  reply
    .status(429)
    .header('retry-after', String(seconds))
    .send(fail(429, translate('login.rateLimited', callerLang(req), { seconds }), { retryAfterSeconds: seconds }));
  return true;
}

/**
 * The shared password earlier versions set on every reset, import and sale. An account still signing in with it
 * (a database from before this version) must change it first, like any password someone else set.
 */
export const LEGACY_DEFAULT_PASSWORD = 'Carhere-123456';

/** After a correct password: a ticket for the code when the account uses two-factor sign-in, else a session. */
export async function completePasswordStep(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: LoginUserRow,
  remember: boolean,
  password: string,
) {
  const lang = callerLang(req);
  if (password === LEGACY_DEFAULT_PASSWORD && !user.must_change_password) {
    await ctx.db.updateTable('users').set({ must_change_password: true }).where('id', '=', user.id).execute();
    user.must_change_password = true;
  }
  if (user.totp_enabled) {
    const token = randomBytes(32).toString('base64url');
    await ctx.db.deleteFrom('login_tickets').where('expires_at', '<', new Date()).execute();
    await ctx.db
      .insertInto('login_tickets')
      .values({ id: hashTicket(token), user_id: user.id, remember, expires_at: new Date(Date.now() + TICKET_TTL_MS) })
      .execute();
    return ok({ totpRequired: true as const, ticket: token }, translate('login.totpRequired', lang), TOTP_STEP_CODE);
  }
  await createSession(ctx, reply, req, user.id, remember);
  return ok(await sessionAnswer(ctx, user), translate('login200', lang));
}

/** Permissions an administrator granted to the account beyond its role's. */
export async function grantsOf(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom('permission_grants')
    .select('permission')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.permission);
}
