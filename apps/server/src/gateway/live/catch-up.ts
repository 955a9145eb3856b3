// Live catch-up after a bus outage. Positions and state changes reach the WebSocket hub over the bus; while the
// bus is away (NATS restarted) the gateway keeps storing fixes but their events are lost. When the bus comes back
// the hub reads from device_state every device seen since shortly before the outage began and sends each
// browser, within its hierarchy and watch list, the device's latest position and online state, so the map is
// right again without a reload. A second pass a moment later picks up the fixes still on their way to
// device_state when the first one read it (the gateway writes it coalesced, GATEWAY_STATE_FLUSH_MS). A browser
// may so see a fix twice, but never misses a stored one.
import type pg from 'pg';
import type { DeviceEnvelope, PositionEvent, StateEvent } from '../events.ts';

/** Read this much before the outage began: events published just before it, clocks of other processes. */
const MARGIN_MS = 5000;

interface ChangedRow {
  device_id: string;
  terminal_id: string;
  path: string | null;
  online: boolean;
  state_time: Date | null;
  last_seen: Date;
  pos_time: Date | null;
  lat: number | null;
  lon: number | null;
  altitude: number | null;
  speed: number | null;
  course: number | null;
  valid: boolean | null;
  location_type: string | null;
  acc: boolean | null;
  battery: number | null;
}

const CHANGED_SQL = `SELECT s.device_id::text AS device_id, d.terminal_id, u.path, s.online, s.state_time, s.last_seen,
    s.pos_time, s.lat, s.lon, s.altitude, s.speed, s.course, s.valid, s.location_type, s.acc, s.battery
  FROM device_state s JOIN devices d ON d.id = s.device_id LEFT JOIN users u ON u.id = d.user_id
  WHERE s.last_seen >= $1 OR s.state_time >= $1`;

/** A device's latest state as the events the hub sends (its position, when it has one, then its online state). */
function envelopesOf(r: ChangedRow): DeviceEnvelope[] {
  const path = r.path ?? '';
  const out: DeviceEnvelope[] = [];
  if (r.pos_time && r.lat !== null && r.lon !== null) {
    const position: PositionEvent = {
      type: 'position',
      deviceId: r.device_id,
      terminalID: r.terminal_id,
      time: r.pos_time.toISOString(),
      lat: r.lat,
      lon: r.lon,
      speed: r.speed ?? 0,
      course: r.course ?? 0,
      altitude: r.altitude ?? 0,
      valid: r.valid ?? false,
      locationType: r.location_type,
      acc: r.acc,
      battery: r.battery,
      receivedAt: r.last_seen.toISOString(),
    };
    out.push({ path, event: position });
  }
  if (r.state_time) {
    const state: StateEvent = {
      type: 'state',
      deviceId: r.device_id,
      terminalID: r.terminal_id,
      online: r.online,
      stateTime: r.state_time.toISOString(),
      lastSeen: r.last_seen.toISOString(),
    };
    out.push({ path, event: state });
  }
  return out;
}

/**
 * Catches the hub up after each bus outage: `send` gets the envelopes of every device that changed since the
 * outage began (less a margin), at once and again after `secondPassMs` for the devices whose row changed between.
 */
export class LiveCatchUp {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  /** Devices sent by catch-ups so far (a figure for tests and metrics). */
  sent = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly send: (envelope: DeviceEnvelope) => void,
    private readonly secondPassMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts the catch-up of an outage that began at `downSince` (ms). */
  resume(downSince: number): void {
    const since = new Date(downSince - MARGIN_MS);
    void this.pass(since, null).then((seen) => {
      if (this.stopped) return;
      // After a failed first read (the database away too), the second one sends everything.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.pass(since, seen);
      }, this.secondPassMs);
      this.timers.add(timer);
    });
  }

  /** One read and send; with `before`, only devices whose row changed since that read. Answers what it read. */
  private async pass(since: Date, before: Map<string, string> | null): Promise<Map<string, string> | null> {
    try {
      const rows = (await this.pool.query<ChangedRow>(CHANGED_SQL, [since])).rows;
      const seen = new Map<string, string>();
      for (const r of rows) {
        const stamp = `${r.last_seen.getTime()}|${r.state_time?.getTime()}|${r.pos_time?.getTime()}|${r.online}`;
        seen.set(r.device_id, stamp);
        if (this.stopped || before?.get(r.device_id) === stamp) continue;
        for (const e of envelopesOf(r)) this.send(e);
        this.sent++;
      }
      return seen;
    } catch (err) {
      this.onError(err);
      return null;
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
