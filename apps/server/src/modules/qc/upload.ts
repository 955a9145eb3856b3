// Who may upload production test results: a logged-in user with the permission (the v1/v2 screens), or a test
// station presenting an API key (System → apiKey) in `x-api-key` or `Authorization: Bearer`, whose account holds
// the permission in this environment.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { holdsPermission, permissionsOf } from '../../http/access.ts';
import { ApiError, SessionExpired } from '../../http/errors.ts';
import { useApiKey } from '../notice/apiKeys.ts';
import { factoryNeeds } from '../stock/needs.ts';

function presentedKey(req: FastifyRequest): string | null {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  return null;
}

/** The uploading account's id; 401 without a valid key or session, 403 without the permission. */
export async function authorizeUpload(ctx: AppContext, req: FastifyRequest): Promise<string> {
  const needed = factoryNeeds('serialUpload');
  const key = presentedKey(req);
  if (key) {
    const userId = await useApiKey(ctx, key);
    if (!userId) throw new ApiError(401, 'serial.apiKeyMissing', 401);
    const user = await ctx.db
      .selectFrom('users')
      .select(['role', 'expire_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (user.expire_at && user.expire_at.getTime() < Date.now()) throw new ApiError(401, 'serial.apiKeyMissing', 401);
    if (!holdsPermission(permissionsOf(user.role, ctx.config.appEnv), needed)) {
      throw new ApiError(403, 'noPermissionAccount', 403);
    }
    return userId;
  }
  // Neither a key nor a session: the session answer every other endpoint gives (401, code 407).
  if (!req.user) throw new SessionExpired();
  // "Try it out" sessions read only (http/app.ts refuses their writes the same way).
  if (req.user.demo) throw new ApiError(403, 'permission.noFeature', 403);
  if (!holdsPermission(req.permissions, needed)) throw new ApiError(403, 'noPermissionAccount', 403);
  return req.user.id;
}
