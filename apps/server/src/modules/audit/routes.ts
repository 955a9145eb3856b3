// POST /api/audit/find — the audit log for admins (System → audit log): who wrote what, when, from where, with
// before/after of expiries, owners, roles, passwords and deletions. Filters: user (id or name), operation,
// target, time range; newest first, paged.
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { boundedDate } from '../../http/input.ts';
import type { App } from '../../http/types.ts';

const findBody = z.object({
  /** An account id, or a user name (exact, case-insensitive). */
  user: z.string().trim().max(50).optional(),
  /** 'resetPassword', '/api/user/resetPassword' or 'POST /api/user/resetPassword': operations containing it. */
  operation: z.string().trim().max(100).optional(),
  /** A target id: a user id, a terminal id / IMEI, or a row id of the operation's area. */
  target: z.string().trim().max(60).optional(),
  startTime: boundedDate.optional(),
  endTime: boundedDate.optional(),
  pageNum: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(15),
});

const changeSchema = z.object({
  kind: z.enum(['user', 'device']),
  id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  username: z.string(),
  role: z.number().nullable(),
  ip: z.string(),
  operation: z.string(),
  status: z.number(),
  targets: z.record(z.string(), z.array(z.string())),
  changes: z.array(changeSchema).nullable(),
});

export async function auditRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/audit/find',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary:
          'Audit log of every write through the API (admins): filter by user, operation, target and time; newest first',
        body: findBody.default({ pageNum: 1, pageSize: 15 }),
        response: { 200: envelopeOf(pageOf(auditEntrySchema)) },
      },
    },
    async (req) => {
      const { user, operation, target, startTime, endTime, pageNum, pageSize } = req.body;
      if (startTime && endTime && startTime.getTime() > endTime.getTime())
        throw badRequest('invalidParam', { field: 'endTime' });
      let q = ctx.db.selectFrom('audit_log');
      if (user) {
        q = /^\d{1,18}$/.test(user)
          ? q.where((eb) =>
              eb.or([eb('user_id', '=', user), eb(eb.fn('lower', ['username']), '=', user.toLowerCase())]),
            )
          : q.where((eb) => eb(eb.fn('lower', ['username']), '=', user.toLowerCase()));
      }
      if (operation) q = q.where('operation', 'ilike', `%${operation.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      if (target) {
        // 'user:12' matches that key exactly; a bare id matches it under any kind (user, terminal, fence …).
        q = target.includes(':')
          ? q.where(sql<boolean>`target_keys @> ARRAY[${target}]::text[]`)
          : q.where(
              sql<boolean>`EXISTS (SELECT 1 FROM unnest(target_keys) AS k WHERE substr(k, strpos(k, ':') + 1) = ${target})`,
            );
      }
      if (startTime) q = q.where('at', '>=', startTime);
      if (endTime) q = q.where('at', '<=', endTime);
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          id: String(r.id),
          at: r.at.toISOString(),
          userId: r.user_id === null ? null : String(r.user_id),
          username: r.username,
          role: r.role,
          ip: r.ip,
          operation: r.operation,
          status: r.status,
          targets: r.targets ?? {},
          changes: r.changes ?? null,
        })),
      });
    },
  );
}
