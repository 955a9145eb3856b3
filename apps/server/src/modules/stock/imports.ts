// Factory stock imports (spec §7 stock: importImei, importDevice) as background jobs with progress.
// - importImei puts IMEIs on the preset list (stock state "unused" until a device row exists).
// - importDevice brings produced devices into stock: a device row without an owner ("in stock", the one
//   meaning of packages/domain factory/stock.ts), with model, ICCID and batch on the stock record. The
//   factory checks (preset, factory test record, QC pass) always apply here.
import {
  DEVICE_MODELS,
  type DeviceModel,
  factoryText,
  isIccid,
  isImeiLike,
  normalizeIccid,
  stockVerdict,
} from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { ProgressFn } from '../agent/jobs.ts';
import { deviceChanged } from '../device/events.ts';
import { lookupFacts } from './facts.ts';
import { type ImportOutcome, newOutcome, refuse } from './outcome.ts';
import type { SheetRow } from './sheet.ts';

const WRITE_CHUNK = 5000;
const PRESET_CHUNK = 10_000;

export interface PresetInput {
  model?: string;
  batch?: string;
}

export interface DeviceStockInput {
  /** Model for rows without one. */
  model?: string;
  batch?: string;
  /** Device protocol type of the new device rows (spec §3: 0 other, 1 808, 2 GT06, 3, 4). */
  protocol: number;
}

/** A model by name (case-insensitive) or code. */
export function findModel(value: string): DeviceModel | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  return DEVICE_MODELS.find((m) => m.name.toLowerCase() === v || String(m.code) === v);
}

export async function importPresetImeis(
  ctx: AppContext,
  rows: readonly SheetRow[],
  input: PresetInput,
  lang: string,
  progress: ProgressFn,
): Promise<ImportOutcome> {
  const out = newOutcome();
  const seen = new Set<string>();
  const candidates: { line: number; imei: string }[] = [];
  for (const row of rows) {
    const imei = row.cells[0];
    if (!isImeiLike(imei)) refuse(out, lang, row.line, row.cells.join(' '), 'invalid');
    else if (seen.has(imei)) refuse(out, lang, row.line, imei, 'duplicate');
    else {
      seen.add(imei);
      candidates.push({ line: row.line, imei });
    }
  }
  // One statement per chunk checks and writes: an IMEI with a device row is "already stocked", one already on
  // the preset list is refused by the conflict clause; only the refused IMEIs are looked up to tell which.
  const model = input.model?.trim() ?? '';
  const batch = input.batch?.trim() ?? '';
  const done = rows.length - candidates.length;
  await progress(done);
  for (let i = 0; i < candidates.length; i += PRESET_CHUNK) {
    const chunk = candidates.slice(i, i + PRESET_CHUNK);
    const imeis = chunk.map((c) => c.imei);
    try {
      const written = await sql<{ imei: string }>`
        INSERT INTO stock_records (imei, model, batch, preset)
        SELECT t.imei, ${model}, ${batch}, true FROM unnest(${imeis}::text[]) AS t(imei)
        WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.terminal_id = t.imei)
        ON CONFLICT (imei) DO UPDATE SET preset = true,
          model = CASE WHEN stock_records.model = '' THEN EXCLUDED.model ELSE stock_records.model END,
          batch = CASE WHEN stock_records.batch = '' THEN EXCLUDED.batch ELSE stock_records.batch END
          WHERE NOT stock_records.preset
        RETURNING imei`.execute(ctx.db);
      const got = new Set(written.rows.map((r) => r.imei));
      const refused = chunk.filter((c) => !got.has(c.imei));
      const facts = await lookupFacts(
        ctx,
        refused.map((c) => c.imei),
      );
      out.success += got.size;
      for (const c of refused)
        refuse(out, lang, c.line, c.imei, facts.devices.has(c.imei) ? 'alreadyStocked' : 'alreadyPreset');
    } catch (err) {
      console.error('preset import chunk failed', err);
      for (const c of chunk) refuse(out, lang, c.line, c.imei, 'writeFailed');
    }
    await progress(done + Math.min(i + PRESET_CHUNK, candidates.length));
  }
  return out;
}

interface DeviceLine {
  line: number;
  imei: string;
  model: DeviceModel;
  iccid: string;
}

