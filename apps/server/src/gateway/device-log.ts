// The device log (device_log): logins, refusals, garbage, idle closes. Noisy events (an unknown device
// reconnecting every few seconds) are written at most once a minute per terminal and event.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeviceLogEvent } from '../db/tables/gateway.ts';

const QUIET_EVENTS = new Set<DeviceLogEvent>(['refused', 'garbage', 'invalidPosition']);
const QUIET_MS = 60_000;

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
    this.db
      .insertInto('device_log')
      .values({
        terminal_id: entry.terminalId.slice(0, 40),
        device_id: entry.deviceId,
        protocol: entry.protocol,
        event: entry.event,
        remote: (entry.remote ?? '').slice(0, 100),
        detail: (entry.detail ?? '').slice(0, 500),
      })
      .execute()
      .catch(this.onError);
  }
}
