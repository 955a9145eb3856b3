// Periodic clean-up that no single session can do: devices left "online" by a gateway process that died
// (kill -9, power loss) go offline once they have been silent well past the idle timeout; offline commands past
// their time expire; and once a minute the offline alarm (code 20) is raised for devices silent longer than their
// threshold (OFFLINE_ALARM_MINUTES, default 10, or the model's device_model_settings.offline_alarm_minutes), once
// per outage. A disconnect alone raises nothing, so a reconnect storm makes no alarms. Safe to run in every
// gateway process at once: the alarm check takes a transaction-scoped advisory lock (one process per minute does
// it), marks the outage it alarmed (device_state.offline_alarm_for = the outage's last_seen, so a restart does not
// alarm the same outage again), and the alarm's time — last_seen + threshold — is unique per device and type.
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
}

interface OfflineAlarmRow {
  alarm_id: string;
  device_id: string;
  terminal_id: string;
  path: string | null;
  alarm_time: Date;
  lat: number | null;
  lon: number | null;
}

/** pg advisory lock key of the offline alarm check ('offl' in ASCII). */
const OFFLINE_ALARM_LOCK = 0x6f66666c;
const ALARM_CHECK_MS = 60_000;

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastAlarmCheck = 0;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'bus'>,
    private readonly state: DeviceStateWriter,
    private readonly commands: CommandStore,
    /** Silence after which a device counts as gone: longer than the sessions' own idle timeout. */
    private readonly silentMs: number,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
    /** Silence before the offline alarm, for models without their own setting. */
    private readonly offlineAlarmMinutes = 10,
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
      if (Date.now() - this.lastAlarmCheck >= ALARM_CHECK_MS) {
        this.lastAlarmCheck = Date.now();
        await this.raiseOfflineAlarms();
      }
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
        RETURNING device_id, last_seen, state_time
      )
      SELECT s.device_id, d.terminal_id, u.path, s.last_seen, s.state_time
        FROM swept s JOIN devices d ON d.id = s.device_id LEFT JOIN users u ON u.id = d.user_id`.execute(this.ctx.db);
    for (const row of res.rows) {
      const device = { id: String(row.device_id), terminalId: row.terminal_id, path: row.path ?? '' };
      this.state.publish(device, false, row.state_time, row.last_seen);
    }
    return res.rows.length;
  }

  /**
   * Raises the offline alarm for every device silent longer than its threshold whose current outage has none
   * yet (outages that began within the last 7 days). One query; returns the number of alarms raised (0 when
   * another process holds the check).
   */
  async raiseOfflineAlarms(): Promise<number> {
    const rows = await this.ctx.db.transaction().execute(async (trx) => {
      const lock = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${OFFLINE_ALARM_LOCK}) AS locked`.execute(trx);
      if (!lock.rows[0]?.locked) return [];
      const res = await sql<OfflineAlarmRow>`
        WITH due AS (
          SELECT s.device_id, s.last_seen, s.lat, s.lon,
                 s.last_seen + make_interval(mins => COALESCE(m.offline_alarm_minutes, ${this.offlineAlarmMinutes})) AS alarm_time
            FROM device_state s
            JOIN devices d ON d.id = s.device_id
            LEFT JOIN device_model_settings m ON m.device_type = d.device_type
           WHERE s.last_seen > now() - interval '7 days'
             AND s.offline_alarm_for IS DISTINCT FROM s.last_seen
             AND s.last_seen < now() - make_interval(mins => COALESCE(m.offline_alarm_minutes, ${this.offlineAlarmMinutes}))
        ), marked AS (
          UPDATE device_state s SET offline_alarm_for = due.last_seen
            FROM due WHERE s.device_id = due.device_id AND s.last_seen = due.last_seen
          RETURNING s.device_id
        ), alarmed AS (
          INSERT INTO alarms (device_id, type, name, source, time, lat, lon)
          SELECT due.device_id, ${OFFLINE_ALARM}, 'offline', 'derived', due.alarm_time, due.lat, due.lon
            FROM due JOIN marked ON marked.device_id = due.device_id
          ON CONFLICT DO NOTHING RETURNING id, device_id, time, lat, lon
        )
        SELECT a.id AS alarm_id, a.device_id, d.terminal_id, u.path, a.time AS alarm_time, a.lat, a.lon
          FROM alarmed a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = d.user_id`.execute(trx);
      return res.rows;
    });
    for (const row of rows) {
      const device = { id: String(row.device_id), terminalId: row.terminal_id, path: row.path ?? '' };
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
    return rows.length;
  }
}
