// Import of the NB-IoT id registry (factory idManager): rows "IMEI, NB-IoT device id" from pasted text, a csv/txt
// file or an xlsx workbook, run as a job with progress (agent/jobs.ts) and spec §8's counts. Checked and written
// per chunk in a few statements: unknown IMEIs, ids another device holds, and lines repeating an IMEI or an id of
// the same file are refused with their reason; the rest are set in one UPDATE per chunk.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { translate } from '../../http/i18n.ts';
import type { ProgressFn } from '../agent/jobs.ts';
import { deviceChanged } from '../device/events.ts';
import { terminalIdSchema } from '../location/params.ts';
import { type ImportOutcome, newOutcome, refuse } from '../stock/outcome.ts';
import type { SheetRow } from '../stock/sheet.ts';

export const NB_ID_PATTERN = /^[0-9A-Za-z_.:-]{1,64}$/;
export const NB_ID_IMPORT_MAX_ROWS = 100_000;
const CHUNK = 5000;

interface Pair {
  line: number;
  imei: string;
  nbId: string;
}

export async function importNbIds(
  ctx: AppContext,
  rows: readonly SheetRow[],
  lang: string,
  progress: ProgressFn,
): Promise<ImportOutcome> {
  const out = newOutcome();
  const imeis = new Set<string>();
  const ids = new Set<string>();
  const pairs: Pair[] = [];
  for (const row of rows) {
    const [imei = '', nbId = '', ...rest] = row.cells;
    if (rest.some((c) => c !== '') || !terminalIdSchema.safeParse(imei).success || !NB_ID_PATTERN.test(nbId)) {
      refuse(out, lang, row.line, row.cells.join(' ').slice(0, 200), 'invalid');
    } else if (imeis.has(imei) || ids.has(nbId)) refuse(out, lang, row.line, `${imei} ${nbId}`, 'duplicate');
    else {
      imeis.add(imei);
      ids.add(nbId);
      pairs.push({ line: row.line, imei, nbId });
    }
  }
  const done = rows.length - pairs.length;
  await progress(done);
  const changed: string[] = [];
  for (let i = 0; i < pairs.length; i += CHUNK) {
    const chunk = pairs.slice(i, i + CHUNK);
    try {
      const verdicts = await ctx.db.transaction().execute(async (trx) => {
        const known = await trx
          .selectFrom('devices')
          .select('terminal_id')
          .where(
            'terminal_id',
            'in',
            chunk.map((p) => p.imei),
          )
          .execute();
        const holders = await trx
          .selectFrom('devices')
          .select(['terminal_id', 'nb_device_id'])
          .where(
            'nb_device_id',
            'in',
            chunk.map((p) => p.nbId),
          )
          .execute();
        const knownSet = new Set(known.map((r) => r.terminal_id));
        const holderOf = new Map(holders.map((r) => [r.nb_device_id as string, r.terminal_id]));
        const verdictOf = (p: Pair) => {
          const holder = holderOf.get(p.nbId);
          if (!knownSet.has(p.imei)) return 'unknown' as const;
          if (holder !== undefined && holder !== p.imei) return 'taken' as const;
          return 'ok' as const;
        };
        const list = chunk.map((p) => ({ p, verdict: verdictOf(p) }));
        const accepted = list.filter((v) => v.verdict === 'ok').map((v) => v.p);
        if (accepted.length > 0) {
          await sql`UPDATE devices d SET nb_device_id = u.nb, updated_at = now()
            FROM unnest(${accepted.map((p) => p.imei)}::text[], ${accepted.map((p) => p.nbId)}::text[]) AS u(imei, nb)
            WHERE d.terminal_id = u.imei`.execute(trx);
        }
        return list;
      });
      for (const { p, verdict } of verdicts) {
        if (verdict === 'ok') {
          out.success++;
          changed.push(p.imei);
        } else if (verdict === 'unknown') {
          refuse(out, lang, p.line, p.imei, 'notFound', translate('factory.imeiUnknown', lang));
        } else refuse(out, lang, p.line, `${p.imei} ${p.nbId}`, 'duplicate', translate('factory.nbIdTaken', lang));
      }
    } catch (err) {
      console.error('NB-IoT id import chunk failed', err);
      for (const p of chunk) refuse(out, lang, p.line, p.imei, 'writeFailed');
    }
    await progress(done + Math.min(i + CHUNK, pairs.length));
  }
  deviceChanged(ctx, { terminalIDs: changed });
  return out;
}
