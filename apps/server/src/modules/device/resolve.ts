// Finding the devices a call names, within the caller's reach. A device that does not exist and a device
// outside the caller's subtree answer the same ("not found"), so IMEIs of other tenants cannot be probed.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { translate } from '../../http/i18n.ts';
import { type Caller, callerIsAdmin, reaches } from '../agent/scope.ts';

export interface OwnedDevice {
  id: string;
  terminal_id: string;
  user_id: string | null;
  owner_path: string | null;
  car_number: string;
  activated_at: Date | null;
  service_term: number | null;
  expire_manual: boolean;
}

export interface BatchFailure {
  terminalID: string;
  message: string;
}

export interface BatchResult {
  success: number;
  failed: BatchFailure[];
}

/** Whether the caller reaches a device: its owner is in the caller's subtree (unowned devices: admin only). */
export function reachesDevice(caller: Caller, device: Pick<OwnedDevice, 'owner_path'>): boolean {
  if (callerIsAdmin(caller)) return true;
  return device.owner_path !== null && reaches(caller, device.owner_path);
}

async function loadDevices(ctx: AppContext, where: ReturnType<typeof sql>): Promise<OwnedDevice[]> {
  const res = await sql<OwnedDevice>`SELECT d.id, d.terminal_id, d.user_id, u.path AS owner_path, d.car_number,
      d.activated_at, d.service_term, d.expire_manual
    FROM devices d LEFT JOIN users u ON u.id = d.user_id WHERE ${where}`.execute(ctx.db);
  return res.rows;
}

/** One device by id or IMEI, if the caller reaches it; otherwise "no permission". */
export async function loadReachableDevice(
  ctx: AppContext,
  caller: Caller,
  ref: { id?: string; terminalID?: string },
): Promise<OwnedDevice> {
  const where = ref.id ? sql`d.id = ${ref.id}` : sql`d.terminal_id = ${ref.terminalID ?? ''}`;
  const [device] = await loadDevices(ctx, where);
  if (!device || !reachesDevice(caller, device)) {
    if (!device && callerIsAdmin(caller))
      throw new ApiError(404, 'device.notFound', 404, { terminalID: ref.terminalID ?? ref.id ?? '' });
    throw noPermission();
  }
  return device;
}

/**
 * The named devices the caller reaches, in the order named (repeats dropped), and a failure for each IMEI
 * that is missing or outside the caller's subtree.
 */
export async function resolveDevices(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  lang: string,
): Promise<{ devices: OwnedDevice[]; failed: BatchFailure[] }> {
  const wanted = [...new Set(terminalIDs.map((t) => t.trim()).filter((t) => t !== ''))];
  const rows = wanted.length === 0 ? [] : await loadDevices(ctx, sql`d.terminal_id = ANY(${wanted})`);
  const byImei = new Map(rows.map((r) => [r.terminal_id, r]));
  const devices: OwnedDevice[] = [];
  const failed: BatchFailure[] = [];
  for (const terminalID of wanted) {
    const d = byImei.get(terminalID);
    if (d && reachesDevice(caller, d)) devices.push(d);
    else failed.push({ terminalID, message: translate('device.notFound', lang, { terminalID }) });
  }
  return { devices, failed };
}
