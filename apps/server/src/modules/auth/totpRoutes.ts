// Two-factor sign-in for every account: POST /user/totp/setup (a new secret, as an otpauth:// URI for the QR
// code), /user/totp/enable (confirmed by a first code), /user/totp/disable (needs a code). The secret is never
// answered again after enrolment. GET/POST /system/loginSecurity: the administrator's "require two-factor
// sign-in for administrators and agents" switch.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { LOGIN_SECURITY_SETTING } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { requireTotpForStaff } from './signIn.ts';
import { accountKey, LoginThrottle } from './throttle.ts';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp.ts';

export const TOTP_ISSUER = 'Carhere';
const codeBody = z.object({ code: z.string().max(20) });

export async function totpRoutes(app: App, ctx: AppContext): Promise<void> {
  const throttle = new LoginThrottle(ctx);

  /** Checks a code for the caller, throttled like a password; answers the matched step. */
  async function checkCode(req: FastifyRequest, secret: string, code: string, lastStep: number): Promise<number> {
    const key = accountKey(req.user!.username);
    const wait = await throttle.retryAfter(key, req.ip);
    if (wait > 0) throw new ApiError(429, 'login.rateLimited', 429, { seconds: Math.ceil(wait / 1000) });
    const step = matchTotp(secret, code, Date.now(), lastStep);
    if (step === null) {
      await throttle.recordFailure(key, req.ip, req.log);
      throw new ApiError(400, 'login.totpWrong', 400);
    }
    return step;
  }

  const account = (id: string) =>
    ctx.db
      .selectFrom('users')
      .select(['id', 'username', 'totp_enabled', 'totp_secret', 'totp_pending_secret', 'totp_last_step'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  app.post(
    '/user/totp/setup',
    {
      schema: {
        tags: ['user'],
        summary:
          'Start two-factor sign-in for one’s own account: a new secret (base32) and its otpauth:// URI for an authenticator app; confirm with /user/totp/enable',
        response: { 200: envelopeOf(z.object({ secret: z.string(), uri: z.string() })) },
      },
    },
    async (req) => {
      const me = await account(req.user!.id);
      if (me.totp_enabled) throw new ApiError(400, 'account.totpAlreadyEnabled', 400);
      const secret = generateTotpSecret();
      await ctx.db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', me.id).execute();
      return ok({ secret, uri: otpauthUri(TOTP_ISSUER, me.username, secret) });
    },
  );

  app.post(
    '/user/totp/enable',
    {
      schema: {
        tags: ['user'],
        summary: 'Turn two-factor sign-in on with a first code from the authenticator app',
        body: codeBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const me = await account(req.user!.id);
      if (me.totp_enabled) throw new ApiError(400, 'account.totpAlreadyEnabled', 400);
      if (!me.totp_pending_secret) throw new ApiError(400, 'account.totpNotPending', 400);
      const step = await checkCode(req, me.totp_pending_secret, req.body.code, 0);
      await ctx.db
        .updateTable('users')
        .set({
          totp_secret: me.totp_pending_secret,
          totp_pending_secret: null,
          totp_enabled: true,
          totp_last_step: String(step),
          updated_at: new Date(),
        })
        .where('id', '=', me.id)
        .execute();
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/totp/disable',
    {
      schema: {
        tags: ['user'],
        summary: 'Turn two-factor sign-in off for one’s own account (needs a current code)',
        body: codeBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const me = await account(req.user!.id);
      if (!me.totp_enabled || !me.totp_secret) throw new ApiError(400, 'account.totpNotEnabled', 400);
      await checkCode(req, me.totp_secret, req.body.code, Number(me.totp_last_step));
      await ctx.db
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: false, updated_at: new Date() })
        .where('id', '=', me.id)
        .execute();
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  const settingSchema = z.object({ requireTotpForStaff: z.boolean() });

  app.get(
    '/system/loginSecurity',
    {
      config: { permission: needs('systemConfig') },
      schema: {
        tags: ['system'],
        summary: 'Sign-in security settings: whether administrators and agents must use two-factor sign-in',
        response: { 200: envelopeOf(settingSchema) },
      },
    },
    async () => ok({ requireTotpForStaff: await requireTotpForStaff(ctx) }),
  );

  app.post(
    '/system/loginSecurity',
    {
      config: { permission: needs('systemConfig') },
      schema: {
        tags: ['system'],
        summary:
          'Require two-factor sign-in for administrators and agents: such an account without it must enrol at its next sign-in before anything else',
        body: settingSchema,
        response: { 200: envelopeOf(settingSchema) },
      },
    },
    async (req) => {
      const value = { requireTotpForStaff: req.body.requireTotpForStaff };
      await ctx.db
        .insertInto('settings')
        .values({ key: LOGIN_SECURITY_SETTING, value: JSON.stringify(value) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
        .execute();
      return ok(value, translate('action.save.success', callerLang(req)));
    },
  );
}
