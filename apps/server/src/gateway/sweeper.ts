// Periodic clean-up that no single session can do: devices left "online" by a gateway process that died
// (kill -9, power loss) go offline once they have been silent well past the idle timeout, with an offline
// alarm; offline commands past their time expire. Safe to run in every gateway process at once.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { CommandStore } from '../modules/commands/store.ts';
import { publishAlarm } from './ingest/batcher.ts';
import { OFFLINE_ALARM } from './ingest/rules.ts';
import type { DeviceStateWriter } from './ingest/state-writer.ts';

interface SweptRow {
  device_id: string;
  terminal_id: string;
  path: string | null;
  last_seen: Date | null;
  state_time: Date;
  alarm_id: string | null;
  alarm_time: Date | null;
  lat: number | null;
  lon: number | null;
}

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'bus'>,
    private readonly state: DeviceStateWriter,
    private readonly commands: CommandStore,
    /** Silence after which a device counts as gone: longer than the sessions' own idle timeout. */
    private readonly silentMs: number,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.sweepSilentDevices();
      await this.commands.expireDue();
    } catch (err) {
      this.onError(err);
    } finally {
      this.running = false;
    }
  }

  async sweepSilentDevices(): Promise<number> {
    const res = await sql<SweptRow>`
      WITH swept AS (
        UPDATE device_state SET online = false, state_time = now(), session_key = NULL
         WHERE online AND last_seen < now() - make_interval(secs => ${this.silentMs / 1000})
        RETURNING device_id, last_seen, state_time, lat, lon
      ), alarmed AS (
        INSERT INTO alarms (device_id, type, name, source, time, lat, lon)
        SELECT device_id, ${OFFLINE_ALARM}, 'offline', 'derived', state_time, lat, lon FROM swept
        ON CONFLICT DO NOTHING RETURNING id, device_id, time
      )
      SELECT s.device_id, d.terminal_id, u.path, s.last_seen, s.state_time, s.lat, s.lon, a.id AS alarm_id, a.time AS alarm_time
        FROM swept s JOIN devices d ON d.id = s.device_id LEFT JOIN users u ON u.id = d.user_id
        LEFT JOIN alarmed a ON a.device_id = s.device_id`.execute(this.ctx.db);
    for (const row of res.rows) {
      const device = { id: String(row.device_id), terminalId: row.terminal_id, path: row.path ?? '' };
      this.state.publish(device, false, row.state_time, row.last_seen);
      if (row.alarm_id && row.alarm_time) {
        publishAlarm(this.ctx.bus, device, {
          id: String(row.alarm_id),
          type: OFFLINE_ALARM,
          name: 'offline',
          source: 'derived',
          time: row.alarm_time,
          lat: row.lat,
          lon: row.lon,
          speed: null,
        });
      }
    }
    return res.rows.length;
  }
}
