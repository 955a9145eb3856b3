// What the database knows about a list of IMEIs, for the stock verdicts (packages/domain factory/stock.ts):
// device rows (stocked, owner), the preset list and the latest QC result. Looked up in chunks with = ANY.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

export const FACTORY_CHECKS_KEY = 'factory_checks';

export interface ImeiFacts {
  /** IMEI → owner id (null: in stock) for IMEIs with a device row. */
  devices: Map<string, string | null>;
  preset: Set<string>;
  /** IMEI → latest QC verdict. */
  qc: Map<string, boolean>;
}

const CHUNK = 10_000;

export async function lookupFacts(
  ctx: AppContext,
  imeis: readonly string[],
  want: { preset?: boolean; qc?: boolean } = {},
): Promise<ImeiFacts> {
  const facts: ImeiFacts = { devices: new Map(), preset: new Set(), qc: new Map() };
  for (let i = 0; i < imeis.length; i += CHUNK) {
    const chunk = imeis.slice(i, i + CHUNK);
    const devices = await sql<{ terminal_id: string; user_id: string | null }>`
      SELECT terminal_id, user_id FROM devices WHERE terminal_id = ANY(${chunk}::text[])`.execute(ctx.db);
    for (const r of devices.rows) facts.devices.set(r.terminal_id, r.user_id);
    if (want.preset) {
      const preset = await sql<{ imei: string }>`
        SELECT imei FROM stock_records WHERE preset AND imei = ANY(${chunk}::text[])`.execute(ctx.db);
      for (const r of preset.rows) facts.preset.add(r.imei);
    }
    if (want.qc) {
      const qc = await sql<{ imei: string; pass: boolean }>`
        SELECT DISTINCT ON (imei) imei, pass FROM qc_results WHERE imei = ANY(${chunk}::text[])
        ORDER BY imei, tested_at DESC, id DESC`.execute(ctx.db);
      for (const r of qc.rows) facts.qc.set(r.imei, r.pass);
    }
  }
  return facts;
}

/** The system setting "factory checks" (off on a new install): the customer import then applies them too. */
export async function factoryChecksOn(ctx: AppContext): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', FACTORY_CHECKS_KEY)
    .executeTakeFirst();
  const value = row?.value as { enabled?: unknown } | undefined;
  return value?.enabled === true;
}

export async function setFactoryChecks(ctx: AppContext, enabled: boolean): Promise<void> {
  const value = JSON.stringify({ enabled });
  await ctx.db
    .insertInto('settings')
    .values({ key: FACTORY_CHECKS_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
    .execute();
}
