// Spec §4: "Inactive and expired devices cannot be used normally." The server refuses the device services — live
// and offline commands, history tracks — for an expired device (the earlier of the platform and user expiries
// has come), answering the spec's message in the caller's language; reading the device's own data (list,
// details, alarms) stays open so the user can see the expiry and renew. A device not activated yet (never
// connected) may still get offline commands — resellers queue settings before a tracker first connects — and
// has no track to read. The web checks the same before it offers a feature (features/monitor/access.ts).
import { effectiveExpiry, isExpired } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';

export async function assertNotExpired(ctx: Pick<AppContext, 'db'>, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  const rows = await ctx.db
    .selectFrom('devices')
    .select(['platform_expire_at', 'user_expire_at'])
    .where('id', 'in', [...deviceIds])
    .execute();
  const now = Date.now();
  for (const row of rows) {
    // The domain's access check (checkDeviceAccess) answers 'not activated' before 'expired'; here only the
    // expiry decides, whether or not the device has connected yet.
    const expire = effectiveExpiry(row.platform_expire_at?.getTime(), row.user_expire_at?.getTime());
    if (isExpired(expire, now)) throw badRequest('device.expired');
  }
}
