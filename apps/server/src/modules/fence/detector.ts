// Fence in/out detection on the live position stream. Every linked device's side of each opened fence is
// kept in memory (and written to fence_devices on each crossing, so a restart resumes from it); a crossing
// that the fence's alarm type cares about becomes an alarm row (codes 4 / 5 of the domain catalogue) and a
// device.alarm event for the WebSocket. The first fix after linking only establishes the side.
import { randomUUID } from 'node:crypto';
import type { FenceAlarmType } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import {
  type AlarmEvent,
  type DeviceEnvelope,
  isDeviceEnvelope,
  type PositionEvent,
  Subjects,
} from '../../gateway/events.ts';
import { containsPoint, FENCE_ENTER_ALARM, type FenceGeometry, fenceAlarmCode } from './detect.ts';
import { geometryOfRow } from './geometry.ts';

/** Bus subject: fences or their links changed; every API process reloads its detector. */
export const FENCE_CHANGED_SUBJECT = 'fence.changed';

interface Link {
  fenceId: string;
  fenceName: string;
  /** the fence row's updated_at: a changed fence starts over from the database's (reset) side */
  version: number;
  geometry: FenceGeometry;
  alarmType: FenceAlarmType;
  inside: boolean | null;
  /** fix time (ms) of the last observation, to ignore fixes that arrive late */
  lastTime: number;
}

export interface FenceDetectorStats {
  positions: number;
  crossings: number;
  alarms: number;
}

export class FenceDetector {
  private links = new Map<string, Link[]>();
  private readonly origin = randomUUID();
  private unsubscribe: (() => void)[] = [];
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private pending = new Set<Promise<void>>();
  readonly stats: FenceDetectorStats = { positions: 0, crossings: 0, alarms: 0 };

  constructor(
    private readonly ctx: AppContext,
    private readonly log: (err: unknown, what: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe.push(
      this.ctx.bus.subscribe(Subjects.position, (payload) => this.onPosition(payload)),
      this.ctx.bus.subscribe(FENCE_CHANGED_SUBJECT, (payload) => {
        if ((payload as { origin?: string } | null)?.origin === this.origin) return;
        void this.reload().catch((err) => this.log(err, 'fence reload'));
      }),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    await this.idle();
  }

  /** Resolves when every alarm write started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    if (this.reloading) await this.reloading;
  }

  /** Devices whose positions are being checked (devices linked to at least one opened fence). */
  get watchedDevices(): number {
    return this.links.size;
  }

  /** After a change through the API: reload here, and tell the other processes. */
  async changed(): Promise<void> {
    await this.reload();
    this.ctx.bus.publish(FENCE_CHANGED_SUBJECT, { origin: this.origin });
  }

  /** Re-reads opened fences and their links; keeps the in-memory side of links whose fence did not change. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.readLinks();
        } while (this.reloadAgain);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  private async readLinks(): Promise<void> {
    const rows = await this.ctx.db
      .selectFrom('fence_devices as fd')
      .innerJoin('fences as f', 'f.id', 'fd.fence_id')
      .select([
        'fd.device_id',
        'fd.inside',
        'fd.changed_at',
        'f.id',
        'f.name',
        'f.shape',
        'f.lat',
        'f.lon',
        'f.radius',
        'f.min_lat',
        'f.min_lon',
        'f.max_lat',
        'f.max_lon',
        'f.points',
        'f.alarm_type',
        'f.updated_at',
      ])
      .where('f.state', '=', 'opened')
      .execute();
    const previous = this.links;
    const next = new Map<string, Link[]>();
    for (const r of rows) {
      const version = r.updated_at.getTime();
      const old = previous.get(r.device_id)?.find((l) => l.fenceId === r.id && l.version === version);
      const link: Link = {
        fenceId: r.id,
        fenceName: r.name,
        version,
        geometry: geometryOfRow(r),
        alarmType: r.alarm_type,
        inside: old ? old.inside : r.inside,
        lastTime: old ? old.lastTime : (r.changed_at?.getTime() ?? 0),
      };
      const list = next.get(r.device_id);
      if (list) list.push(link);
      else next.set(r.device_id, [link]);
    }
    this.links = next;
  }

  private onPosition(payload: unknown): void {
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'position') return;
    const event = payload.event as PositionEvent;
    const links = this.links.get(event.deviceId);
    if (!links || !event.valid) return;
    const time = Date.parse(event.time);
    if (!Number.isFinite(time)) return;
    this.stats.positions++;
    for (const link of links) {
      if (time < link.lastTime) continue;
      const inside = containsPoint(link.geometry, event.lat, event.lon);
      const was = link.inside;
      link.lastTime = time;
      if (was === inside) continue;
      link.inside = inside;
      const code = fenceAlarmCode(link.alarmType, was, inside);
      if (was !== null) this.stats.crossings++;
      this.track(this.record(payload.path, event, link, inside, code));
    }
  }

  private track(work: Promise<void>): void {
    const p = work.catch((err) => this.log(err, 'fence alarm')).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Writes the new side and, for an alarm, the alarm row; publishes the alarm when the row is new. */
  private async record(path: string, event: PositionEvent, link: Link, inside: boolean, code: number | null) {
    const time = new Date(event.time);
    const created = await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('fence_devices')
        .set({ inside, changed_at: time })
        .where('fence_id', '=', link.fenceId)
        .where('device_id', '=', event.deviceId)
        .execute();
      if (code === null) return null;
      const inserted = await trx
        .insertInto('alarms')
        .values({
          device_id: event.deviceId,
          type: code,
          time,
          lat: event.lat,
          lon: event.lon,
          speed: event.speed,
          course: event.course,
          source: 'derived',
          name: code === FENCE_ENTER_ALARM ? 'fenceIn' : 'fenceOut',
        })
        .onConflict((oc) => oc.columns(['device_id', 'type', 'time']).doNothing())
        .returning('id')
        .executeTakeFirst();
      const alarmId =
        inserted?.id ??
        (
          await trx
            .selectFrom('alarms')
            .select('id')
            .where('device_id', '=', event.deviceId)
            .where('type', '=', code)
            .where('time', '=', time)
            .executeTakeFirst()
        )?.id;
      if (!alarmId) return null;
      await trx
        .insertInto('fence_alarms')
        .values({ alarm_id: alarmId, fence_id: link.fenceId, fence_name: link.fenceName })
        .onConflict((oc) => oc.columns(['alarm_id', 'fence_id']).doNothing())
        .execute();
      return inserted ? alarmId : null;
    });
    if (!created || code === null) return;
    this.stats.alarms++;
    const alarm: AlarmEvent = {
      type: 'alarm',
      id: created,
      deviceId: event.deviceId,
      terminalID: event.terminalID,
      alarmType: code,
      name: code === FENCE_ENTER_ALARM ? 'fenceIn' : 'fenceOut',
      source: 'derived',
      time: time.toISOString(),
      lat: event.lat,
      lon: event.lon,
      speed: event.speed,
      read: false,
    };
    const envelope: DeviceEnvelope<AlarmEvent> = { path, event: alarm };
    this.ctx.bus.publish(Subjects.alarm, envelope);
  }
}
