// Device import from IMEI lines (spec §5, §8): lines are parsed by the domain (trimmed, 10-15 letters or
// digits); 808-type protocols need exactly 11 digits; IMEIs already in the system and repeats are rejected;
// the importer's quota must cover the import ('There are not enough imports left to import these devices!').
// Rows are written in chunks, each chunk in one transaction with its quota, so progress is visible and a
// failure leaves every earlier chunk in place.
// "Already stocked" has the one meaning of packages/domain factory/stock.ts: the IMEI has a device row. When
// the system setting "factory checks" is on, the factory's rules apply too (stockVerdict): the IMEI must be on
// the preset list ("not preset"), have a factory test record ("no factory test record") and a passing latest
// QC result (else "unqualified").
import {
  duplicate808Imeis,
  hasQuotaFor,
  imei808,
  isIconType,
  isServiceTermCode,
  parseImeiLines,
  requiresElevenDigitImei,
  stockVerdict,
} from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { translate } from '../../http/i18n.ts';
import type { ProgressFn } from '../agent/jobs.ts';
import { enforce } from '../agent/rules.ts';
import { type Caller, loadReachableUser } from '../agent/scope.ts';
import { consumeQuota, remainingQuota } from '../quota/service.ts';
import { factoryChecksOn, lookupFacts } from '../stock/facts.ts';
import { deviceChanged } from './events.ts';
import { DEVICE_OWNER_ROLES } from './service.ts';
import { batchLimits } from './settings.ts';

export interface DeviceImportInput {
  /** Owner of the new devices (default: the caller), inside the caller's subtree. */
  userId?: string;
  /** IMEIs, one per line. */
  text: string;
  protocol: number;
  deviceType: number;
  serviceTerm?: number | null;
  iconType?: number;
}

/** Spec §8's import result counts, with the IMEIs behind each. */
export interface DeviceImportResult {
  success: number;
  failure: number;
  unqualified: number;
  noFactoryTest: number;
  notPreset: number;
  alreadyStocked: number;
  imported: string[];
  rejected: {
    terminalID: string;
    reason: 'unqualified' | 'alreadyStocked' | 'duplicate' | 'failure' | 'notPreset' | 'noFactoryTest' | 'qcFailed';
    message: string;
  }[];
}

export interface PreparedImport {
  ownerId: string;
  imeis: string[];
  result: DeviceImportResult;
  input: DeviceImportInput;
}

const CHUNK = 500;

/** Checks everything that can be checked before writing; throws on a request that cannot go ahead at all. */
export async function prepareImport(
  ctx: AppContext,
  caller: Caller,
  input: DeviceImportInput,
  lang: string,
): Promise<PreparedImport> {
  const owner = await loadReachableUser(ctx, caller, input.userId ?? caller.id);
  if (!DEVICE_OWNER_ROLES.includes(owner.role)) throw noPermission();
  if (input.iconType !== undefined && !isIconType(input.iconType))
    throw new ApiError(400, 'device.invalidIconType', 400);
  if (input.serviceTerm != null && !isServiceTermCode(input.serviceTerm)) {
    throw new ApiError(400, 'device.invalidServiceTerm', 400);
  }
  const parsed = parseImeiLines(input.text);
  const result: DeviceImportResult = {
    success: 0,
    failure: 0,
    unqualified: 0,
    noFactoryTest: 0,
    notPreset: 0,
    alreadyStocked: 0,
    imported: [],
    rejected: [],
  };
  const reject = (
    terminalID: string,
    reason: DeviceImportResult['rejected'][number]['reason'],
    key: string,
    params = {},
  ) => {
    result.rejected.push({ terminalID, reason, message: translate(key, lang, params) });
    if (reason === 'unqualified' || reason === 'qcFailed') result.unqualified++;
    else if (reason === 'alreadyStocked') result.alreadyStocked++;
    else if (reason === 'notPreset') result.notPreset++;
    else if (reason === 'noFactoryTest') result.noFactoryTest++;
    else result.failure++;
  };
  for (const bad of parsed.invalid) reject(bad.value, 'unqualified', 'validation.imeiLine');
  for (const dup of parsed.duplicates) reject(dup, 'duplicate', 'device.duplicateInInput', { imei: dup });

  let candidates = parsed.imeis;
  if (requiresElevenDigitImei(input.protocol)) {
    const ok: string[] = [];
    for (const imei of candidates) {
      if (imei808(imei).ok) ok.push(imei);
      else reject(imei, 'unqualified', 'validation.imei808');
    }
    candidates = ok;
  }
  const limits = await batchLimits(ctx);
  if (candidates.length > limits.devicesPerImport) {
    throw new ApiError(400, 'device.importLimit', 400, { max: limits.devicesPerImport });
  }
  // IMEIs already in the system are rejected (for 808 types the domain's duplicate rule says the same).
  const existing = new Set<string>();
  for (let i = 0; i < candidates.length; i += 5000) {
    const rows = await ctx.db
      .selectFrom('devices')
      .select('terminal_id')
      .where('terminal_id', 'in', candidates.slice(i, i + 5000))
      .execute();
    for (const r of rows) existing.add(r.terminal_id);
  }
  const stocked = requiresElevenDigitImei(input.protocol) ? new Set(duplicate808Imeis(candidates, existing)) : existing;
  const unstocked: string[] = [];
  for (const imei of candidates) {
    if (stocked.has(imei)) reject(imei, 'alreadyStocked', 'device.alreadyExists');
    else unstocked.push(imei);
  }
  let imeis = unstocked;
  if (await factoryChecksOn(ctx)) {
    const facts = await lookupFacts(ctx, unstocked, { preset: true, qc: true });
    imeis = [];
    for (const imei of unstocked) {
      const verdict = stockVerdict(
        {
          valid: true,
          repeated: false,
          stocked: false,
          preset: facts.preset.has(imei),
          qcPass: facts.qc.get(imei) ?? null,
        },
        true,
      );
      if (verdict === 'ok') imeis.push(imei);
      else if (verdict === 'notPreset') reject(imei, 'notPreset', 'stock.notPreset');
      else if (verdict === 'noFactoryTest') reject(imei, 'noFactoryTest', 'stock.noFactoryTest');
      else reject(imei, 'qcFailed', 'stock.qcFailed');
    }
  }
  const remaining = await remainingQuota(ctx, caller);
  if (Number.isFinite(remaining)) enforce(hasQuotaFor(remaining, imeis.length));
  return { ownerId: owner.id, imeis, result, input };
}

