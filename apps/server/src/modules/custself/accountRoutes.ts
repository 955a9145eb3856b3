// "My account" for every role (issue 16): one's own name, phone, e-mail, language, default map and alarm
// sound. The password is changed with /user/checkUserPassword, which every signed-in account may call.
// Also the administrator's screen of special-brand accounts (spec §6: settings key special_brand_users).
import { isAgent, LANGUAGES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { text } from '../agent/schema.ts';
import { SPECIAL_BRAND_KEY } from '../device/settings.ts';

const meSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.number().int(),
  nickname: z.string(),
  telephone: z.string(),
  email: z.string(),
  lang: z.string(),
  mapType: z.string().describe("default map type of the web ('' = the site's default)"),
  alarmSound: z.boolean(),
});

const specialAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  role: z.number().int(),
});

async function readMe(ctx: AppContext, id: string) {
  const row = await ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'nickname', 'telephone', 'email', 'lang', 'map_type', 'alarm_sound'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    id: String(row.id),
    username: row.username,
    role: row.role,
    nickname: row.nickname,
    telephone: row.telephone,
    email: row.email,
    lang: row.lang,
    mapType: row.map_type,
    alarmSound: row.alarm_sound,
  };
}

/** The ids of the special-brand accounts (settings table), in their stored order. */
export async function specialBrandIds(ctx: AppContext): Promise<number[]> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SPECIAL_BRAND_KEY)
    .executeTakeFirst();
  const ids = z.array(z.number().int()).safeParse((row?.value as { ids?: unknown } | undefined)?.ids);
  return ids.success ? ids.data : [];
}

export async function accountSelfRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/user/me',
    {
      schema: {
        tags: ['user'],
        summary: 'My account: the caller’s own name, phone, e-mail, language, default map and alarm sound (any role)',
        response: { 200: envelopeOf(meSchema) },
      },
    },
    async (req) => ok(await readMe(ctx, req.user!.id)),
  );

  app.post(
    '/user/updateMe',
    {
      schema: {
        tags: ['user'],
        summary:
          'My account: change one’s own name, phone, e-mail, language, default map or alarm sound (any role; the password: /user/checkUserPassword)',
        body: z.object({
          nickname: text(50).optional(),
          telephone: z
            .string()
            .trim()
            .regex(/^[0-9+\-() ]{0,20}$/)
            .optional(),
          email: z.union([z.literal(''), z.string().trim().email().max(100)]).optional(),
          lang: z.enum(LANGUAGES).optional(),
          mapType: z
            .string()
            .regex(/^[A-Za-z]{0,20}$/)
            .optional(),
          alarmSound: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(meSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const patch = {
        ...(b.nickname !== undefined ? { nickname: b.nickname } : {}),
        ...(b.telephone !== undefined ? { telephone: b.telephone } : {}),
        ...(b.email !== undefined ? { email: b.email } : {}),
        ...(b.lang !== undefined ? { lang: b.lang } : {}),
        ...(b.mapType !== undefined ? { map_type: b.mapType } : {}),
        ...(b.alarmSound !== undefined ? { alarm_sound: b.alarmSound } : {}),
      };
      if (Object.keys(patch).length > 0)
        await ctx.db
          .updateTable('users')
          .set({ ...patch, updated_at: new Date() })
          .where('id', '=', req.user!.id)
          .execute();
      return ok(await readMe(ctx, req.user!.id), translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/system/specialBrand/find',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary:
          'Special-brand accounts (spec §6): agents below them do not see not-activated devices nor devices offline 3 days or more, unless in the no-process set (admin)',
        body: z.object({}).optional(),
        response: { 200: envelopeOf(z.array(specialAccountSchema)) },
      },
    },
    async () => {
      const ids = await specialBrandIds(ctx);
      if (ids.length === 0) return ok([]);
      const rows = await ctx.db
        .selectFrom('users')
        .select(['id', 'username', 'nickname', 'role'])
        .where(
          'id',
          'in',
          ids.map((i) => String(i)),
        )
        .orderBy('id')
        .execute();
      return ok(rows.map((r) => ({ ...r, id: String(r.id) })));
    },
  );

  app.post(
    '/system/specialBrand/save',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary:
          'Set the special-brand accounts (admin): agent accounts by id; the rule applies to them and to every agent below them',
        body: z.object({
          ids: z.array(z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()])).max(500),
        }),
        response: { 200: envelopeOf(z.array(specialAccountSchema)) },
      },
    },
    async (req) => {
      const ids = [...new Set(req.body.ids.map((i) => String(i)))];
      const rows =
        ids.length === 0
          ? []
          : await ctx.db
              .selectFrom('users')
              .select(['id', 'username', 'nickname', 'role'])
              .where('id', 'in', ids)
              .orderBy('id')
              .execute();
      if (rows.length !== ids.length || rows.some((r) => !isAgent(r.role)))
        throw badRequest('invalidParam', { field: 'ids' });
      const value = JSON.stringify({ ids: rows.map((r) => Number(r.id)) });
      await ctx.db
        .insertInto('settings')
        .values({ key: SPECIAL_BRAND_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
        .execute();
      return ok(
        rows.map((r) => ({ ...r, id: String(r.id) })),
        translate('action.save.success', callerLang(req)),
      );
    },
  );
}
