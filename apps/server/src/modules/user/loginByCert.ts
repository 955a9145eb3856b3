// POST /api/loginByCert: log in to a device account by its IMEI (spec §2 /loginByCert). The account is the
// end-user account named by the IMEI (see deviceAccounts.ts); its password is required, and failures are
// rate-limited per IMEI and per address like the normal login. Answers with the login codes of spec §8.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { permissionsOf } from '../../http/access.ts';
import { envelopeOf, fail, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { createSession } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { verifyPassword } from '../auth/password.ts';
import { LoginRateLimiter } from '../auth/rateLimit.ts';
import { presentUser, userInfoSchema } from './presenter.ts';

const loginData = z.object({ userInfo: userInfoSchema, permissions: z.array(z.string()) }).nullable();

export async function loginByCertRoutes(app: App, ctx: AppContext): Promise<void> {
  const limiter = new LoginRateLimiter();

  app.post(
    '/loginByCert',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in to a device account by IMEI and password (codes as /login: 200, 201, 208, 209)',
        body: z.object({
          terminalID: z.string().max(32),
          password: z.string().max(200),
          remember: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(loginData), 429: envelopeOf(z.null()) },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const imei = req.body.terminalID.trim();
      const wait = limiter.retryAfter(`imei:${imei}`, req.ip);
      if (wait > 0) {
        return reply
          .status(429)
          .send(fail(429, translate('loginRateLimited', lang, { minutes: Math.ceil(wait / 60_000) })) as never);
      }
      if (!/^[A-Za-z0-9]{10,15}$/.test(imei)) return fail(201, translate('login201', lang)) as never;
      const user = await ctx.db
        .selectFrom('users as u')
        .innerJoin('devices as d', 'd.user_id', 'u.id')
        .select([
          'u.id',
          'u.username',
          'u.nickname',
          'u.role',
          'u.path',
          'u.parent_id',
          'u.telephone',
          'u.email',
          'u.address',
          'u.mark',
          'u.lang',
          'u.time_zone',
          'u.expire_at',
          'u.password_hash',
        ])
        .where('d.terminal_id', '=', imei)
        .where((eb) => eb(eb.fn('lower', ['u.username']), '=', imei.toLowerCase()))
        .executeTakeFirst();
      if (!user || !(await verifyPassword(req.body.password, user.password_hash))) {
        limiter.recordFailure(`imei:${imei}`, req.ip);
        return fail(209, translate('login209', lang)) as never;
      }
      if (user.expire_at && user.expire_at.getTime() < Date.now())
        return fail(208, translate('login208', lang)) as never;
      limiter.recordSuccess(`imei:${imei}`);
      await createSession(ctx, reply, req, user.id, req.body.remember === true);
      return ok(
        { userInfo: presentUser(user), permissions: permissionsOf(user.role, ctx.config.appEnv) },
        translate('login200', lang),
      );
    },
  );
}
