// The device log (device_log): logins, refusals, garbage, idle closes, written in batches. Noisy events (an unknown device
// reconnecting every few seconds) are written at most once a minute per terminal and event.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeviceLogEvent } from '../db/tables/gateway.ts';
import type { LoginActivity } from './grouped.ts';

const QUIET_EVENTS = new Set<DeviceLogEvent>([
  'refused',
  'garbage',
  'invalidPosition',
  'badChecksum',
  'unauthenticated',
  'authFailed',
  'otherProtocol',
]);
const QUIET_MS = 60_000;
/** Entries are written together: every 200 ms, or at 500 waiting (once logins give the way), 5,000 a statement. */
const FLUSH_MS = 200;
const MAX_BATCH = 500;
const MAX_ROWS = 5000;
/** Longest a write waits for logins to stop starting: a storm's log rows are written once it has passed. */
const LOG_WAIT_MS = 10_000;

export interface DeviceLogEntry {
  terminalId: string;
  deviceId: string | null;
  protocol: string;
  event: DeviceLogEvent;
  remote?: string;
  detail?: string;
}

/** A waiting row, in the short names of the insert's JSON parameter. */
interface PendingRow {
  t: string;
  d: string | null;
  p: string;
  e: DeviceLogEvent;
  r: string;
  x: string;
}

export class DeviceLog {
  private readonly lastWritten = new Map<string, number>();
  private pending: PendingRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** A write is queued and has not taken its rows yet: later entries join it. */
  private queued: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void = () => {},
    /** Logins come first: a write waits until no login is starting (at most 10 s; grouped.ts). */
    private readonly logins: LoginActivity | null = null,
  ) {}

  write(entry: DeviceLogEntry): void {
    if (QUIET_EVENTS.has(entry.event)) {
      const key = `${entry.event}:${entry.terminalId}`;
      const now = Date.now();
      const last = this.lastWritten.get(key);
      if (last !== undefined && now - last < QUIET_MS) return;
      if (this.lastWritten.size > 50_000) this.lastWritten.clear();
      this.lastWritten.set(key, now);
    }
    this.pending.push({
      t: entry.terminalId.slice(0, 40),
      d: entry.deviceId,
      p: entry.protocol,
      e: entry.event,
      r: (entry.remote ?? '').slice(0, 100),
      x: (entry.detail ?? '').slice(0, 500),
    });
    if (this.pending.length >= MAX_BATCH) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /**
   * Writes what is waiting (one insert of one JSON parameter: a reconnect storm logs thousands of logins, and a
   * query built with six parameters per row cost more to compile than to run); resolves when it is written.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued) return this.queued;
    if (this.pending.length === 0) return this.writing;
    const step = this.writing.then(async () => {
      await this.logins?.whenQuiet(LOG_WAIT_MS);
      this.queued = null;
      const rows = this.pending;
      this.pending = [];
      for (let i = 0; i < rows.length; i += MAX_ROWS) await this.insert(rows.slice(i, i + MAX_ROWS));
    });
    this.queued = step;
    this.writing = step;
    return step;
  }

  private insert(rows: PendingRow[]): Promise<void> {
    return sql`INSERT INTO device_log (terminal_id, device_id, protocol, event, remote, detail)
        SELECT x.t, x.d, x.p, x.e, x.r, x.x
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(t text, d bigint, p text, e text, r text, x text)`
      .execute(this.db)
      .then(
        () => undefined,
        (err) => this.onError(err),
      );
  }
}
