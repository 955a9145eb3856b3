// POST /api/login, /api/login/totp, /api/login/demo, /api/logout, GET /api/session (spec §8 login codes).
// A correct password opens a session, or, for an account with two-factor sign-in, a ticket that the second
// step (/login/totp, the authenticator code) exchanges for the session. Failures are throttled per
// (account, address) in the database (throttle.ts).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, fail, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { createSession, destroySession } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import {
  completePasswordStep,
  hashTicket,
  loginAnswer,
  passwordMatches,
  sessionAnswer,
  sessionData,
  TICKET_EXPIRED_CODE,
  TICKET_MAX_ATTEMPTS,
  TOTP_WRONG_CODE,
  throttled,
  USER_LOGIN_COLUMNS,
} from './signIn.ts';
import { accountKey, LoginThrottle } from './throttle.ts';
import { matchTotp } from './totp.ts';
import { totpRoutes } from './totpRoutes.ts';
import { openTotpSecret, recoveryCodeHash, useRecoveryCode } from './totpSecrets.ts';

const loginBody = z.object({
  username: z.string().max(100),
  password: z.string().max(200),
  remember: z.boolean().optional(),
});
const rateLimited = envelopeOf(z.object({ retryAfterSeconds: z.number().int() }).nullable());

export const DEMO_SETTING = 'demo_account';

