// The server's VAPID key pair: generated on first start and kept in notify_vapid (one row; the first process to
// write it wins, the others read that one). The private key is sealed with the server's secret key at rest.
import type { AppContext } from '../../context.ts';
import { openSecret, sealSecret } from '../../security/secretBox.ts';
import { generateVapidKeys, type VapidKeys } from './webpush.ts';

let cached: { pool: unknown; keys: VapidKeys } | null = null;

export async function vapidKeys(ctx: AppContext): Promise<VapidKeys> {
  const pool = ctx.dbHandle.pool;
  if (cached?.pool === pool) return cached.keys;
  const fresh = generateVapidKeys();
  await pool.query(
    'INSERT INTO notify_vapid (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [fresh.publicKey, sealSecret(fresh.privateKey)],
  );
  const row = (
    await pool.query<{ public_key: string; private_key: string }>('SELECT public_key, private_key FROM notify_vapid')
  ).rows[0];
  const keys = { publicKey: row.public_key, privateKey: openSecret(row.private_key) };
  cached = { pool, keys };
  return keys;
}
