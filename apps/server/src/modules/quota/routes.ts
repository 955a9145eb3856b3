// Import quota endpoints (spec §7): userRelationimportNum, findImportNumRecord, addAgentImportNum.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idBody, idSchema, pageParams } from '../agent/schema.ts';
import { giveQuota, quotaRecords, quotaSummary, setQuota } from './service.ts';

const summarySchema = z.object({
  userId: z.string(),
  unlimited: z.boolean(),
  remaining: z.number().int(),
  received: z.number().int(),
  given: z.number().int(),
  used: z.number().int(),
});

const recordSchema = z.object({
  id: z.string(),
  kind: z.enum(['grant', 'give', 'revoke', 'reclaim', 'import', 'set']),
  amount: z.number().int(),
  balance: z.number().int(),
  counterpartId: z.string().nullable(),
  counterpartName: z.string().nullable(),
  operatorName: z.string().nullable(),
  note: z.string(),
  createdAt: z.string(),
});

export async function quotaRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/user/userRelationimportNum',
    {
      config: { permission: needs('importQuotaView') },
      schema: {
        tags: ['quota'],
        summary: 'Import quota of an account: remaining, received, given, used',
        body: idBody,
        response: { 200: envelopeOf(summarySchema) },
      },
    },
    async (req) => ok(await quotaSummary(ctx, req.user!, req.body.id)),
  );

  app.post(
    '/user/findImportNumRecord',
    {
      config: { permission: needs('importQuotaView') },
      schema: {
        tags: ['quota'],
        summary: 'Usage records of an account’s import quota, newest first',
        body: z.object({ id: idSchema, ...pageParams }),
        response: { 200: envelopeOf(pageOf(recordSchema)) },
      },
    },
    async (req) => ok(await quotaRecords(ctx, req.user!, req.body.id, req.body.pageNum, req.body.pageSize)),
  );

  app.post(
    '/user/addAgentImportNum',
    {
      config: { permission: needs('importQuota') },
      schema: {
        tags: ['quota'],
        summary:
          'Give imports to an agent below the caller ({id, num}); a negative num takes unused imports back. ' +
          'fromId transfers from another agent of the subtree; set (administrator) sets the remainder outright.',
        body: z.object({
          id: idSchema,
          num: z.number().int().min(-1_000_000).max(1_000_000),
          fromId: idSchema.optional(),
          set: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(z.object({ remaining: z.number().int() })) },
      },
    },
    async (req) => {
      const { id, num, fromId, set } = req.body;
      const remaining = set
        ? await setQuota(ctx, req.user!, id, num)
        : await giveQuota(ctx, req.user!, id, num, fromId ?? req.user!.id);
      return ok({ remaining }, translate('action.save.success', callerLang(req)));
    },
  );
}
