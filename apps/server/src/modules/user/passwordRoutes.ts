// Passwords: the caller's own change (checkUserPassword), the default-password check (GET checkPassword),
// resetting the passwords of device accounts by IMEI (updatePwdByTerminalIds), and the device username change
// (updateDeviceUsername, permission main:device_username).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idSchema } from '../agent/schema.ts';
import { renameDeviceAccount, resetDeviceAccountPasswords } from './deviceAccounts.ts';
import { changeOwnPassword, hasDefaultPassword } from './service.ts';

export async function userPasswordRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/user/checkUserPassword',
    {
      schema: {
        tags: ['user'],
        summary: 'Change one’s own password: the current one is checked, the new one confirmed; other sessions end',
        body: z.object({
          oldPassword: z.string().max(200),
          password: z.string().max(200),
          confirmPassword: z.string().max(200),
        }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const b = req.body;
      await changeOwnPassword(ctx, req.user!, b.oldPassword, b.password, b.confirmPassword);
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  app.get(
    '/user/checkPassword',
    {
      schema: {
        tags: ['user'],
        summary:
          'Whether an account (default: the caller) still has a password someone else set (to be changed at its next sign-in)',
        querystring: z.object({ id: idSchema.optional() }),
        response: { 200: envelopeOf(z.object({ isDefault: z.boolean() })) },
      },
    },
    async (req) => ok({ isDefault: await hasDefaultPassword(ctx, req.user!, req.query.id ?? req.user!.id) }),
  );

  app.post(
    '/user/updatePwdByTerminalIds',
    {
      config: { permission: needs('deviceAccountPassword') },
      schema: {
        tags: ['user'],
        summary:
          'Give device accounts (accounts named by an IMEI of the caller’s subtree) new random passwords, answered once per IMEI; each must be changed at the next sign-in',
        body: z.object({ terminalIds: z.array(z.string().trim().min(1).max(20)).min(1).max(1000) }),
        response: {
          200: envelopeOf(
            z.object({
              updated: z.array(z.string()),
              notFound: z.array(z.string()),
              passwords: z.array(z.object({ terminalId: z.string(), password: z.string() })),
            }),
          ),
        },
      },
    },
    async (req) => ok(await resetDeviceAccountPasswords(ctx, req.user!, req.body.terminalIds)),
  );

  app.post(
    '/user/updateDeviceUsername',
    {
      config: { permission: needs('deviceAccountUsername') },
      schema: {
        tags: ['user'],
        summary:
          'Change the username of a device’s account: the end-user account (role user) of the caller’s subtree that owns the device; the name must stay unique. Answers the former and the new name',
        body: z.object({ terminalID: z.string().trim().min(1).max(20), username: z.string().max(50) }),
        response: { 200: envelopeOf(z.object({ id: z.string(), from: z.string(), to: z.string() })) },
      },
    },
    async (req) =>
      ok(
        await renameDeviceAccount(ctx, req.user!, req.body.terminalID, req.body.username),
        translate('action.save.success', callerLang(req)),
      ),
  );
}
