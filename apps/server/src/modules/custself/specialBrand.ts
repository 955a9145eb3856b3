// The special-brand rule of spec §6 as a SQL condition over devices d + device_state s: a special-brand agent
// does not see not-activated devices nor devices offline 3 days or more (or that never reported), unless the
// IMEI is in the caller's no-process set (built from search in the web, session key 'nis'). The same rule as
// the reference isHiddenForSpecialBrand of testFixtures.ts, which the tests compare it with.
import { OFFLINE_HIDE_AFTER_MS } from '@carhere/domain';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { isSpecialBrandAgent } from '../device/settings.ts';

export function specialBrandVisible(noProcess: readonly string[], now: Date): RawBuilder<SqlBool> {
  const keep = noProcess.length > 0 ? sql<SqlBool>`d.terminal_id = ANY(${[...noProcess]})` : sql<SqlBool>`false`;
  const cutoff = new Date(now.getTime() - OFFLINE_HIDE_AFTER_MS);
  return sql<SqlBool>`(${keep} OR coalesce(s.online, false) OR (d.activated_at IS NOT NULL AND COALESCE(s.last_seen, s.pos_time) > ${cutoff}::timestamptz))`;
}

/**
 * The special-brand condition for a caller's device lists and exports (over devices d + device_state s), or null
 * when the caller is not a special-brand agent (nothing hidden).
 */
export async function specialBrandFilter(
  ctx: AppContext,
  caller: { id: string; role: number; path: string },
  noProcess: readonly string[] | undefined,
  now = new Date(),
): Promise<RawBuilder<SqlBool> | null> {
  return (await isSpecialBrandAgent(ctx, caller)) ? specialBrandVisible(noProcess ?? [], now) : null;
}

/** The no-process set a request may carry (spec §9 session key nis), bounded like the web's copy. */
export const noProcessSchema = z.array(z.string().max(32)).max(10_000);
