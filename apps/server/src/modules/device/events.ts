// Tells the gateway that device rows changed (import, transfer, reset, delete, account moves) so it drops cached
// copies at once (gateway/events.ts Subjects.deviceChanged, payload {terminalID?}; without terminalID: every
// device). The subject comes from the gateway's table so the two sides cannot drift apart again (they once did:
// 'device.changed' here, 'devices.changed' there, and the gateway only caught up on its 30 s refresh).
import type { AppContext } from '../../context.ts';
import { Subjects } from '../../gateway/events.ts';

export const DEVICE_CHANGED = Subjects.deviceChanged;

export function deviceChanged(ctx: Pick<AppContext, 'bus'>, change: { terminalIDs?: readonly string[] }): void {
  const ids = change.terminalIDs;
  if (ids && ids.length === 0) return;
  if (!ids || ids.length === 0 || ids.length > 200) {
    ctx.bus.publish(DEVICE_CHANGED, {});
    return;
  }
  for (const terminalID of ids) ctx.bus.publish(DEVICE_CHANGED, { terminalID });
}
