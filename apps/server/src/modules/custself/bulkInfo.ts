// Bulk edit of device info with a different value per device (device/deviceUpdateDeviceInfo, issue 16): rows
// of IMEI + name, plate, SIM, ICCID, driver, driver phone, model, icon from a pasted list or an xlsx template.
// One plan serves the preview (what would change, which lines fail and why) and the update (the same plan,
// then written). Values are checked with the device form's rules (checkPatch); plates must stay unique.
import { isPlateAvailable } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { translate } from '../../http/i18n.ts';
import type { Caller } from '../agent/scope.ts';
import { checkPatch } from '../device/editService.ts';
import { deviceChanged } from '../device/events.ts';
import { resolveDevices } from '../device/resolve.ts';
import { checkBatchSize } from '../device/service.ts';

export const BULK_FIELDS = [
  'nickname',
  'carNumber',
  'sim',
  'iccid',
  'driverName',
  'driverPhone',
  'deviceType',
  'iconType',
] as const;
export type BulkField = (typeof BULK_FIELDS)[number];

export type BulkRow = { terminalID: string } & Partial<Record<BulkField, string | number>>;

export interface BulkChange {
  field: BulkField;
  from: string;
  to: string;
}

export interface BulkLine {
  /** 1-based line of the list as sent. */
  line: number;
  terminalID: string;
  status: 'change' | 'unchanged' | 'failed';
  message: string;
  changes: BulkChange[];
}

const COLUMN: Record<BulkField, string> = {
  nickname: 'nickname',
  carNumber: 'car_number',
  sim: 'sim',
  iccid: 'iccid',
  driverName: 'driver_name',
  driverPhone: 'driver_phone',
  deviceType: 'device_type',
  iconType: 'icon_type',
};

interface Current {
  id: string;
  terminal_id: string;
  [column: string]: unknown;
}

function messageOf(err: unknown, lang: string): string {
  if (err instanceof ApiError) return translate(err.key, lang, err.params);
  throw err;
}

/** The checked column values of one row, or the reason it is refused. */
function checkRow(row: BulkRow): Record<string, unknown> {
  const str = (v: unknown) => (v === undefined ? undefined : String(v));
  const int = (v: unknown, field: string) => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n)) throw new ApiError(400, 'invalidParam', 400, { field });
    return n;
  };
  const set = checkPatch({
    nickname: str(row.nickname),
    carNumber: str(row.carNumber),
    sim: str(row.sim),
    iccid: str(row.iccid),
    deviceType: int(row.deviceType, 'deviceType'),
    iconType: int(row.iconType, 'iconType'),
  });
  if (row.driverName !== undefined) {
    const name = String(row.driverName).trim();
    if (name.length > 50) throw new ApiError(400, 'invalidParam', 400, { field: 'driverName' });
    set.driver_name = name;
  }
  if (row.driverPhone !== undefined) {
    const phone = String(row.driverPhone).trim();
    if (!/^[0-9+\-() ]{0,20}$/.test(phone)) throw new ApiError(400, 'invalidParam', 400, { field: 'driverPhone' });
    set.driver_phone = phone;
  }
  return set;
}

export interface BulkPlan {
  lines: BulkLine[];
  /** Per device id: the columns to write. */
  writes: Map<string, { terminalID: string; set: Record<string, unknown> }>;
}

export async function planBulkInfo(ctx: AppContext, caller: Caller, rows: BulkRow[], lang: string): Promise<BulkPlan> {
  await checkBatchSize(ctx, rows.length);
  const { devices } = await resolveDevices(
    ctx,
    caller,
    rows.map((r) => r.terminalID),
    lang,
  );
  const reachable = new Map(devices.map((d) => [d.terminal_id, d]));
  const ids = devices.map((d) => d.id);
  const current =
    ids.length === 0
      ? []
      : ((await ctx.db
          .selectFrom('devices')
          .select(['id', 'terminal_id', ...Object.values(COLUMN)] as never[])
          .where('id', 'in', ids)
          .execute()) as unknown as Current[]);
  const byImei = new Map(current.map((c) => [c.terminal_id, c]));
  // Plates asked for in this list, and the plates other devices hold now.
  const asked = rows
    .map((r) => (r.carNumber === undefined ? '' : String(r.carNumber).trim().toUpperCase()))
    .filter((p) => p !== '');
  const taken =
    asked.length === 0
      ? []
      : await ctx.db
          .selectFrom('devices')
          .select(['terminal_id', 'car_number'])
          .where(sql<boolean>`upper(car_number) = ANY(${asked})`)
          .execute();
  const plates = taken.map((t) => ({ terminalID: t.terminal_id, carNumber: t.car_number }));
  const seen = new Set<string>();
  const lines: BulkLine[] = [];
  const writes: BulkPlan['writes'] = new Map();
  for (const [i, row] of rows.entries()) {
    const terminalID = row.terminalID.trim();
    const base = { line: i + 1, terminalID, changes: [] as BulkChange[] };
    const failed = (message: string) => lines.push({ ...base, status: 'failed', message });
    const device = byImei.get(terminalID);
    if (!reachable.has(terminalID) || !device) {
      failed(translate('device.notFound', lang, { terminalID }));
      continue;
    }
    if (seen.has(terminalID)) {
      failed(translate('invalidParam', lang, { field: 'terminalID' }));
      continue;
    }
    seen.add(terminalID);
    let set: Record<string, unknown>;
    try {
      set = checkRow(row);
    } catch (err) {
      failed(messageOf(err, lang));
      continue;
    }
    if (typeof set.car_number === 'string' && set.car_number !== '') {
      // Unique among other devices now and among the earlier lines of this list (spec §5).
      const free = isPlateAvailable(set.car_number, terminalID, plates);
      if (!free.ok) {
        failed(translate(free.message, lang, { ...(free.params ?? {}) }));
        continue;
      }
      plates.push({ terminalID, carNumber: set.car_number });
    }
    const changes: BulkChange[] = [];
    const changed: Record<string, unknown> = {};
    for (const field of BULK_FIELDS) {
      const column = COLUMN[field];
      if (!(column in set)) continue;
      const from = String(device[column] ?? '');
      const to = String(set[column]);
      if (from === to) continue;
      changes.push({ field, from, to });
      changed[column] = set[column];
    }
    lines.push({ ...base, changes, status: changes.length > 0 ? 'change' : 'unchanged', message: '' });
    if (changes.length > 0) writes.set(device.id, { terminalID, set: changed });
  }
  return { lines, writes };
}

/** Writes a plan: each device's changed columns; a driver typed by hand replaces the card or record driver. */
export async function applyBulkInfo(ctx: AppContext, plan: BulkPlan): Promise<void> {
  const now = new Date();
  const retyped: string[] = [];
  await ctx.db.transaction().execute(async (tx) => {
    for (const [id, { set }] of plan.writes) {
      const driver = 'driver_name' in set;
      await tx
        .updateTable('devices')
        .set({ ...set, ...(driver ? { driver_id: null } : {}), updated_at: now })
        .where('id', '=', id)
        .execute();
      if (driver) {
        const name = String(set.driver_name);
        await tx
          .insertInto('driver_log')
          .values({ device_id: id, time: now, action: name ? 'in' : 'out', name, source: 'manual' })
          .execute();
      }
      if ('device_type' in set) retyped.push(plan.writes.get(id)?.terminalID ?? '');
    }
  });
  if (retyped.length > 0) deviceChanged(ctx, { terminalIDs: retyped });
}
