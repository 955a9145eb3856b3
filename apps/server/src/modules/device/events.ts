// Tells the gateway that device rows changed (transfer, reset, delete, account moves) so it drops cached
// copies (gateway/events.ts: 'device.changed', payload {terminalID?}; without terminalID: every device).
import type { AppContext } from '../../context.ts';

export const DEVICE_CHANGED = 'device.changed';

export function deviceChanged(ctx: Pick<AppContext, 'bus'>, change: { terminalIDs?: readonly string[] }): void {
  const ids = change.terminalIDs;
  if (ids && ids.length === 0) return;
  if (!ids || ids.length === 0 || ids.length > 200) {
    ctx.bus.publish(DEVICE_CHANGED, {});
    return;
  }
  for (const terminalID of ids) ctx.bus.publish(DEVICE_CHANGED, { terminalID });
}
