// Device-management settings kept in the settings table: batch limits (spec §5: "parameterised"), the
// special-brand accounts (spec §6), and the service terms mirrored into SQL for the activation trigger.
import { belongsToGroup, isAgent, SERVICE_TERMS } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ancestorsOf } from '../user/presenter.ts';

export const BATCH_LIMITS_KEY = 'batch_limits';
export const SPECIAL_BRAND_KEY = 'special_brand_users';

export const batchLimitsSchema = z.object({
  /** Devices per batch operation (transfer, reset, icon, time, host, type, command). */
  devicesPerOperation: z.number().int().min(1).max(100_000),
  /** Rows per device export. */
  devicesPerExport: z.number().int().min(1).max(1_000_000),
  /** Rows per agent export. */
  agentsPerExport: z.number().int().min(1).max(1_000_000),
  /** Days per export of dated data. */
  daysPerExport: z.number().int().min(1).max(3660),
  /** Devices per import. */
  devicesPerImport: z.number().int().min(1).max(1_000_000),
});
export type BatchLimits = z.infer<typeof batchLimitsSchema>;

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  devicesPerOperation: 1000,
  devicesPerExport: 50_000,
  agentsPerExport: 20_000,
  daysPerExport: 31,
  devicesPerImport: 20_000,
};

export async function batchLimits(ctx: AppContext): Promise<BatchLimits> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', BATCH_LIMITS_KEY)
    .executeTakeFirst();
  const parsed = batchLimitsSchema.partial().safeParse(row?.value ?? {});
  return { ...DEFAULT_BATCH_LIMITS, ...(parsed.success ? parsed.data : {}) };
}

export async function saveBatchLimits(ctx: AppContext, limits: BatchLimits): Promise<void> {
  const value = JSON.stringify(limits);
  await ctx.db
    .insertInto('settings')
    .values({ key: BATCH_LIMITS_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
    .execute();
}

/** True when the caller is an agent of a special brand (by its own id or an ancestor's, spec §6). */
export async function isSpecialBrandAgent(
  ctx: AppContext,
  caller: { id: string; role: number; path: string },
): Promise<boolean> {
  if (!isAgent(caller.role)) return false;
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SPECIAL_BRAND_KEY)
    .executeTakeFirst();
  const ids = z.array(z.number().int()).safeParse((row?.value as { ids?: unknown } | undefined)?.ids);
  if (!ids.success || ids.data.length === 0) return false;
  return belongsToGroup({ id: Number(caller.id), ancestors: ancestorsOf(caller.path) }, ids.data);
}

/** Mirrors the domain's service terms into SQL (service_terms) so the activation trigger uses the same terms. */
export async function syncServiceTerms(ctx: AppContext): Promise<void> {
  for (const term of SERVICE_TERMS) {
    await ctx.db
      .insertInto('service_terms')
      .values({ code: term.code, months: term.months })
      .onConflict((oc) => oc.column('code').doUpdateSet({ months: term.months }))
      .execute();
  }
  const codes = SERVICE_TERMS.map((t) => t.code);
  await ctx.db.deleteFrom('service_terms').where('code', 'not in', codes).execute();
}
