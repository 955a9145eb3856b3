// TOTP secrets at rest are sealed (security/secretBox.ts); recovery codes are kept as SHA-256 hashes.
// Secrets stored in clear by earlier versions are sealed at start (sealClearTotpSecrets) and, should one be missed
// (a process of the earlier version writing during an upgrade), still read: a value without the seal prefix is the
// clear secret itself.
import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isSealed, openSecret, sealSecret } from '../../security/secretBox.ts';

export const sealTotpSecret = (secret: string): string => sealSecret(secret);

export function openTotpSecret(stored: string): string {
  return isSealed(stored) ? openSecret(stored) : stored;
}

/** Seals every clear TOTP secret (confirmed or pending) left by an earlier version; answers how many. */
export async function sealClearTotpSecrets(db: Kysely<Database>): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) =>
      eb.or([
        eb.and([eb('totp_secret', 'is not', null), eb('totp_secret', 'not like', 'sb1:%')]),
        eb.and([eb('totp_pending_secret', 'is not', null), eb('totp_pending_secret', 'not like', 'sb1:%')]),
      ]),
    )
    .execute();
  for (const r of rows) {
    await db
      .updateTable('users')
      .set({
        totp_secret: r.totp_secret && !isSealed(r.totp_secret) ? sealSecret(r.totp_secret) : r.totp_secret,
        totp_pending_secret:
          r.totp_pending_secret && !isSealed(r.totp_pending_secret)
            ? sealSecret(r.totp_pending_secret)
            : r.totp_pending_secret,
      })
      .where('id', '=', r.id)
      // Only the values read: a concurrent enrolment is not overwritten.
      .where((eb) => (r.totp_secret === null ? eb('totp_secret', 'is', null) : eb('totp_secret', '=', r.totp_secret)))
      .where((eb) =>
        r.totp_pending_secret === null
          ? eb('totp_pending_secret', 'is', null)
          : eb('totp_pending_secret', '=', r.totp_pending_secret),
      )
      .execute();
  }
  return rows.length;
}

// Recovery codes: 10 per enrolment, each 16 characters of an alphabet without look-alikes (80 bits), shown once
// as XXXX-XXXX-XXXX-XXXX. 80 random bits make a plain SHA-256 hash safe to keep (no guessing a code from it).
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function generateRecoveryCodes(n = RECOVERY_CODE_COUNT): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let code = '';
    for (let j = 0; j < 16; j++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    out.push(code.match(/.{4}/g)!.join('-'));
  }
  return out;
}

/** A code as typed (any case, spaces or dashes) → its stored hash; null if it cannot be a recovery code. */
export function recoveryCodeHash(typed: string): string | null {
  const clean = typed.replace(/[\s-]/g, '').toUpperCase();
  if (clean.length !== 16 || [...clean].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return createHash('sha256').update(clean).digest('hex');
}

/** Replaces an account's recovery codes with new ones; answers them (to be shown once). */
export async function newRecoveryCodes(db: Kysely<Database>, userId: string): Promise<string[]> {
  const codes = generateRecoveryCodes();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('totp_recovery_codes')
      .values(codes.map((c) => ({ user_id: userId, code_hash: recoveryCodeHash(c)! })))
      .execute();
  });
  return codes;
}

/** Uses up one unused recovery code of the account; true if the code was one (a code works once). */
export async function useRecoveryCode(db: Kysely<Database>, userId: string, typed: string): Promise<boolean> {
  const hash = recoveryCodeHash(typed);
  if (!hash) return false;
  const used = await db
    .updateTable('totp_recovery_codes')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('totp_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
