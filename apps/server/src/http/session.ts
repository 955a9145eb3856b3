// Server-side sessions: a random token in an httpOnly, SameSite=Lax cookie; the database keeps only its sha256.
// Sessions end at logout, on expiry, and when the password changes (all of the user's sessions are deleted).
import { createHash, randomBytes } from 'node:crypto';
import { type SignInRestriction, signInRestriction } from '@carhere/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { ApiError } from './errors.ts';

export const SESSION_COOKIE = 'carhere_sid';

export interface SessionUser {
  id: string;
  username: string;
  nickname: string;
  role: number;
  path: string;
  lang: string;
  timeZone: string;
  sessionId: string;
  /** What the account must do before anything else (change its password, enrol in two-factor sign-in). */
  restriction: SignInRestriction | null;
  /** A "try it out" session: read-only except commands to the demo's own devices (http/operations.ts). */
  demo: boolean;
  /** Permissions an administrator granted beyond the role's (permission_grants, 0820_customer_map.sql). */
  grants: string[];
}

/** The settings row of sign-in security (the administrator's "require two-factor sign-in" switch). */
export const LOGIN_SECURITY_SETTING = 'login_security';
export interface LoginSecuritySetting {
  requireTotpForStaff?: boolean;
}

/**
 * The only API routes a restricted session may call: its own state, logging out, changing the password and
 * the two-factor enrolment. Every other call answers 403 with what must be done first.
 */
const RESTRICTED_ALLOWED: Record<SignInRestriction, ReadonlySet<string>> = {
  changePassword: new Set(['/api/session', '/api/logout', '/api/user/checkUserPassword', '/api/user/checkPassword']),
  // The administrator who turns the requirement on keeps the switch (to turn it off again) while enrolling.
  enrolTotp: new Set([
    '/api/session',
    '/api/logout',
    '/api/user/totp/setup',
    '/api/user/totp/enable',
    '/api/system/loginSecurity',
  ]),
};
const RESTRICTION_MESSAGE: Record<SignInRestriction, string> = {
  changePassword: 'account.mustChangePassword',
  enrolTotp: 'account.totpEnrolRequired',
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(
  ctx: AppContext,
  reply: FastifyReply,
  req: FastifyRequest,
  userId: string,
  remember: boolean,
  demo = false,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const ttlMs = remember ? ctx.config.rememberDays * 86_400_000 : ctx.config.sessionHours * 3_600_000;
  const expires = new Date(Date.now() + ttlMs);
  await ctx.db
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      user_id: userId,
      remember,
      ip: req.ip,
      user_agent: String(req.headers['user-agent'] ?? '').slice(0, 300),
      expires_at: expires,
      demo,
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    // A remembered session survives closing the browser; otherwise the cookie lives for the browser session.
    ...(remember ? { expires } : {}),
  });
}

export async function loadSession(ctx: AppContext, req: FastifyRequest): Promise<SessionUser | null> {
  const token = req.cookies[SESSION_COOKIE];
  if (!token) return null;
  const row = await ctx.db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as sid',
      's.expires_at',
      's.demo',
      'u.id',
      'u.username',
      'u.nickname',
      'u.role',
      'u.path',
      'u.lang',
      'u.time_zone',
      'u.must_change_password',
      'u.totp_enabled',
      sql<LoginSecuritySetting | null>`(SELECT value FROM settings WHERE key = ${LOGIN_SECURITY_SETTING})`.as(
        'security',
      ),
      sql<string[] | null>`(SELECT array_agg(g.permission) FROM permission_grants g WHERE g.user_id = u.id)`.as(
        'grants',
      ),
    ])
    .where('s.id', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  if (row.expires_at.getTime() <= Date.now()) {
    await ctx.db.deleteFrom('sessions').where('id', '=', row.sid).execute();
    return null;
  }
  const restriction = signInRestriction({
    role: row.role,
    mustChangePassword: row.must_change_password,
    totpEnabled: row.totp_enabled,
    requireTotpForStaff: row.security?.requireTotpForStaff === true,
  });
  if (restriction && !req.routeOptions.config?.public && req.routeOptions.url?.startsWith('/api/')) {
    if (!RESTRICTED_ALLOWED[restriction].has(req.routeOptions.url)) {
      throw new ApiError(403, RESTRICTION_MESSAGE[restriction], 403);
    }
  }
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    role: row.role,
    path: row.path,
    lang: row.lang,
    timeZone: row.time_zone,
    sessionId: row.sid,
    restriction,
    demo: row.demo,
    grants: row.grants ?? [],
  };
}

export async function destroySession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = req.cookies[SESSION_COOKIE];
  if (token) await ctx.db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Ends every session of a user (password change, account deletion). */
export async function revokeUserSessions(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
