// /api/user/* — the foundation's findById; the accounts area adds the rest.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { presentUser, userInfoSchema } from './presenter.ts';

export async function userRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/user/findById',
    {
      schema: {
        tags: ['user'],
        summary: 'One user inside the caller’s hierarchy',
        body: z.object({ id: z.union([z.string().regex(/^\d+$/), z.number().int().positive()]).transform(String) }),
        response: { 200: envelopeOf(userInfoSchema) },
      },
    },
    async (req) => {
      const user = await ctx.db
        .selectFrom('users')
        .select(['id', 'username', 'nickname', 'role', 'path', 'parent_id', 'telephone', 'email', 'address', 'mark', 'lang', 'time_zone', 'expire_at'])
        .where('id', '=', req.body.id)
        .executeTakeFirst();
      // A user outside the caller's subtree answers the same as a missing one would for a non-admin: no permission.
      if (!user) {
        if (req.user!.role !== 1) throw noPermission();
        throw notFound();
      }
      if (!reachesPath(req.user!, user.path)) throw noPermission();
      return ok(presentUser(user));
    },
  );
}
