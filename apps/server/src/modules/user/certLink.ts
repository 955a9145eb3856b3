// The seller's sign-in link for a device account (spec §2 /loginByCert, issue 16): instead of handing over the
// device account's password, a seller (main:device_reset_password, the device within its subtree) makes a link
// /loginByCert?imei=…&link=…; the customer who opens it chooses the account's password and is signed in on that
// device. The link is sealed with the server key (AES-GCM, secretBox), names the IMEI, expires (1 to 30 days) and
// is bound to the account's password at the time it was made, so it works once: choosing a password, or any
// other password change (a reset, a sale), ends it. Wrong links are throttled per IMEI like passwords.
import { createHash } from 'node:crypto';
import { passwordsMatch } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, fail, ok } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { openSecret, sealSecret } from '../../security/secretBox.ts';
import { needs } from '../agent/permissions.ts';
import { checkNewPassword, enforce } from '../agent/rules.ts';
import { hashPassword } from '../auth/password.ts';
import { completePasswordStep, loginAnswer, throttled, USER_LOGIN_COLUMNS } from '../auth/signIn.ts';
import { LoginThrottle } from '../auth/throttle.ts';
import { findDeviceAccounts } from './deviceAccounts.ts';

const DAY_MS = 86_400_000;
/** meta.code of a link that is not valid, expired or already used. */
const LINK_INVALID_CODE = 213;

const IMEI = /^[A-Za-z0-9]{10,15}$/;

/** A short fingerprint of the stored password hash: the link dies when the password changes. */
const fingerprint = (passwordHash: string) =>
  createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

const linkClaims = z.object({ v: z.literal(1), t: z.string(), e: z.number(), h: z.string() });

function readLink(link: string): z.infer<typeof linkClaims> | null {
  try {
    const claims = linkClaims.safeParse(JSON.parse(openSecret(link)));
    return claims.success ? claims.data : null;
  } catch {
    return null; // not sealed by this server's key, or tampered with
  }
}

export async function certLinkRoutes(app: App, ctx: AppContext): Promise<void> {
  const throttle = new LoginThrottle(ctx);

  app.post(
    '/user/certLink',
    {
      config: { permission: needs('deviceAccountPassword') },
      schema: {
        tags: ['user'],
        summary:
          'A sign-in link for a device account of the caller’s subtree (/loginByCert?imei=…&link=…): whoever opens it chooses the account’s password and is signed in on the device; valid for 1–30 days and once',
        body: z.object({
          terminalId: z.string().trim().regex(IMEI),
          days: z.number().int().min(1).max(30).default(7),
        }),
        response: {
          200: envelopeOf(z.object({ terminalId: z.string(), path: z.string(), expiresAt: z.string() })),
        },
      },
    },
    async (req) => {
      const [account] = await findDeviceAccounts(ctx, req.user!, [req.body.terminalId]);
      if (!account) throw notFound();
      const row = await ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      const expires = Date.now() + req.body.days * DAY_MS;
      const link = sealSecret(
        JSON.stringify({ v: 1, t: account.username.toLowerCase(), e: expires, h: fingerprint(row.password_hash) }),
      );
      const query = new URLSearchParams({ imei: account.username, link });
      return ok({
        terminalId: account.username,
        path: `/loginByCert?${query.toString()}`,
        expiresAt: new Date(expires).toISOString(),
      });
    },
  );

  app.post(
    '/loginByCert/link',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Sign in to a device account with the seller’s link, choosing its password (codes as /login; 213 the link is not valid, expired or used)',
        body: z.object({
          terminalID: z.string().max(32),
          link: z.string().max(1000),
          password: z.string().max(200),
          confirmPassword: z.string().max(200),
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
      if (!IMEI.test(imei)) return fail(201, translate('login201', lang)) as never;
      const key = `imei:${imei.toLowerCase()}`;
      if (await throttled(throttle, key, req, reply)) return reply;
      const claims = readLink(req.body.link);
      const user = await ctx.db
        .selectFrom('users as u')
        .innerJoin('devices as d', 'd.user_id', 'u.id')
        .select(USER_LOGIN_COLUMNS.map((c) => `u.${c}` as const))
        .where('d.terminal_id', '=', imei)
        .where((eb) => eb(eb.fn('lower', ['u.username']), '=', imei.toLowerCase()))
        .executeTakeFirst();
      if (
        !claims ||
        !user ||
        claims.t !== imei.toLowerCase() ||
        claims.e < Date.now() ||
        claims.h !== fingerprint(user.password_hash)
      ) {
        await throttle.recordFailure(key, req.ip, req.log);
        return fail(LINK_INVALID_CODE, translate('login.linkInvalid', lang)) as never;
      }
      if (user.expire_at && user.expire_at.getTime() < Date.now())
        return fail(208, translate('login208', lang)) as never;
      // The customer's own password: the rules of every new password; the link is spent with the old one.
      enforce(passwordsMatch(req.body.password, req.body.confirmPassword));
      checkNewPassword(req.body.password);
      const passwordHash = await hashPassword(req.body.password);
      await ctx.db
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          must_change_password: false,
          password_changed_at: new Date(),
          updated_at: new Date(),
        })
        .where('id', '=', user.id)
        .execute();
      await ctx.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      await throttle.recordSuccess(key, req.ip);
      return completePasswordStep(
        ctx,
        req,
        reply,
        { ...user, password_hash: passwordHash, must_change_password: false },
        false,
        req.body.password,
      );
    },
  );
}
