// Editing devices: one device's form (name, SIM, ICCID, plate, icon, time zone, picture) and the batch field
// updates (icon, time zone, host, model, …). Values are checked with the domain's validators (spec §5).
import {
  carNumber,
  deviceModel,
  isIconType,
  isPlateAvailable,
  isTimeZoneOffsetHours,
  simNumber,
  type Validated,
} from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { enforce } from '../agent/rules.ts';
import type { Caller } from '../agent/scope.ts';
import { deviceChanged } from './events.ts';
import { type BatchResult, loadReachableDevice, resolveDevices } from './resolve.ts';
import { checkBatchSize } from './service.ts';

export interface DevicePatch {
  nickname?: string;
  sim?: string;
  iccid?: string;
  carNumber?: string;
  iconType?: number;
  timeZone?: number;
  deviceType?: number;
  host?: string;
  /** An image as a data URL; null removes it. */
  picture?: string | null;
}

/** Largest picture accepted (as a data URL), about 1.5 MB of image. */
export const PICTURE_MAX_CHARS = 2_000_000;
const PICTURE = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;

function valid<T>(result: Validated<T>): T {
  enforce(result);
  return (result as { ok: true; value: T }).value;
}

/** Checks and normalises a patch; throws the first refusal. Blank SIM and plate clear the field. */
export function checkPatch(patch: DevicePatch): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (patch.nickname !== undefined) set.nickname = patch.nickname.trim();
  if (patch.sim !== undefined) set.sim = patch.sim.trim() === '' ? '' : valid(simNumber(patch.sim));
  if (patch.iccid !== undefined) {
    const iccid = patch.iccid.trim();
    if (iccid !== '' && !/^[A-Za-z0-9]{18,22}$/.test(iccid))
      throw new ApiError(400, 'invalidParam', 400, { field: 'iccid' });
    set.iccid = iccid;
  }
  if (patch.carNumber !== undefined) {
    set.car_number = patch.carNumber.trim() === '' ? '' : valid(carNumber(patch.carNumber.trim().toUpperCase()));
  }
  if (patch.iconType !== undefined) {
    if (!isIconType(patch.iconType)) throw new ApiError(400, 'device.invalidIconType', 400);
    set.icon_type = patch.iconType;
  }
  if (patch.timeZone !== undefined) {
    if (!isTimeZoneOffsetHours(patch.timeZone)) throw new ApiError(400, 'invalidParam', 400, { field: 'timeZone' });
    set.time_zone = patch.timeZone;
  }
  if (patch.deviceType !== undefined) {
    if (!deviceModel(patch.deviceType)) throw new ApiError(400, 'invalidParam', 400, { field: 'deviceType' });
    set.device_type = patch.deviceType;
  }
  if (patch.host !== undefined) {
    const host = patch.host.trim();
    if (host !== '' && !/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(host)) {
      throw new ApiError(400, 'invalidParam', 400, { field: 'host' });
    }
    set.host = host;
  }
  if (patch.picture !== undefined) {
    if (patch.picture !== null && (patch.picture.length > PICTURE_MAX_CHARS || !PICTURE.test(patch.picture))) {
      throw new ApiError(400, 'invalidParam', 400, { field: 'picture' });
    }
    set.picture = patch.picture;
  }
  return set;
}

/** A plate already used by another device asks for a new one (spec §5). */
async function checkPlate(ctx: AppContext, plate: string, terminalID: string): Promise<void> {
  if (plate === '') return;
  const others = await ctx.db
    .selectFrom('devices')
    .select(['terminal_id as terminalID', 'car_number as carNumber'])
    .where(sql<boolean>`upper(car_number) = ${plate.toUpperCase()}`)
    .where('car_number', '<>', '')
    .limit(5)
    .execute();
  enforce(isPlateAvailable(plate, terminalID, others));
}

export async function updateDevice(
  ctx: AppContext,
  caller: Caller,
  ref: { id?: string; terminalID?: string },
  patch: DevicePatch,
): Promise<string> {
  const device = await loadReachableDevice(ctx, caller, ref);
  const set = checkPatch(patch);
  if (typeof set.car_number === 'string') await checkPlate(ctx, set.car_number, device.terminal_id);
  if (Object.keys(set).length > 0) {
    await ctx.db
      .updateTable('devices')
      .set({ ...set, updated_at: new Date() })
      .where('id', '=', device.id)
      .execute();
    if (set.time_zone !== undefined || set.host !== undefined || set.device_type !== undefined) {
      deviceChanged(ctx, { terminalIDs: [device.terminal_id] });
    }
  }
  return device.id;
}

/** The same field values on many devices. Plates are per device and cannot be set in a batch. */
export async function updateDevices(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  patch: Omit<DevicePatch, 'carNumber' | 'picture'>,
  lang: string,
): Promise<BatchResult> {
  await checkBatchSize(ctx, terminalIDs.length);
  const set = checkPatch(patch);
  if (Object.keys(set).length === 0) throw new ApiError(400, 'common.selectFirst', 400);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  if (devices.length > 0) {
    await ctx.db
      .updateTable('devices')
      .set({ ...set, updated_at: new Date() })
      .where(
        'id',
        'in',
        devices.map((d) => d.id),
      )
      .execute();
    deviceChanged(ctx, { terminalIDs: devices.map((d) => d.terminal_id) });
  }
  return { success: devices.length, failed };
}
