// First-run accounts: the admin (password from ADMIN_PASSWORD, else generated and printed once) and the demo
// account used by the login page's "try it out" button.
import type { Kysely } from 'kysely';
import { generatePassword, hashPassword } from '../modules/auth/password.ts';
import type { Database } from './schema.ts';

export interface SeedResult {
  created: boolean;
  adminPassword?: string;
  adminPasswordGenerated?: boolean;
}

export const ADMIN_ROLE = 1;
export const USER_ROLE = 3;

export async function seedFirstRun(db: Kysely<Database>, adminPassword: string | undefined): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return { created: false };
    const password = adminPassword ?? generatePassword();
    const admin = await trx
      .insertInto('users')
      .values({
        username: 'admin',
        password_hash: await hashPassword(password),
        nickname: 'Administrator',
        role: ADMIN_ROLE,
        parent_id: null,
        expire_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('users')
      .set({ path: `/${admin.id}/` })
      .where('id', '=', admin.id)
      .execute();
    // The demo account logs in through /api/login/demo only; its password is random and never shown.
    const demo = await trx
      .insertInto('users')
      .values({
        username: 'demo',
        password_hash: await hashPassword(generatePassword()),
        nickname: 'Demo',
        role: USER_ROLE,
        parent_id: admin.id,
        expire_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('users')
      .set({ path: `/${admin.id}/${demo.id}/` })
      .where('id', '=', demo.id)
      .execute();
    await trx
      .insertInto('settings')
      .values({ key: 'demo_account', value: JSON.stringify({ username: 'demo', enabled: true }) })
      .execute();
    return { created: true, adminPassword: password, adminPasswordGenerated: adminPassword === undefined };
  });
}
