// A device's connection history (factory log/deviceState) from its gateway log events: each login opens an
// interval, the next logout / idle close / replaced session / login ends it.

export interface ConnectionEvent {
  readonly time: string;
  /** login | logout | idle | replaced | refused | garbage | push | … */
  readonly event: string;
  readonly remote: string;
}

export interface ConnectionInterval {
  readonly start: string;
  /** null: still open (the device is connected, or the log has no end for it). */
  readonly end: string | null;
  readonly remote: string;
  /** What ended it: logout, idle, replaced, login (a new login without a recorded end) or null. */
  readonly endedBy: string | null;
}

const ENDS = new Set(['logout', 'idle', 'replaced', 'garbage']);

/** Online intervals from events in time order (oldest first). */
export function connectionIntervals(events: readonly ConnectionEvent[]): ConnectionInterval[] {
  const out: ConnectionInterval[] = [];
  let open: { start: string; remote: string } | null = null;
  for (const e of events) {
    if (e.event === 'login') {
      if (open) out.push({ ...open, end: e.time, endedBy: 'login' });
      open = { start: e.time, remote: e.remote };
    } else if (ENDS.has(e.event) && open) {
      out.push({ ...open, end: e.time, endedBy: e.event });
      open = null;
    }
  }
  if (open) out.push({ ...open, end: null, endedBy: null });
  return out;
}
