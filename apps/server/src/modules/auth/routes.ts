// POST /api/login, /api/login/demo, /api/logout (spec §8 login codes).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, fail, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { createSession, destroySession } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { presentUser, userInfoSchema } from '../user/presenter.ts';
import { verifyPassword } from './password.ts';
import { LoginRateLimiter } from './rateLimit.ts';

const loginBody = z.object({
  username: z.string().max(100),
  password: z.string().max(200),
  remember: z.boolean().optional(),
});

const loginData = z.object({ userInfo: userInfoSchema, permissions: z.array(z.string()) }).nullable();

export const DEMO_SETTING = 'demo_account';

export async function authRoutes(app: App, ctx: AppContext): Promise<void> {
  const limiter = new LoginRateLimiter();
  const { permissionsOf } = await import('../../http/access.ts');

  const userColumns = [
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
  ] as const;

  app.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Log in; meta.code 200 success, 201 user name error, 202 wrong password, 208 expired, 209 wrong username or password',
        body: loginBody,
        response: { 200: envelopeOf(loginData), 429: envelopeOf(z.null()) },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const username = req.body.username.trim();
      const wait = limiter.retryAfter(username, req.ip);
      if (wait > 0) {
        return reply
          .status(429)
          .send(fail(429, translate('loginRateLimited', lang, { minutes: Math.ceil(wait / 60_000) })) as never);
      }
      // 201 "user name error" answers a name that cannot be an account at all. An unknown account and a
      // wrong password both answer 209, so the login form does not reveal which user names exist.
      if (username === '' || /\s/.test(username)) return fail(201, translate('login201', lang)) as never;
      const user = await ctx.db
        .selectFrom('users')
        .select(userColumns)
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .executeTakeFirst();
      if (!user || !(await verifyPassword(req.body.password, user.password_hash))) {
        limiter.recordFailure(username, req.ip);
        return fail(209, translate('login209', lang)) as never;
      }
      if (user.expire_at && user.expire_at.getTime() < Date.now())
        return fail(208, translate('login208', lang)) as never;
      limiter.recordSuccess(username);
      await createSession(ctx, reply, req, user.id, req.body.remember === true);
      return ok(
        { userInfo: presentUser(user), permissions: permissionsOf(user.role, ctx.config.appEnv) },
        translate('login200', lang),
      );
    },
  );

  app.post(
    '/login/demo',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in to the demo account ("try it out"), when the demo account is enabled',
        response: { 200: envelopeOf(loginData) },
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
        .select(userColumns)
        .where('username', '=', demo.username)
        .executeTakeFirst();
      if (!user) return fail(403, translate('demoDisabled', lang)) as never;
      // A read-only session: visitors leave the demo as the next visitor finds it (http/operations.ts).
      await createSession(ctx, reply, req, user.id, false, true);
      return ok(
        { userInfo: presentUser(user), permissions: permissionsOf(user.role, ctx.config.appEnv) },
        translate('login200', lang),
      );
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
        summary: 'The current session user, or null',
        response: { 200: envelopeOf(loginData) },
      },
    },
    async (req) => {
      if (!req.user) return ok(null);
      const user = await ctx.db
        .selectFrom('users')
        .select(userColumns)
        .where('id', '=', req.user.id)
        .executeTakeFirstOrThrow();
      return ok({ userInfo: presentUser(user), permissions: req.permissions });
    },
  );
}
