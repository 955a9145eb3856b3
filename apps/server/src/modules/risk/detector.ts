// Risk point stays from the live position stream. Every device is watched against the risk points of the
// accounts above it (the owner's path starts with the point owner's path). A valid fix inside a point opens a
// visit (risk_visits); a fix outside closes it; a visit that lasts longer than the point's dwell time raises
// one alarm (code 37 'Overtime parking', name 'riskPoint', source derived) that the alarm API lists and the
// WebSocket carries. Open visits are read back at start, so a restart resumes them.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import {
  type AlarmEvent,
  type DeviceEnvelope,
  isDeviceEnvelope,
  type PositionEvent,
  Subjects,
} from '../../gateway/events.ts';
import { distanceMetres } from '../fence/detect.ts';

export const RISK_CHANGED_SUBJECT = 'riskPoint.changed';
export const RISK_ALARM_CODE = 37;
export const RISK_ALARM_NAME = 'riskPoint';
/** Bucket size of the in-memory index of points, degrees. */
const BUCKET_DEG = 0.1;

interface Point {
  id: string;
  name: string;
  lat: number;
  lon: number;
  radius: number;
  dwellMs: number;
  ownerPath: string;
}

interface Visit {
  pointId: string;
  /** resolves to the visit row's id once written */
  id: Promise<string | null>;
  enteredAt: number;
  lastAt: number;
  alarmed: boolean;
}

const bucketKey = (r: number, c: number) => `${r}:${c}`;

export class RiskDetector {
  private buckets = new Map<string, Point[]>();
  private points = new Map<string, Point>();
  private visits = new Map<string, Map<string, Visit>>();
  private chains = new Map<string, Promise<void>>();
  private readonly origin = randomUUID();
  private unsubscribe: (() => void)[] = [];
  readonly stats = { positions: 0, visits: 0, alarms: 0 };

