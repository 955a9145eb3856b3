// /api/user/* writes: create, edit, move (transferAgent), delete, rename, change role, reset password, clear.
import { isRoleId } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { dateInput, idBody, idSchema, text } from '../agent/schema.ts';
import { deviceChanged } from '../device/events.ts';
import {
  changeRole,
  clearSessions,
  createUser,
  deleteUser,
  moveUser,
  renameUser,
  resetPassword,
  updateUser,
} from './service.ts';

const roleSchema = z.number().int().refine(isRoleId, { message: 'unknown role' });

/** Profile fields an account form may send (spec §3). */
const profileFields = {
  nickname: text(50).optional(),
  telephone: text(30).optional(),
  email: text(254).optional(),
  address: text(200).optional(),
  mark: text(500).optional(),
  providerName: text(100).optional(),
  providerLinkman: text(50).optional(),
  providerTelephone: text(30).optional(),
  expireAt: dateInput.nullable().optional(),
};

const done = envelopeOf(z.null());

export async function userManageRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/user/insertUser',
    {
      config: { permission: needs('agentAdd') },
      schema: {
        tags: ['user'],
        summary:
          'Create an account under an agent of the caller’s subtree (default: under the caller). Without a password a random one is generated, answered once in data.password, and must be changed at first sign-in',
        body: z.object({
          username: z.string().max(50),
          password: z.string().max(64).optional(),
          confirmPassword: z.string().max(64).optional(),
          parentId: idSchema.optional(),
          role: roleSchema,
          ...profileFields,
        }),
        response: { 200: envelopeOf(z.object({ id: z.string(), password: z.string().nullable() })) },
      },
    },
    async (req) => {
      const created = await createUser(ctx, req.user!, req.body);
      return ok(created, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/updateUser',
    {
      config: { permission: needs('agentEdit') },
      schema: {
        tags: ['user'],
        summary: 'Edit an account’s profile (itself or one below it; only a superior changes the expiry)',
        body: z.object({
          id: idSchema,
          ...profileFields,
          lang: z.enum(['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my']).optional(),
          timeZone: text(64).optional(),
        }),
        response: { 200: done },
      },
    },
    async (req) => {
      const { id, ...patch } = req.body;
      await updateUser(ctx, req.user!, id, patch);
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/transferAgent',
    {
      config: { permission: needs('agentTransfer') },
      schema: {
        tags: ['user'],
        summary: 'Move an account (with everything below it) under another agent: {id, user_id: new parent}',
        body: z.object({ id: idSchema, user_id: idSchema }),
        response: { 200: done },
      },
    },
    async (req) => {
      await moveUser(ctx, req.user!, req.body.id, req.body.user_id);
      deviceChanged(ctx, {});
      return ok(null, translate('action.transfer.success', callerLang(req)));
    },
  );

  app.post(
    '/user/deleteUser',
    {
      config: { permission: needs('agentDelete') },
      schema: {
        tags: ['user'],
        summary: 'Delete an account that has no sub-accounts and no devices',
        body: idBody,
        response: { 200: done },
      },
    },
    async (req) => {
      await deleteUser(ctx, req.user!, req.body.id);
      return ok(null, translate('action.delete.success', callerLang(req)));
    },
  );

  app.post(
    '/user/deleteAllUser',
    {
      config: { permission: needs('agentDelete') },
      schema: {
        tags: ['user'],
        summary: 'Delete several accounts; each is checked on its own and refusals are listed',
        body: z.object({ ids: z.array(idSchema).min(1).max(500) }),
        response: {
          200: envelopeOf(
            z.object({
              deleted: z.array(z.string()),
              refused: z.array(z.object({ id: z.string(), message: z.string() })),
            }),
          ),
        },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const deleted: string[] = [];
      const refused: { id: string; message: string }[] = [];
      // Children before parents, so a selection holding a whole branch can go in one call.
      const ids = [...new Set(req.body.ids)].sort((a, b) => Number(b) - Number(a));
      for (const id of ids) {
        try {
          await deleteUser(ctx, req.user!, id);
          deleted.push(id);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          refused.push({ id, message: translate(err.key, lang, err.params) });
        }
      }
      return ok({ deleted, refused });
    },
  );

  app.post(
    '/user/updateUserName',
    {
      config: { permission: needs('agentUsername') },
      schema: {
        tags: ['user'],
        summary: 'Change the username of an account below the caller (must stay unique)',
        body: z.object({ id: idSchema, username: z.string().max(50) }),
        response: { 200: done },
      },
    },
    async (req) => {
      await renameUser(ctx, req.user!, req.body.id, req.body.username);
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/updateRole',
    {
      config: { permission: needs('agentEdit') },
      schema: {
        tags: ['user'],
        summary: 'Change the role of an account below the caller (to a role the caller may give)',
        body: z.object({ id: idSchema, role: roleSchema }),
        response: { 200: done },
      },
    },
    async (req) => {
      await changeRole(ctx, req.user!, req.body.id, req.body.role);
      return ok(null, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/resetPassword',
    {
      config: { permission: needs('agentResetPassword') },
      schema: {
        tags: ['user'],
        summary:
          'Give an account a new random password, answered once in data.password; the account must change it at its next sign-in, and its sessions end',
        body: idBody,
        response: { 200: envelopeOf(z.object({ password: z.string() })) },
      },
    },
    async (req) => {
      const password = await resetPassword(ctx, req.user!, req.body.id);
      return ok({ password }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/user/clear',
    {
      config: { permission: needs('agentResetPassword') },
      schema: {
        tags: ['user'],
        summary: 'Log an account below the caller out everywhere (ends all its sessions)',
        body: idBody,
        response: { 200: envelopeOf(z.object({ sessions: z.number().int() })) },
      },
    },
    async (req) => ok({ sessions: await clearSessions(ctx, req.user!, req.body.id) }),
  );
}
