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
const IN_FLIGHT = 2;

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
  // Chunks of 10,000 rows, each written by one multi-row statement; two chunks in flight at once, so that
  // PostgreSQL works on one while the next one's arrays are being sent.
  const chunks: CardRow[][] = [];
  for (let i = 0; i < cards.length; i += CHUNK) chunks.push(cards.slice(i, i + CHUNK));
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++];
      try {
        await writeCards(ctx, chunk);
        out.success += chunk.length;
      } catch (err) {
        console.error('card import chunk failed', err);
        for (const c of chunk) refuse(out, lang, c.line, c.iccid, 'writeFailed');
      }
      written += chunk.length;
      await progress(done + written);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, chunks.length) }, worker));
  // Refused lines in file order, whichever chunk finished first.
  out.rejected.sort((x, y) => x.line - y.line);
  return out;
}

/**
 * Writes one chunk in a single INSERT … SELECT FROM unnest(…) (the columns sent as nine arrays): new cards are
 * inserted, known ones updated; a card without an IMEI on its row is bound to the device reporting its ICCID.
 */
async function writeCards(ctx: AppContext, chunk: readonly CardRow[]): Promise<void> {
  const col = <K extends keyof CardRow>(k: K) => chunk.map((c) => c[k]);
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
}
