// Typed access to rows of the `settings` table (key → JSON value).
import type { AppContext } from '../../context.ts';

export async function readSetting<T>(ctx: AppContext, key: string): Promise<T | undefined> {
  const row = await ctx.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (row.value as T) : undefined;
}

export async function writeSetting(ctx: AppContext, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await ctx.db
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: new Date() }))
    .execute();
}

export async function deleteSetting(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('settings').where('key', '=', key).execute();
}
