// JT/T 808 authentication codes: one random code per device, issued in the 0x8100 registration reply and kept in
// devices.jt808_auth_code, so a terminal authenticates (0x0102) with it on every connection, also after a restart
// of the platform or on another gateway process. A registration of a device that already has a code gets the
// same code (the terminal that holds it keeps working).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema.ts';

export class Jt808AuthCodes {
  constructor(private readonly db: Kysely<Database>) {}

  /** The device's code, created (random, 16 hex characters) if it has none; atomic across processes. */
  async issue(deviceId: string): Promise<string> {
    const fresh = randomBytes(8).toString('hex');
    const row = await this.db
      .updateTable('devices')
      .set({ jt808_auth_code: sql<string>`coalesce(jt808_auth_code, ${fresh})` })
      .where('id', '=', deviceId)
      .returning('jt808_auth_code')
      .executeTakeFirst();
    return row?.jt808_auth_code ?? fresh;
  }

  /** The code issued to the device, or null when it never registered. */
  async stored(deviceId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('devices')
      .select('jt808_auth_code')
      .where('id', '=', deviceId)
      .executeTakeFirst();
    return row?.jt808_auth_code ?? null;
  }
}