  constructor(
    private readonly ctx: AppContext,
    private readonly log: (err: unknown, what: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
    await this.readOpenVisits();
    this.unsubscribe.push(
      this.ctx.bus.subscribe(Subjects.position, (payload) => this.onPosition(payload)),
      this.ctx.bus.subscribe(RISK_CHANGED_SUBJECT, (payload) => {
        if ((payload as { origin?: string } | null)?.origin === this.origin) return;
        void this.reload().catch((err) => this.log(err, 'risk point reload'));
      }),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    await this.idle();
  }

  /** Resolves when every write started so far has finished. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  async changed(): Promise<void> {
    await this.reload();
    this.ctx.bus.publish(RISK_CHANGED_SUBJECT, { origin: this.origin });
  }

  async reload(): Promise<void> {
    const rows = await this.ctx.db
      .selectFrom('risk_points as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.name', 'r.lat', 'r.lon', 'r.radius', 'r.dwell_minutes', 'u.path'])
      .execute();
    const points = new Map<string, Point>();
    const buckets = new Map<string, Point[]>();
    for (const r of rows) {
      const p: Point = {
        id: String(r.id),
        name: r.name,
        lat: r.lat,
        lon: r.lon,
        radius: r.radius,
        dwellMs: r.dwell_minutes * 60_000,
        ownerPath: r.path,
      };
      points.set(p.id, p);
      const dLat = r.radius / 111_195;
      const dLon = r.radius / (111_195 * Math.max(0.01, Math.cos((r.lat * Math.PI) / 180)));
      for (let br = Math.floor((r.lat - dLat) / BUCKET_DEG); br <= Math.floor((r.lat + dLat) / BUCKET_DEG); br++)
        for (let bc = Math.floor((r.lon - dLon) / BUCKET_DEG); bc <= Math.floor((r.lon + dLon) / BUCKET_DEG); bc++) {
          const key = bucketKey(br, bc);
          const list = buckets.get(key);
          if (list) list.push(p);
          else buckets.set(key, [p]);
        }
    }
    this.points = points;
    this.buckets = buckets;
    // Visits of points that no longer exist are forgotten (their rows went with the point).
    for (const [device, open] of this.visits) {
      for (const pointId of open.keys()) if (!points.has(pointId)) open.delete(pointId);
      if (open.size === 0) this.visits.delete(device);
    }
  }

  private async readOpenVisits(): Promise<void> {
    const rows = await this.ctx.db
      .selectFrom('risk_visits')
      .select(['id', 'risk_point_id', 'device_id', 'entered_at', 'last_at', 'alarm_id'])
      .where('left_at', 'is', null)
      .execute();
    for (const r of rows) {
      const device = String(r.device_id);
      const open = this.visits.get(device) ?? new Map<string, Visit>();
      open.set(String(r.risk_point_id), {
        pointId: String(r.risk_point_id),
        id: Promise.resolve(String(r.id)),
        enteredAt: r.entered_at.getTime(),
        lastAt: r.last_at.getTime(),
        alarmed: r.alarm_id !== null,
      });
      this.visits.set(device, open);
    }
  }

  /** The points whose circle holds the fix and whose owner is above the device's owner. */
  private pointsAt(lat: number, lon: number, devicePath: string): Point[] {
    const list = this.buckets.get(bucketKey(Math.floor(lat / BUCKET_DEG), Math.floor(lon / BUCKET_DEG)));
    if (!list) return [];
    return list.filter((p) => devicePath.startsWith(p.ownerPath) && distanceMetres(p.lat, p.lon, lat, lon) <= p.radius);
  }

  private onPosition(payload: unknown): void {
    if (!isDeviceEnvelope(payload) || payload.event.type !== 'position') return;
    const event = payload.event as PositionEvent;
    if (!event.valid) return;
    const time = Date.parse(event.time);
    if (!Number.isFinite(time)) return;
    const open = this.visits.get(event.deviceId);
    if (this.points.size === 0 && !open) return;
    this.stats.positions++;
    const here = this.pointsAt(event.lat, event.lon, payload.path);
    const hereIds = new Set(here.map((p) => p.id));
    // Leaving: open visits of points the fix is outside of.
    if (open) {
      for (const [pointId, visit] of open) {
        if (hereIds.has(pointId) || time < visit.lastAt) continue;
        open.delete(pointId);
        this.queue(event.deviceId, async () => {
          const id = await visit.id;
          if (id)
            await this.ctx.db
              .updateTable('risk_visits')
              .set({ left_at: new Date(time), last_at: new Date(visit.lastAt) })
              .where('id', '=', id)
              .execute();
        });
      }
      if (open.size === 0) this.visits.delete(event.deviceId);
    }
    for (const point of here) {
      const visits = this.visits.get(event.deviceId) ?? new Map<string, Visit>();
      this.visits.set(event.deviceId, visits);
      let visit = visits.get(point.id);
      if (!visit) {
        const entered = time;
        const id = new Promise<string | null>((resolve) => {
          this.queue(event.deviceId, async () => {
            try {
              const row = await this.ctx.db
                .insertInto('risk_visits')
                .values({
                  risk_point_id: point.id,
                  device_id: event.deviceId,
                  entered_at: new Date(entered),
                  last_at: new Date(entered),
                })
                .onConflict((oc) => oc.columns(['risk_point_id', 'device_id', 'entered_at']).doNothing())
                .returning('id')
                .executeTakeFirst();
              resolve(row?.id ? String(row.id) : null);
            } catch (err) {
              resolve(null);
              throw err;
            }
          });
        });
        visit = { pointId: point.id, id, enteredAt: entered, lastAt: entered, alarmed: false };
        visits.set(point.id, visit);
        this.stats.visits++;
      }
      if (time > visit.lastAt) visit.lastAt = time;
      if (!visit.alarmed && visit.lastAt - visit.enteredAt >= point.dwellMs) {
        visit.alarmed = true;
        const v = visit;
        this.queue(event.deviceId, () => this.raise(payload.path, event, point, v));
      }
    }
  }

  /** Runs one device's writes in order (a visit is written before it is closed or alarmed). */
  private queue(deviceId: string, work: () => Promise<void>): void {
    const prev = this.chains.get(deviceId) ?? Promise.resolve();
    const next = prev.then(work).catch((err) => this.log(err, 'risk point visit'));
    this.chains.set(deviceId, next);
    void next.finally(() => {
      if (this.chains.get(deviceId) === next) this.chains.delete(deviceId);
    });
  }

  private async raise(path: string, event: PositionEvent, _point: Point, visit: Visit): Promise<void> {
    const visitId = await visit.id;
    const time = new Date(event.time);
    const inserted = await this.ctx.db
      .insertInto('alarms')
      .values({
        device_id: event.deviceId,
        type: RISK_ALARM_CODE,
        time,
        lat: event.lat,
        lon: event.lon,
        speed: event.speed,
        course: event.course,
        source: 'derived',
        name: RISK_ALARM_NAME,
      })
      .onConflict((oc) => oc.columns(['device_id', 'type', 'time']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return;
    if (visitId)
      await this.ctx.db
        .updateTable('risk_visits')
        .set({ alarm_id: inserted.id, last_at: new Date(visit.lastAt) })
        .where('id', '=', visitId)
        .execute();
    this.stats.alarms++;
    const alarm: AlarmEvent = {
      type: 'alarm',
      id: inserted.id,
      deviceId: event.deviceId,
      terminalID: event.terminalID,
      alarmType: RISK_ALARM_CODE,
      name: RISK_ALARM_NAME,
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
