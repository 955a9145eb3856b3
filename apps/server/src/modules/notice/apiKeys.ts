// API keys for integrations: a key is 'chk_' + 32 random bytes; only its sha256 is stored. Presenting a key
// to /api/system/apiKey/login opens an ordinary session as the key's account, so every other endpoint,
// permission and hierarchy check applies to it unchanged.
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';

export const API_KEY_PREFIX = 'chk_';

export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The active key's user id, or null (unknown or revoked); records the use. */
export async function useApiKey(ctx: AppContext, key: string): Promise<string | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
  const row = await ctx.db
    .updateTable('api_keys')
    .set({ last_used_at: new Date() })
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}