export async function authRoutes(app: App, ctx: AppContext): Promise<void> {
  const throttle = new LoginThrottle(ctx);
  await totpRoutes(app, ctx);

  app.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Log in; meta.code 200 success, 201 user name error, 208 expired, 209 wrong username or password, 210 the authenticator code is needed next (POST /login/totp with data.ticket); 429 too many failures from this address',
        body: loginBody,
        response: { 200: envelopeOf(loginAnswer), 429: rateLimited },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const username = req.body.username.trim();
      // 201 "user name error" answers a name that cannot be an account at all. An unknown account and a
      // wrong password both answer 209 after the same scrypt work, so the form does not reveal which names exist.
      if (username === '' || /\s/.test(username)) return fail(201, translate('login201', lang)) as never;
      const key = accountKey(username);
      if (await throttled(throttle, key, req, reply)) return reply;
      const user = await ctx.db
        .selectFrom('users')
        .select(USER_LOGIN_COLUMNS)
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .executeTakeFirst();
      if (!(await passwordMatches(user, req.body.password)) || !user) {
        await throttle.recordFailure(key, req.ip, req.log);
        return fail(209, translate('login209', lang)) as never;
      }
      if (user.expire_at && user.expire_at.getTime() < Date.now())
        return fail(208, translate('login208', lang)) as never;
      await throttle.recordSuccess(key, req.ip);
      return completePasswordStep(ctx, req, reply, user, req.body.remember === true, req.body.password);
    },
  );

  app.post(
    '/login/totp',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Second sign-in step: the authenticator code (or one of the account’s one-time recovery codes, XXXX-XXXX-XXXX-XXXX) for the ticket of a correct password; meta.code 200 session opened, 211 wrong code, 212 ticket unknown or expired (log in again)',
        body: z.object({ ticket: z.string().max(100), code: z.string().max(20) }),
        response: { 200: envelopeOf(sessionData.nullable()), 429: rateLimited },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const ticket = await ctx.db
        .selectFrom('login_tickets as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.id as ticketId', 't.remember', 't.attempts', 't.expires_at', 'u.totp_secret', 'u.totp_last_step'])
        .select(USER_LOGIN_COLUMNS.map((c) => `u.${c}` as const))
        .where('t.id', '=', hashTicket(req.body.ticket))
        .executeTakeFirst();
      if (!ticket || ticket.expires_at.getTime() <= Date.now() || !ticket.totp_secret) {
        return fail(TICKET_EXPIRED_CODE, translate('login.ticketExpired', lang)) as never;
      }
      const key = accountKey(ticket.username);
      if (await throttled(throttle, key, req, reply)) return reply;
      const step = matchTotp(
        openTotpSecret(ticket.totp_secret),
        req.body.code,
        Date.now(),
        Number(ticket.totp_last_step),
      );
      // A recovery code instead of the authenticator's: used up here (a code works once), then the session opens.
      if (
        step === null &&
        recoveryCodeHash(req.body.code) &&
        (await useRecoveryCode(ctx.db, ticket.id, req.body.code))
      ) {
        req.log.warn({ userId: ticket.id }, 'two-factor sign-in with a recovery code');
        await ctx.db.deleteFrom('login_tickets').where('id', '=', ticket.ticketId).execute();
        await throttle.recordSuccess(key, req.ip);
        await createSession(ctx, reply, req, ticket.id, ticket.remember);
        return ok(await sessionAnswer(ctx, ticket), translate('login200', lang));
      }
      if (step === null) {
        await throttle.recordFailure(key, req.ip, req.log);
        const used = await ctx.db
          .updateTable('login_tickets')
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('id', '=', ticket.ticketId)
          .returning('attempts')
          .executeTakeFirst();
        if (!used || used.attempts >= TICKET_MAX_ATTEMPTS) {
          await ctx.db.deleteFrom('login_tickets').where('id', '=', ticket.ticketId).execute();
        }
        return fail(TOTP_WRONG_CODE, translate('login.totpWrong', lang)) as never;
      }
      // The step is stored only if it is later than the last accepted one: two processes cannot both use a code.
      const claimed = await ctx.db
        .updateTable('users')
        .set({ totp_last_step: String(step) })
        .where('id', '=', ticket.id)
        .where('totp_last_step', '<', String(step))
        .executeTakeFirst();
      await ctx.db.deleteFrom('login_tickets').where('id', '=', ticket.ticketId).execute();
      if (Number(claimed.numUpdatedRows) === 0)
        return fail(TOTP_WRONG_CODE, translate('login.totpWrong', lang)) as never;
      await throttle.recordSuccess(key, req.ip);
      await createSession(ctx, reply, req, ticket.id, ticket.remember);
      return ok(await sessionAnswer(ctx, ticket), translate('login200', lang));
    },
  );

  app.post(
    '/login/demo',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in to the demo account ("try it out"), when the demo account is enabled',
        response: { 200: envelopeOf(sessionData.nullable()) },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const setting = await ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', DEMO_SETTING)
        .executeTakeFirst();
      const demo = (setting?.value ?? null) as { username?: string; enabled?: boolean } | null;
      if (!demo?.enabled || !demo.username) return fail(403, translate('demoDisabled', lang)) as never;
      const user = await ctx.db
        .selectFrom('users')
        .select(USER_LOGIN_COLUMNS)
        .where('username', '=', demo.username)
        .executeTakeFirst();
      if (!user) return fail(403, translate('demoDisabled', lang)) as never;
      // A read-only session: visitors leave the demo as the next visitor finds it (http/operations.ts).
      await createSession(ctx, reply, req, user.id, false, true);
      return ok(await sessionAnswer(ctx, user), translate('login200', lang));
    },
  );

  app.post(
    '/logout',
    {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Log out (ends this session)', response: { 200: envelopeOf(z.null()) } },
    },
    async (req, reply) => {
      await destroySession(ctx, req, reply);
      return ok(null);
    },
  );

  app.get(
    '/session',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'The current session user, or null; data.restriction says what the account must do before anything else',
        response: { 200: envelopeOf(sessionData.nullable()) },
      },
    },
    async (req) => {
      if (!req.user) return ok(null);
      const user = await ctx.db
        .selectFrom('users')
        .select(USER_LOGIN_COLUMNS)
        .where('id', '=', req.user.id)
        .executeTakeFirstOrThrow();
      return ok(await sessionAnswer(ctx, user));
    },
  );
}
