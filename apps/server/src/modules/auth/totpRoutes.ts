// Two-factor sign-in for every account: POST /user/totp/setup (a new secret, as an otpauth:// URI for the QR
// code), /user/totp/enable (confirmed by a first code; answers the one-time recovery codes, shown once),
// /user/totp/disable (needs a code or a recovery code), /user/totp/recoveryCodes (new codes, needs a code).
// The secret is never answered again after enrolment and is sealed at rest (totpSecrets.ts).
// POST /user/totp/reset: an administrator, or an agent for an account of its subtree, turns another account's
// two-factor sign-in off (a lost phone and lost codes); the audit log records it.
// GET/POST /system/loginSecurity: the administrator's "require two-factor sign-in for administrators and agents".
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { LOGIN_SECURITY_SETTING, revokeUserSessions } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idSchema } from '../agent/schema.ts';
import { loadSubordinate } from '../agent/scope.ts';
import { requireTotpForStaff } from './signIn.ts';
import { accountKey, LoginThrottle } from './throttle.ts';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp.ts';
import {
  newRecoveryCodes,
  openTotpSecret,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
  sealTotpSecret,
  unusedRecoveryCodes,
  useRecoveryCode,
} from './totpSecrets.ts';

export const TOTP_ISSUER = 'Carhere';
const codeBody = z.object({ code: z.string().max(20) });
const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });

export async function totpRoutes(app: App, ctx: AppContext): Promise<void> {
  const throttle = new LoginThrottle(ctx);

  /**
   * Checks a code for the caller, throttled like a password; answers the matched step. With `recovery`, one of the
   * caller's unused recovery codes is accepted too (and used up); the answer is then the last step unchanged.
   */
  async function checkCode(
    req: FastifyRequest,
    sealedSecret: string,
    code: string,
    lastStep: number,
    recovery = false,
  ): Promise<number> {
    const key = accountKey(req.user!.username);
    const wait = await throttle.retryAfter(key, req.ip);
    if (wait > 0) throw new ApiError(429, 'login.rateLimited', 429, { seconds: Math.ceil(wait / 1000) });
    let step = matchTotp(openTotpSecret(sealedSecret), code, Date.now(), lastStep);
    if (step === null && recovery && recoveryCodeHash(code) && (await useRecoveryCode(ctx.db, req.user!.id, code))) {
      step = lastStep;
    }
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
      await ctx.db
        .updateTable('users')
        .set({ totp_pending_secret: sealTotpSecret(secret) })
        .where('id', '=', me.id)
        .execute();
      return ok({ secret, uri: otpauthUri(TOTP_ISSUER, me.username, secret) });
    },
  );

  app.post(
    '/user/totp/enable',
    {
      schema: {
        tags: ['user'],
        summary: `Turn two-factor sign-in on with a first code from the authenticator app; answers ${RECOVERY_CODE_COUNT} one-time recovery codes, shown this once, each usable instead of a code`,
        body: codeBody,
        response: { 200: envelopeOf(recoveryCodesAnswer) },
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
      const recoveryCodes = await newRecoveryCodes(ctx.db, me.id);
      return ok({ recoveryCodes }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/totp/recoveryCodes',
    {
      schema: {
        tags: ['user'],
        summary:
          'New one-time recovery codes for one’s own two-factor sign-in (needs a current code); the former codes stop working. Answered once',
        body: codeBody,
        response: { 200: envelopeOf(recoveryCodesAnswer.extend({ unusedBefore: z.number().int() })) },
      },
    },
    async (req) => {
      const me = await account(req.user!.id);
      if (!me.totp_enabled || !me.totp_secret) throw new ApiError(400, 'account.totpNotEnabled', 400);
      const step = await checkCode(req, me.totp_secret, req.body.code, Number(me.totp_last_step));
      await ctx.db
        .updateTable('users')
        .set({ totp_last_step: String(step) })
        .where('id', '=', me.id)
        .where('totp_last_step', '<=', String(step))
        .execute();
      const unusedBefore = await unusedRecoveryCodes(ctx.db, me.id);
      const recoveryCodes = await newRecoveryCodes(ctx.db, me.id);
      return ok({ recoveryCodes, unusedBefore }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/totp/reset',
    {
      config: { permission: needs('agentResetPassword') },
      schema: {
        tags: ['user'],
        summary:
          'Turn off two-factor sign-in of another account (admin: any; agent: accounts of its subtree), e.g. after a lost phone and lost recovery codes; its recovery codes are deleted and its sessions end. Recorded in the audit log',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ wasEnabled: z.boolean() })) },
      },
    },
    async (req) => {
      const target = await loadSubordinate(ctx, req.user!, req.body.id);
      const before = await account(target.id);
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: false, updated_at: new Date() })
          .where('id', '=', target.id)
          .execute();
        await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', target.id).execute();
        await trx.deleteFrom('login_tickets').where('user_id', '=', target.id).execute();
      });
      await revokeUserSessions(ctx, target.id);
      return ok({ wasEnabled: before.totp_enabled }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/totp/disable',
    {
      schema: {
        tags: ['user'],
        summary: 'Turn two-factor sign-in off for one’s own account (needs a current code or a recovery code)',
        body: codeBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const me = await account(req.user!.id);
      if (!me.totp_enabled || !me.totp_secret) throw new ApiError(400, 'account.totpNotEnabled', 400);
      await checkCode(req, me.totp_secret, req.body.code, Number(me.totp_last_step), true);
      await ctx.db
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: false, updated_at: new Date() })
        .where('id', '=', me.id)
        .execute();
      await ctx.db.deleteFrom('totp_recovery_codes').where('user_id', '=', me.id).execute();
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
