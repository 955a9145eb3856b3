// Gateway settings per device model (table device_model_settings, keyed by devices.device_type): models known
// to send bad checksums, and the silence before the offline alarm. Read by every gateway process into memory
// (reloaded every 30 s and at once when the API publishes a change), edited by the admin through
// POST /api/gateway/modelSettings/save.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ModelSetting {
  deviceType: number;
  acceptBadChecksums: boolean;
  /** null: the default (OFFLINE_ALARM_MINUTES). */
  offlineAlarmMinutes: number | null;
}

export async function listModelSettings(db: Kysely<Database>): Promise<ModelSetting[]> {
  const rows = await db.selectFrom('device_model_settings').selectAll().orderBy('device_type').execute();
  return rows.map((r) => ({
    deviceType: r.device_type,
    acceptBadChecksums: r.accept_bad_checksums,
    offlineAlarmMinutes: r.offline_alarm_minutes,
  }));
}

export async function saveModelSetting(db: Kysely<Database>, setting: ModelSetting): Promise<void> {
  await db
    .insertInto('device_model_settings')
    .values({
      device_type: setting.deviceType,
      accept_bad_checksums: setting.acceptBadChecksums,
      offline_alarm_minutes: setting.offlineAlarmMinutes,
    })
    .onConflict((oc) =>
      oc.column('device_type').doUpdateSet({
        accept_bad_checksums: setting.acceptBadChecksums,
        offline_alarm_minutes: setting.offlineAlarmMinutes,
        updated_at: new Date(),
      }),
    )
    .execute();
}

/** The in-memory copy a gateway process checks on every frame. */
export class ModelSettings {
  private lenient = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
    private readonly refreshMs = 30_000,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      this.reload().catch(this.onError);
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async reload(): Promise<void> {
    const rows = await listModelSettings(this.db);
    this.lenient = new Set(rows.filter((r) => r.acceptBadChecksums).map((r) => r.deviceType));
  }

  /** Frames with a wrong checksum are accepted from this model (default: dropped). */
  acceptsBadChecksums(deviceType: number): boolean {
    return this.lenient.has(deviceType);
  }
}
