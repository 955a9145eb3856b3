// SIM card import (spec §7 /card/import): rows ICCID, IMSI, MSISDN, operator, plan, activation date, expiry
// date, state [, IMEI] from text, csv or xlsx, as a job with progress. A card already known is updated. A card
// is bound to the IMEI given on its row, else to the device that reports (or was stocked with) its ICCID.
import { isIccid, normalizeIccid } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { CardState } from '../../db/tables/factoryProd.ts';
import type { ProgressFn } from '../agent/jobs.ts';
import { type ImportOutcome, newOutcome, refuse } from '../stock/outcome.ts';
import type { SheetRow } from '../stock/sheet.ts';

export const CARD_STATES: readonly CardState[] = ['inactive', 'active', 'suspended', 'cancelled'];
const CHUNK = 10_000;

/** 'YYYY-MM-DD' from 2026-11-25, 2026/11/25 or 20261125; '' stays null; undefined: malformed. */
export function cardDate(value: string | undefined): string | null | undefined {
  const v = (value ?? '').trim();
  if (v === '') return null;
  const m = /^(\d{4})[-/.]?(\d{1,2})[-/.]?(\d{1,2})/.exec(v);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

interface CardRow {
  line: number;
  iccid: string;
  imsi: string;
  msisdn: string;
  operator: string;
  plan: string;
  activated: string | null;
  expires: string | null;
  state: CardState;
  imei: string;
}

export async function importCards(
  ctx: AppContext,
  rows: readonly SheetRow[],
  lang: string,
  progress: ProgressFn,
): Promise<ImportOutcome> {
  const out = newOutcome();
  const seen = new Set<string>();
  const cards: CardRow[] = [];
  for (const row of rows) {
    const [iccidCell = '', imsi = '', msisdn = '', operator = '', plan = '', act, exp, stateCell = '', imei = ''] =
      row.cells;
    const activated = cardDate(act);
    const expires = cardDate(exp);
    const state = (stateCell.trim().toLowerCase() || 'active') as CardState;
    if (!isIccid(iccidCell.trim())) {
      refuse(out, lang, row.line, row.cells.join(' '), 'invalid');
      continue;
    }
    const iccid = normalizeIccid(iccidCell);
    if (activated === undefined || expires === undefined || !CARD_STATES.includes(state)) {
      refuse(out, lang, row.line, iccid, 'invalid');
    } else if (seen.has(iccid)) refuse(out, lang, row.line, iccid, 'duplicate');
    else {
      seen.add(iccid);
      cards.push({ line: row.line, iccid, imsi, msisdn, operator, plan, activated, expires, state, imei: imei.trim() });
    }
  }
  const done = rows.length - cards.length;
  await progress(done);
  for (let i = 0; i < cards.length; i += CHUNK) {
    const chunk = cards.slice(i, i + CHUNK);
    const col = <K extends keyof CardRow>(k: K) => chunk.map((c) => c[k]);
    try {
      await sql`
        INSERT INTO sim_cards AS c (iccid, imsi, msisdn, operator, plan, activated_on, expires_on, state, imei, bound_at)
        SELECT u.iccid, u.imsi, u.msisdn, u.operator, u.plan, u.act::date, u.exp::date, u.state,
          coalesce(nullif(u.imei, ''), d.terminal_id), CASE WHEN nullif(u.imei, '') IS NULL AND d.terminal_id IS NULL THEN NULL ELSE now() END
        FROM unnest(${col('iccid')}::text[], ${col('imsi')}::text[], ${col('msisdn')}::text[], ${col('operator')}::text[],
          ${col('plan')}::text[], ${col('activated')}::text[], ${col('expires')}::text[], ${col('state')}::text[], ${col('imei')}::text[])
          AS u(iccid, imsi, msisdn, operator, plan, act, exp, state, imei)
        LEFT JOIN LATERAL (SELECT terminal_id FROM devices WHERE iccid <> '' AND iccid = u.iccid LIMIT 1) d ON true
        ON CONFLICT (iccid) DO UPDATE SET imsi = EXCLUDED.imsi, msisdn = EXCLUDED.msisdn, operator = EXCLUDED.operator,
          plan = EXCLUDED.plan, activated_on = EXCLUDED.activated_on, expires_on = EXCLUDED.expires_on,
          state = EXCLUDED.state, imei = coalesce(EXCLUDED.imei, c.imei),
          bound_at = CASE WHEN EXCLUDED.imei IS DISTINCT FROM c.imei AND EXCLUDED.imei IS NOT NULL THEN now() ELSE c.bound_at END,
          updated_at = now()`.execute(ctx.db);
      out.success += chunk.length;
    } catch (err) {
      console.error('card import chunk failed', err);
      for (const c of chunk) refuse(out, lang, c.line, c.iccid, 'writeFailed');
    }
    await progress(done + Math.min(i + CHUNK, cards.length));
  }
  return out;
}
