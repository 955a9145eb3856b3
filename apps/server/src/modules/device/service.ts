// Device ownership and lifecycle: transfer, sale, reset, expiry. Every call works on devices the caller
// reaches (resolve.ts) and applies the domain's account rules (spec §5) per device.
import { canSell, canTransferDevice, isServiceTermCode, ROLES } from '@carhere/domain';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { OwnershipAction } from '../../db/tables/accounts.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { translate } from '../../http/i18n.ts';
import { type Caller, loadReachableUser, type UserRow } from '../agent/scope.ts';
import { generateAccountPassword, hashPassword } from '../auth/password.ts';
import { usernameTaken } from '../user/queries.ts';
import { insertAccount } from '../user/service.ts';
import { deviceChanged } from './events.ts';
import { type BatchResult, type OwnedDevice, resolveDevices } from './resolve.ts';
import { batchLimits } from './settings.ts';

/** Roles that may own devices: the customer site's accounts. */
export const DEVICE_OWNER_ROLES: readonly number[] = [
  ROLES.admin,
  ROLES.agent,
  ROLES.user,
  ROLES.superUser,
  ROLES.superAgent,
];

export async function checkBatchSize(ctx: AppContext, count: number): Promise<void> {
  const limits = await batchLimits(ctx);
  if (count > limits.devicesPerOperation) {
    throw new ApiError(400, 'device.batchLimit', 400, { max: limits.devicesPerOperation });
  }
}

async function logOwnership(
  trx: Transaction<Database>,
  rows: { device: OwnedDevice; to: string | null }[],
  action: OwnershipAction,
  operatorId: string,
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('device_ownership_log')
    .values(
      rows.map(({ device, to }) => ({
        device_id: device.id,
        action,
        from_user_id: device.user_id,
        to_user_id: to,
        operator_id: operatorId,
      })),
    )
    .execute();
}

async function loadOwnerTarget(ctx: AppContext, caller: Caller, userId: string): Promise<UserRow> {
  const target = await loadReachableUser(ctx, caller, userId);
  if (!DEVICE_OWNER_ROLES.includes(target.role)) throw noPermission();
  return target;
}

/** Moves devices (by IMEI) to an account of the caller's subtree. */
export async function transferDevices(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  userId: string,
  lang: string,
  action: OwnershipAction = 'transfer',
): Promise<BatchResult> {
  await checkBatchSize(ctx, terminalIDs.length);
  const target = await loadOwnerTarget(ctx, caller, userId);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  const moving: OwnedDevice[] = [];
  for (const d of devices) {
    const rule =
      action === 'sale'
        ? canSell(Number(caller.id), Number(target.id))
        : canTransferDevice({
            actorId: Number(caller.id),
            targetUserId: Number(target.id),
            currentOwnerId: d.user_id === null ? null : Number(d.user_id),
          });
    if (rule.ok && action === 'sale' && d.user_id === target.id) {
      failed.push({ terminalID: d.terminal_id, message: translate('account.transferToOwner', lang) });
    } else if (rule.ok) moving.push(d);
    else failed.push({ terminalID: d.terminal_id, message: translate(rule.message, lang, rule.params) });
  }
  if (moving.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('devices')
        .set({ user_id: target.id, updated_at: new Date() })
        .where(
          'id',
          'in',
          moving.map((d) => d.id),
        )
        .execute();
      await logOwnership(
        trx,
        moving.map((device) => ({ device, to: target.id })),
        action,
        caller.id,
      );
      if (action === 'sale') {
        await trx
          .updateTable('users')
          .set((eb) => ({ sale_num: eb('sale_num', '+', moving.length) }))
          .where('id', '=', caller.id)
          .execute();
      }
    });
    deviceChanged(ctx, { terminalIDs: moving.map((d) => d.terminal_id) });
  }
  return { success: moving.length, failed };
}

/**
 * Sells devices to end users. With `userId` every device goes to that account; with `asDeviceAccounts` each
 * device gets its own end-user account named by its IMEI, under the caller, for logging in by IMEI
 * (/api/loginByCert): each with its own random password, answered once in `accounts` and to be changed at the
 * account's first sign-in.
 */
export async function sellDevices(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  target: { userId: string } | { asDeviceAccounts: true },
  lang: string,
): Promise<BatchResult & { accounts?: { terminalID: string; username: string; password: string }[] }> {
  if ('userId' in target) {
    const buyer = await loadReachableUser(ctx, caller, target.userId);
    // Selling to oneself is answered per device with the spec's message (canSell), not as a wrong buyer role.
    const toSelf = String(buyer.id) === String(caller.id);
    if (!toSelf && buyer.role !== ROLES.user && buyer.role !== ROLES.superUser) throw noPermission();
    return transferDevices(ctx, caller, terminalIDs, target.userId, lang, 'sale');
  }
  await checkBatchSize(ctx, terminalIDs.length);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  const sold: string[] = [];
  const accounts: { terminalID: string; username: string; password: string }[] = [];
  for (const d of devices) {
    if (await usernameTaken(ctx, d.terminal_id)) {
      failed.push({ terminalID: d.terminal_id, message: translate('account.usernameTaken', lang) });
      continue;
    }
    const password = generateAccountPassword();
    const hash = await hashPassword(password);
    await ctx.db.transaction().execute(async (trx) => {
      const accountId = await insertAccount(
        trx,
        caller.id,
        { username: d.terminal_id, role: ROLES.user, nickname: d.terminal_id },
        hash,
        true,
      );
      await trx
        .updateTable('devices')
        .set({ user_id: accountId, updated_at: new Date() })
        .where('id', '=', d.id)
        .execute();
      await logOwnership(trx, [{ device: d, to: accountId }], 'sale', caller.id);
      await trx
        .updateTable('users')
        .set((eb) => ({ sale_num: eb('sale_num', '+', 1) }))
        .where('id', '=', caller.id)
        .execute();
    });
    sold.push(d.terminal_id);
    accounts.push({ terminalID: d.terminal_id, username: d.terminal_id, password });
  }
  deviceChanged(ctx, { terminalIDs: sold });
  return { success: sold.length, failed, accounts };
}

