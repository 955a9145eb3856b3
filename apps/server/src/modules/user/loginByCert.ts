// POST /api/loginByCert: log in to a device account by its IMEI (spec §2 /loginByCert). The account is the
// end-user account named by the IMEI (see deviceAccounts.ts); its password is required, and failures are
// rate-limited per IMEI and per address like the normal login. Answers with the login codes of spec §8.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, fail } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { completePasswordStep, loginAnswer, passwordMatches, throttled, USER_LOGIN_COLUMNS } from '../auth/signIn.ts';
import { LoginThrottle } from '../auth/throttle.ts';

export async function loginByCertRoutes(app: App, ctx: AppContext): Promise<void> {
  const throttle = new LoginThrottle(ctx);

  app.post(
    '/loginByCert',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Log in to a device account by IMEI and password (codes as /login: 200, 201, 208, 209, 210 authenticator code next)',
        body: z.object({
          terminalID: z.string().max(32),
          password: z.string().max(200),
          remember: z.boolean().optional(),
        }),
        response: {
          200: envelopeOf(loginAnswer),
          429: envelopeOf(z.object({ retryAfterSeconds: z.number().int() }).nullable()),
        },
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const imei = req.body.terminalID.trim();
      if (!/^[A-Za-z0-9]{10,15}$/.test(imei)) return fail(201, translate('login201', lang)) as never;
      const key = `imei:${imei.toLowerCase()}`;
      if (await throttled(throttle, key, req, reply)) return reply;
      const user = await ctx.db
        .selectFrom('users as u')
        .innerJoin('devices as d', 'd.user_id', 'u.id')
        .select(USER_LOGIN_COLUMNS.map((c) => `u.${c}` as const))
        .where('d.terminal_id', '=', imei)
        .where((eb) => eb(eb.fn('lower', ['u.username']), '=', imei.toLowerCase()))
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
}
