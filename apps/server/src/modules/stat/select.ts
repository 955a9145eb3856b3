// Which devices a statistics request covers, as in the location endpoints: terminalIDs and/or deviceIds (each
// must lie in the caller's subtree), or userId with children (that account's subtree; without children its
// own devices), or none of them: the caller's own subtree. Each device comes with the zone of its owning
// account, in which its statistics days are counted.
import { displayName, type TimeZone } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import { noProcessSchema, specialBrandFilter } from '../custself/specialBrand.ts';
import { type Caller, devicesByIds, devicesByTerminalIds, reachableUserPath } from '../location/devices.ts';
import { flagSchema, idSchema, terminalIdSchema } from '../location/params.ts';
import { zoneOf } from './rollup.ts';

export const selectionFields = {
  terminalIDs: z.array(terminalIdSchema).max(100_000).optional(),
  deviceIds: z.array(idSchema).max(100_000).optional(),
  userId: idSchema.optional(),
  children: flagSchema.optional(),
  /** Special-brand agents (spec §6): devices of the no-process set (session key nis) the hiding rule spares. */
  noProcess: noProcessSchema.optional(),
};

export interface Selection {
  terminalIDs?: string[];
  deviceIds?: string[];
  userId?: string;
  children?: boolean;
  noProcess?: string[];
}

export interface StatDevice {
  id: string;
  terminalID: string;
  displayName: string;
  userId: string | null;
  zone: TimeZone;
  speedLimit: number;
}

interface Row {
  id: string;
  terminal_id: string;
  nickname: string;
  car_number: string;
  user_id: string | null;
  time_zone: string | null;
  speed_limit: number;
}

function toStatDevice(r: Row): StatDevice {
  return {
    id: String(r.id),
    terminalID: r.terminal_id,
    displayName: displayName({ terminalID: r.terminal_id, nickname: r.nickname, carNumber: r.car_number }),
    userId: r.user_id === null ? null : String(r.user_id),
    zone: zoneOf(r.time_zone),
    speedLimit: r.speed_limit,
  };
}

function base(ctx: AppContext) {
  return ctx.db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number', 'd.user_id', 'u.time_zone', 'd.speed_limit']);
}

/**
 * The devices a request covers, in terminalID order; a named device outside the caller's reach is refused. An
 * account-wide selection of a special-brand agent leaves out what the special-brand rule hides.
 */
export async function selectDevices(ctx: AppContext, caller: Caller, sel: Selection): Promise<StatDevice[]> {
  const named = (sel.terminalIDs?.length ?? 0) + (sel.deviceIds?.length ?? 0) > 0;
  if (named) {
    // Reach checks (a device outside the subtree answers "no permission").
    const ids = new Set<string>();
    for (const d of await devicesByTerminalIds(ctx, caller, sel.terminalIDs ?? [])) ids.add(d.id);
    for (const d of await devicesByIds(ctx, caller, sel.deviceIds ?? [])) ids.add(d.id);
    const rows = await base(ctx)
      .where('d.id', 'in', [...ids])
      .orderBy('d.terminal_id')
      .execute();
    return rows.map((r) => toStatDevice(r as Row));
  }
  const user = await reachableUserPath(ctx, caller, sel.userId);
  const children = sel.userId === undefined ? true : (sel.children ?? false);
  let q = base(ctx);
  if (caller.role === 1 && sel.userId === undefined) {
    // The admin's own subtree is every device, owned or not.
  } else {
    q = children ? q.where(sql<boolean>`u.path LIKE ${`${user.path}%`}`) : q.where('d.user_id', '=', user.id);
  }
  // A special-brand agent's account-wide statistics (and their exports) leave out the devices its device list
  // hides (spec §6); devices it names are its choice and stay.
  const hide = await specialBrandFilter(ctx, caller, sel.noProcess);
  if (hide) q = q.leftJoin('device_state as s', 's.device_id', 'd.id').where(hide);
  const rows = await q.orderBy('d.terminal_id').execute();
  return rows.map((r) => toStatDevice(r as Row));
}

/** A request's [startTime, endTime] checked: in order and at most `maxDays` long. */
export function checkRange(startTime: number, endTime: number, maxDays: number): void {
  if (startTime > endTime) throw badRequest('validation.rangeOrder');
  if (endTime - startTime > maxDays * 86_400_000) throw badRequest('validation.statDays', { days: maxDays });
}