/**
 * Resets devices (spec §4, irreversible): their tracks, alarms, commands and stored configuration are deleted,
 * their last position is cleared, name, plate, picture and expiry are cleared, and they become not activated.
 * The owner, IMEI, SIM and ICCID stay. A connected device keeps its connection; it is activated again when
 * it next connects.
 */
export async function resetDevices(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  lang: string,
): Promise<BatchResult> {
  await checkBatchSize(ctx, terminalIDs.length);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  if (devices.length === 0) return { success: 0, failed };
  const ids = devices.map((d) => d.id);
  await ctx.db.transaction().execute(async (trx) => {
    await sql`DELETE FROM positions WHERE device_id = ANY(${ids}::bigint[])`.execute(trx);
    await trx.deleteFrom('alarms').where('device_id', 'in', ids).execute();
    await trx.deleteFrom('commands').where('device_id', 'in', ids).execute();
    await trx.deleteFrom('command_orders').where('device_id', 'in', ids).execute();
    await sql`UPDATE device_state SET pos_time = NULL, lat = NULL, lon = NULL, altitude = NULL, speed = NULL,
        course = NULL, valid = NULL, satellites = NULL, location_type = NULL, acc = NULL, battery = NULL,
        mileage = NULL, tyres = NULL, battery_pack = NULL, attributes = '{}'::jsonb
      WHERE device_id = ANY(${ids}::bigint[])`.execute(trx);
    await trx
      .updateTable('devices')
      .set({
        nickname: '',
        car_number: '',
        picture: null,
        activated_at: null,
        platform_expire_at: null,
        user_expire_at: null,
        expire_manual: false,
        updated_at: new Date(),
      })
      .where('id', 'in', ids)
      .execute();
    await logOwnership(
      trx,
      devices.map((device) => ({ device, to: device.user_id })),
      'reset',
      caller.id,
    );
  });
  deviceChanged(ctx, { terminalIDs: devices.map((d) => d.terminal_id) });
  return { success: devices.length, failed };
}

export interface ExpiryChange {
  /** Platform expiry set by hand (stops recalculation from the activation time); null clears it. */
  platformExpireAt?: Date | null;
  /** The end user's expiry; null clears it. */
  userExpireAt?: Date | null;
}

/** Sets expiries by hand (spec §4: a manual platform expiry stops automatic recalculation). */
export async function setExpiry(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  change: ExpiryChange,
  lang: string,
): Promise<BatchResult> {
  await checkBatchSize(ctx, terminalIDs.length);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  const set: Record<string, unknown> = { updated_at: new Date() };
  if (change.platformExpireAt !== undefined) {
    set.platform_expire_at = change.platformExpireAt;
    set.expire_manual = change.platformExpireAt !== null;
  }
  if (change.userExpireAt !== undefined) set.user_expire_at = change.userExpireAt;
  if (devices.length > 0) {
    await ctx.db
      .updateTable('devices')
      .set(set)
      .where(
        'id',
        'in',
        devices.map((d) => d.id),
      )
      .execute();
  }
  return { success: devices.length, failed };
}

/** Sets the service term; devices without a manual expiry get their expiry recalculated from activation. */
export async function setServiceTerm(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  term: number,
  lang: string,
): Promise<BatchResult> {
  if (!isServiceTermCode(term)) throw new ApiError(400, 'device.invalidServiceTerm', 400);
  await checkBatchSize(ctx, terminalIDs.length);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  if (devices.length > 0) {
    const ids = devices.map((d) => d.id);
    await sql`UPDATE devices SET service_term = ${term},
        platform_expire_at = CASE WHEN expire_manual OR activated_at IS NULL THEN platform_expire_at
                                  ELSE carhere_term_expiry(activated_at, ${term}::smallint) END,
        updated_at = now()
      WHERE id = ANY(${ids}::bigint[])`.execute(ctx.db);
  }
  return { success: devices.length, failed };
}

/** Reset-expiry (spec §4): drops a manual expiry and recalculates it from the activation time and term. */
export async function recalculateExpiry(
  ctx: AppContext,
  caller: Caller,
  terminalIDs: readonly string[],
  lang: string,
): Promise<BatchResult> {
  await checkBatchSize(ctx, terminalIDs.length);
  const { devices, failed } = await resolveDevices(ctx, caller, terminalIDs, lang);
  if (devices.length > 0) {
    const ids = devices.map((d) => d.id);
    await sql`UPDATE devices SET expire_manual = false,
        platform_expire_at = carhere_term_expiry(activated_at, service_term), updated_at = now()
      WHERE id = ANY(${ids}::bigint[])`.execute(ctx.db);
  }
  return { success: devices.length, failed };
}
