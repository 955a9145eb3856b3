// The System screen's settings besides map keys: the maintenance notice (public read for the web, admin
// update), the demo account behind the login page's "try it out" button, and API keys for integrations.
import { ROLES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { permissionsOf } from '../../http/access.ts';
import { envelopeOf, ok, pageQuery } from '../../http/envelope.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import { createSession } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { DEMO_SETTING } from '../auth/routes.ts';
import { localizedError } from '../fence/localized.ts';
import { readSetting, writeSetting } from '../map/settings.ts';
import { presentUser, userInfoSchema } from '../user/presenter.ts';
import { newApiKey, useApiKey } from './apiKeys.ts';
import { clearNotice, isNoticeActive, readNotice, saveNotice } from './notice.ts';
import {
  addApiKeyBody,
  apiKeySchema,
  demoAccountSchema,
  idSchema,
  noticeSchema,
  updateDemoAccountBody,
  updateNoticeBody,
} from './schema.ts';
import { NOTICE_TEXTS } from './texts.ts';

const ADMIN = { permission: ['main:system_config'] };

const userInfoColumns = [
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
] as const;

export async function noticeRoutes(app: App, ctx: AppContext): Promise<void> {
  // ---- maintenance notice -------------------------------------------------------------------------------
  app.get(
    '/notice',
    {
      config: { public: true },
      schema: {
        tags: ['notice'],
        summary: 'The maintenance notice while it is to be shown (until its end time), else null',
        response: { 200: envelopeOf(noticeSchema.nullable()) },
      },
    },
    async () => {
      const notice = await readNotice(ctx);
      return ok(isNoticeActive(notice, Date.now()) ? notice : null);
    },
  );

  app.post(
    '/notice/find',
    {
      config: ADMIN,
      schema: {
        tags: ['notice'],
        summary: 'The stored maintenance notice, shown or not',
        response: { 200: envelopeOf(noticeSchema.extend({ active: z.boolean() }).nullable()) },
      },
    },
    async () => {
      const notice = await readNotice(ctx);
      return ok(notice ? { ...notice, active: isNoticeActive(notice, Date.now()) } : null);
    },
  );

  app.post(
    '/notice/update',
    {
      config: ADMIN,
      schema: {
        tags: ['notice'],
        summary: 'Set the maintenance notice {title, content, startsAt?, endsAt, showOnStart?}',
        body: updateNoticeBody,
        response: { 200: envelopeOf(noticeSchema) },
      },
    },
    async (req) => {
      const { title, content, startsAt, endsAt, showOnStart } = req.body;
      if (endsAt.getTime() <= Date.now()) throw localizedError(req, NOTICE_TEXTS, 'endsInPast');
      if (startsAt && startsAt.getTime() >= endsAt.getTime()) throw localizedError(req, NOTICE_TEXTS, 'startsAfterEnd');
      return ok(await saveNotice(ctx, { title, content, startsAt: startsAt ?? null, endsAt, showOnStart }));
    },
  );

  app.post(
    '/notice/delete',
    {
      config: ADMIN,
      schema: { tags: ['notice'], summary: 'Remove the maintenance notice', response: { 200: envelopeOf(z.null()) } },
    },
    async () => {
      await clearNotice(ctx);
      return ok(null);
    },
  );

  // ---- demo account (System → demoAccountSet) -------------------------------------------------------------
  app.post(
    '/system/demoAccount/find',
    {
      config: ADMIN,
      schema: {
        tags: ['system'],
        summary: 'The account used by the login page’s “try it out” button',
        response: { 200: envelopeOf(demoAccountSchema) },
      },
    },
    async () => {
      const demo = await readSetting<{ username?: string; enabled?: boolean }>(ctx, DEMO_SETTING);
      return ok({ username: demo?.username ?? '', enabled: demo?.enabled === true });
    },
  );

  app.post(
    '/system/demoAccount/update',
    {
      config: ADMIN,
      schema: {
        tags: ['system'],
        summary: 'Choose the demo account (an end-user account) and turn the button on or off',
        body: updateDemoAccountBody,
        response: { 200: envelopeOf(demoAccountSchema) },
      },
    },
    async (req) => {
      const { username, enabled } = req.body;
      const user = await ctx.db
        .selectFrom('users')
        .select(['username', 'role'])
        .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
        .executeTakeFirst();
      if (!user) throw localizedError(req, NOTICE_TEXTS, 'demoUserMissing', 400, { username });
      // Anyone may log in as the demo account without a password: it must not be able to manage anything.
      if (user.role !== ROLES.user) throw localizedError(req, NOTICE_TEXTS, 'demoUserRole');
      await writeSetting(ctx, DEMO_SETTING, { username: user.username, enabled });
      return ok({ username: user.username, enabled });
    },
  );

  // ---- API keys (System → apiKey) ---------------------------------------------------------------------------
  app.post(
    '/system/apiKey/find',
    {
      config: ADMIN,
      schema: {
        tags: ['system'],
        summary: 'API keys, newest first (the key itself is shown only when it is created)',
        body: z.object(pageQuery).default({ pageNum: 1, pageSize: 15 }),
        response: { 200: envelopeOf(z.object({ total: z.number().int(), list: z.array(apiKeySchema) })) },
      },
    },
    async (req) => {
      const { pageNum, pageSize } = req.body;
      const total = await ctx.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await ctx.db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .select([
          'k.id',
          'k.name',
          'k.prefix',
          'k.user_id',
          'u.username',
          'k.created_at',
          'k.last_used_at',
          'k.revoked_at',
        ])
        .orderBy('k.id', 'desc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          prefix: r.prefix,
          userId: r.user_id,
          username: r.username,
          createdAt: r.created_at.toISOString(),
          lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
          revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
        })),
      });
    },
  );

  app.post(
    '/system/apiKey/add',
    {
      config: ADMIN,
      schema: {
        tags: ['system'],
        summary: 'Create an API key for an account; the answer carries the key once',
        body: addApiKeyBody,
        response: { 200: envelopeOf(apiKeySchema.extend({ key: z.string() })) },
      },
    },
    async (req) => {
      const me = req.user;
      if (!me) throw new Error('session required');
      const userId = req.body.userId ?? me.id;
      const owner = await ctx.db
        .selectFrom('users')
        .select(['id', 'username', 'path'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!owner || !reachesPath(me, owner.path)) throw localizedError(req, NOTICE_TEXTS, 'userNotReachable', 404);
      const { key, hash, prefix } = newApiKey();
      const row = await ctx.db
        .insertInto('api_keys')
        .values({ user_id: owner.id, name: req.body.name, prefix, key_hash: hash, created_by: me.id })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      return ok({
        id: row.id,
        name: req.body.name,
        prefix,
        userId: owner.id,
        username: owner.username,
        createdAt: row.created_at.toISOString(),
        lastUsedAt: null,
        revokedAt: null,
        key,
      });
    },
  );

  app.post(
    '/system/apiKey/delete',
    {
      config: ADMIN,
      schema: {
        tags: ['system'],
        summary: 'Revoke an API key: logins with it are refused (sessions it already opened run until they expire)',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ revoked: z.number().int() })) },
      },
    },
    async (req) => {
      const row = await ctx.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', req.body.id)
        .where('revoked_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!row) {
        const exists = await ctx.db
          .selectFrom('api_keys')
          .select('id')
          .where('id', '=', req.body.id)
          .executeTakeFirst();
        if (!exists) throw localizedError(req, NOTICE_TEXTS, 'apiKeyNotFound', 404);
      }
      return ok({ revoked: row ? 1 : 0 });
    },
  );

  app.post(
    '/system/apiKey/login',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Open a session with an API key (sets the carhere_sid cookie, as /api/login does)',
        body: z.object({ key: z.string().min(1).max(200) }),
        response: { 200: envelopeOf(z.object({ userInfo: userInfoSchema, permissions: z.array(z.string()) })) },
      },
    },
    async (req, reply) => {
      const userId = await useApiKey(ctx, req.body.key.trim());
      if (!userId) throw localizedError(req, NOTICE_TEXTS, 'apiKeyInvalid', 401);
      const user = await ctx.db
        .selectFrom('users')
        .select(userInfoColumns)
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      if (user.expire_at && user.expire_at.getTime() < Date.now()) {
        throw localizedError(req, NOTICE_TEXTS, 'apiKeyUserExpired', 401);
      }
      await createSession(ctx, reply, req, user.id, false);
      return ok({ userInfo: presentUser(user), permissions: permissionsOf(user.role, ctx.config.appEnv) });
    },
  );
}