export async function importStockDevices(
  ctx: AppContext,
  rows: readonly SheetRow[],
  input: DeviceStockInput,
  lang: string,
  progress: ProgressFn,
): Promise<ImportOutcome> {
  const out = newOutcome();
  const seen = new Set<string>();
  const lines: DeviceLine[] = [];
  for (const row of rows) {
    const [imei = '', modelCell = '', iccidCell = ''] = row.cells;
    const modelName = modelCell || input.model || '';
    const model = findModel(modelName);
    const iccid = iccidCell ? normalizeIccid(iccidCell) : '';
    if (!isImeiLike(imei) || (iccidCell !== '' && !isIccid(iccidCell))) {
      refuse(out, lang, row.line, row.cells.join(' '), 'invalid');
    } else if (!model) {
      refuse(out, lang, row.line, imei, 'invalid', factoryText('stock.unknownModel', lang, { model: modelName }));
    } else if (seen.has(imei)) refuse(out, lang, row.line, imei, 'duplicate');
    else {
      seen.add(imei);
      lines.push({ line: row.line, imei, model, iccid });
    }
  }
  const facts = await lookupFacts(
    ctx,
    lines.map((l) => l.imei),
    { preset: true, qc: true },
  );
  const accepted: DeviceLine[] = [];
  for (const l of lines) {
    const verdict = stockVerdict(
      {
        valid: true,
        repeated: false,
        stocked: facts.devices.has(l.imei),
        preset: facts.preset.has(l.imei),
        qcPass: facts.qc.get(l.imei) ?? null,
      },
      true,
    );
    if (verdict === 'ok') accepted.push(l);
    else refuse(out, lang, l.line, l.imei, verdict);
  }
  const done = rows.length - accepted.length;
  await progress(done);
  const batch = input.batch?.trim() ?? '';
  const stocked: string[] = [];
  for (let i = 0; i < accepted.length; i += WRITE_CHUNK) {
    const chunk = accepted.slice(i, i + WRITE_CHUNK);
    try {
      const inserted = await ctx.db.transaction().execute(async (trx) => {
        const imeis = chunk.map((l) => l.imei);
        const types = chunk.map((l) => l.model.code);
        const iccids = chunk.map((l) => l.iccid);
        const models = chunk.map((l) => l.model.name);
        const rowsIn = await sql<{ terminal_id: string }>`
          INSERT INTO devices (terminal_id, user_id, device_type, protocol, iccid)
          SELECT imei, NULL, t, ${input.protocol}, iccid
            FROM unnest(${imeis}::text[], ${types}::int[], ${iccids}::text[]) AS u(imei, t, iccid)
          ON CONFLICT (terminal_id) DO NOTHING
          RETURNING terminal_id`.execute(trx);
        const got = rowsIn.rows.map((r) => r.terminal_id);
        await sql`
          UPDATE stock_records s SET in_at = now(), model = u.model, iccid = u.iccid,
            batch = CASE WHEN ${batch} = '' THEN s.batch ELSE ${batch} END
          FROM unnest(${imeis}::text[], ${models}::text[], ${iccids}::text[]) AS u(imei, model, iccid)
          WHERE s.imei = u.imei AND s.imei = ANY(${got}::text[])`.execute(trx);
        await sql`
          UPDATE sim_cards c SET imei = u.imei, bound_at = now(), updated_at = now()
          FROM unnest(${imeis}::text[], ${iccids}::text[]) AS u(imei, iccid)
          WHERE u.iccid <> '' AND c.iccid = u.iccid AND u.imei = ANY(${got}::text[])`.execute(trx);
        return new Set(got);
      });
      for (const l of chunk) {
        if (inserted.has(l.imei)) {
          out.success++;
          stocked.push(l.imei);
        } else refuse(out, lang, l.line, l.imei, 'alreadyStocked');
      }
    } catch (err) {
      console.error('stock device import chunk failed', err);
      for (const l of chunk) refuse(out, lang, l.line, l.imei, 'writeFailed');
    }
    await progress(done + Math.min(i + WRITE_CHUNK, accepted.length));
  }
  if (stocked.length > 0) deviceChanged(ctx, { terminalIDs: stocked });
  return out;
}
