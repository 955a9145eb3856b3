// The device log (device_log): logins, refusals, garbage, idle closes, written in batches. Noisy events (an unknown device
// reconnecting every few seconds) are written at most once a minute per terminal and event.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeviceLogEvent, DeviceLogTable } from '../db/tables/gateway.ts';

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
/** Entries are written together: every 200 ms, or at 500 waiting. */
const FLUSH_MS = 200;
const MAX_BATCH = 500;

export interface DeviceLogEntry {
  terminalId: string;
  deviceId: string | null;
  protocol: string;
  event: DeviceLogEvent;
  remote?: string;
  detail?: string;
}

export class DeviceLog {
  private readonly lastWritten = new Map<string, number>();
  private pending: Insertable<DeviceLogTable>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void = () => {},
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
      terminal_id: entry.terminalId.slice(0, 40),
      device_id: entry.deviceId,
      protocol: entry.protocol,
      event: entry.event,
      remote: (entry.remote ?? '').slice(0, 100),
      detail: (entry.detail ?? '').slice(0, 500),
    });
    if (this.pending.length >= MAX_BATCH) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is waiting (one multi-row insert); resolves when it is written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    if (rows.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.db
        .insertInto('device_log')
        .values(rows)
        .execute()
        .then(
          () => undefined,
          (err) => this.onError(err),
        ),
    );
    return this.writing;
  }
}