/** Writes the prepared devices in chunks, reporting progress after each. */
export async function runImport(
  ctx: AppContext,
  caller: Caller,
  prepared: PreparedImport,
  lang: string,
  progress: ProgressFn,
): Promise<DeviceImportResult> {
  const { imeis, result, input, ownerId } = prepared;
  for (let i = 0; i < imeis.length; i += CHUNK) {
    const chunk = imeis.slice(i, i + CHUNK);
    try {
      const inserted = await ctx.db.transaction().execute(async (trx) => {
        const rows = await trx
          .insertInto('devices')
          .values(
            chunk.map((terminal_id) => ({
              terminal_id,
              user_id: ownerId,
              protocol: input.protocol,
              device_type: input.deviceType,
              service_term: input.serviceTerm ?? null,
              icon_type: input.iconType ?? 1,
            })),
          )
          .onConflict((oc) => oc.column('terminal_id').doNothing())
          .returning(['id', 'terminal_id'])
          .execute();
        await consumeQuota(trx, caller, rows.length, '');
        // A preset IMEI imported straight into an account leaves the factory's stock: note when and to whom.
        const got = rows.map((r) => r.terminal_id);
        if (got.length > 0) {
          await sql`UPDATE stock_records SET out_at = now(), agent_id = ${ownerId}
            WHERE imei = ANY(${got}::text[])`.execute(trx);
        }
        if (rows.length > 0) {
          await trx
            .insertInto('device_ownership_log')
            .values(
              rows.map((r) => ({
                device_id: r.id,
                action: 'import' as const,
                from_user_id: null,
                to_user_id: ownerId,
                operator_id: caller.id,
              })),
            )
            .execute();
        }
        return rows.map((r) => r.terminal_id);
      });
      const got = new Set(inserted);
      for (const imei of chunk) {
        if (got.has(imei)) {
          result.success++;
          result.imported.push(imei);
        } else {
          // Imported by someone else between the check and the write.
          result.alreadyStocked++;
          result.rejected.push({
            terminalID: imei,
            reason: 'alreadyStocked',
            message: translate('device.alreadyExists', lang),
          });
        }
      }
    } catch (err) {
      const key = err instanceof ApiError ? err.key : 'http.serverBusy';
      if (!(err instanceof ApiError)) console.error('device import chunk failed', err);
      for (const imei of chunk) {
        result.failure++;
        result.rejected.push({ terminalID: imei, reason: 'failure', message: translate(key, lang) });
      }
    }
    await progress(Math.min(i + CHUNK, imeis.length));
  }
  if (result.imported.length > 0) deviceChanged(ctx, { terminalIDs: result.imported });
  return result;
}
