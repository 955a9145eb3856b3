// Drivers (issue 16): records per account (name, phone, licence, IC card number), the current driver of a
// vehicle and its history (driver_log). A JT/T 808 terminal's driver identification (0x0702, decoded by
// packages/protocols) sets the current driver from the gateway: card inserted and read → the record with that
// card number among the accounts above the device's owner (else the name on the card); card removed → none.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface DriverIdentity {
  /** 1 card inserted, 2 card removed (JT/T 808 table 0x0702). */
  cardStatus?: unknown;
  /** 0 card read, otherwise the reason it was not. */
  cardResult?: unknown;
  driver?: unknown;
  cardCode?: unknown;
  deviceTime?: unknown;
}

/** The IDs of a hierarchy path, innermost last: '/1/5/12/' → ['1', '5', '12']. */
const pathIds = (path: string) => path.split('/').filter(Boolean);

/** The record with this card number that the device's owner or an account above it keeps (nearest first). */
export async function driverByCard(db: Kysely<Database>, ownerPath: string, card: string) {
  const ids = pathIds(ownerPath);
  if (ids.length === 0 || card === '') return undefined;
  const rows = await db
    .selectFrom('drivers')
    .select(['id', 'user_id', 'name', 'phone'])
    .where('ic_card', '=', card)
    .where('user_id', 'in', ids)
    .execute();
  // The nearest account wins: the owner's own record before its agent's.
  rows.sort((a, b) => ids.indexOf(String(b.user_id)) - ids.indexOf(String(a.user_id)));
  return rows[0];
}

/** Sets (or clears, with null) the current driver of a device and writes the change to driver_log. */
export async function setCurrentDriver(
  db: Kysely<Database>,
  deviceId: string,
  driver: { id: string | null; name: string; phone: string; card: string } | null,
  time: Date,
  source: 'card' | 'manual',
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('devices')
      .set({
        driver_id: driver?.id ?? null,
        driver_name: driver?.name ?? '',
        driver_phone: driver?.phone ?? '',
      })
      .where('id', '=', deviceId)
      .execute();
    await tx
      .insertInto('driver_log')
      .values({
        device_id: deviceId,
        time,
        action: driver ? 'in' : 'out',
        driver_id: driver?.id ?? null,
        name: driver?.name ?? '',
        ic_card: driver?.card ?? '',
        source,
      })
      .execute();
  });
}

/** The gateway's hook for a 0x0702 message of a logged-in device. */
export async function recordDriverIdentity(
  db: Kysely<Database>,
  device: { id: string },
  a: DriverIdentity,
  receivedAt: number,
): Promise<void> {
  const stamp = typeof a.deviceTime === 'string' ? Date.parse(a.deviceTime) : Number.NaN;
  // A device clock far from ours (unset, wrong zone) would reorder the history: the receive time then.
  const time = new Date(Number.isFinite(stamp) && Math.abs(stamp - receivedAt) < 86_400_000 ? stamp : receivedAt);
  if (a.cardStatus === 2) {
    await setCurrentDriver(db, device.id, null, time, 'card');
    return;
  }
  if (a.cardStatus !== 1 || a.cardResult !== 0) return;
  const card = typeof a.cardCode === 'string' ? a.cardCode.trim() : '';
  const nameOnCard = typeof a.driver === 'string' ? a.driver.trim() : '';
  const owner = await db
    .selectFrom('devices as d')
    .leftJoin('users as u', 'u.id', 'd.user_id')
    .select(['u.path'])
    .where('d.id', '=', device.id)
    .executeTakeFirst();
  const record = await driverByCard(db, owner?.path ?? '', card);
  await setCurrentDriver(
    db,
    device.id,
    record
      ? { id: String(record.id), name: record.name, phone: record.phone, card }
      : { id: null, name: nameOnCard || card, phone: '', card },
    time,
    'card',
  );
}

/**
 * The driver in place at each of the given times (epoch ms) for one device, from driver_log: '' when none.
 * Times need not be sorted.
 */
export async function driversAt(db: Kysely<Database>, deviceId: string, times: number[]): Promise<string[]> {
  if (times.length === 0) return [];
  const until = new Date(Math.max(...times));
  const log = await db
    .selectFrom('driver_log')
    .select(['time', 'action', 'name'])
    .where('device_id', '=', deviceId)
    .where('time', '<=', until)
    .orderBy('time')
    .orderBy('id')
    .execute();
  return times.map((t) => {
    let name = '';
    for (const e of log) {
      if (e.time.getTime() > t) break;
      name = e.action === 'in' ? e.name : '';
    }
    return name;
  });
}
