// /api/user/findGrants, /api/user/updateGrants: permissions an administrator grants to one agent beyond its
// role's (spec §6: riskPoint, checkCar and bus are the administrator's unless granted to an agent). Only the
// administrator (main:system_config) reads or changes grants; only agents receive them.
import { GRANTABLE_PERMISSIONS, GRANTEE_ROLES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { idSchema } from '../location/params.ts';

const ADMIN = { permission: ['main:system_config'] };
const tags = ['user'];

const grantsSchema = z.object({
  userId: z.string(),
  role: z.number().int(),
  /** whether the account's role may hold grants */
  grantee: z.boolean(),
  permissions: z.array(z.string()),
  grantable: z.array(z.string()),
});

export async function grantRoutes(app: App, ctx: AppContext): Promise<void> {
  const answer = async (id: string) => {
    const user = await ctx.db.selectFrom('users').select(['id', 'role']).where('id', '=', id).executeTakeFirst();
    if (!user) throw notFound();
    const rows = await ctx.db
      .selectFrom('permission_grants')
      .select('permission')
      .where('user_id', '=', id)
      .orderBy('permission')
      .execute();
    return {
      userId: String(user.id),
      role: user.role,
      grantee: GRANTEE_ROLES.includes(user.role),
      permissions: rows.map((r) => r.permission),
      grantable: [...GRANTABLE_PERMISSIONS],
    };
  };

  app.post(
    '/user/findGrants',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Permissions granted to an account beyond its role (administrator only)',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(grantsSchema) },
      },
    },
    async (req) => ok(await answer(req.body.id)),
  );

  app.post(
    '/user/updateGrants',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Set the permissions granted to an agent (riskPoint, checkCar, bus); administrator only',
        body: z.object({ id: idSchema, permissions: z.array(z.enum(GRANTABLE_PERMISSIONS)).max(10) }),
        response: { 200: envelopeOf(grantsSchema) },
      },
    },
    async (req) => {
      const { id, permissions } = req.body;
      const user = await ctx.db.selectFrom('users').select(['id', 'role']).where('id', '=', id).executeTakeFirst();
      if (!user) throw notFound();
      if (!GRANTEE_ROLES.includes(user.role)) throw badRequest('invalidParam', { field: 'id' });
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('permission_grants').where('user_id', '=', id).execute();
        const unique = [...new Set(permissions)];
        if (unique.length > 0)
          await trx
            .insertInto('permission_grants')
            .values(unique.map((permission) => ({ user_id: id, permission, granted_by: req.user!.id })))
            .execute();
      });
      return ok(await answer(id));
    },
  );
}
