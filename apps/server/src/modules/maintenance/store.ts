// Maintenance (issue 18): the devices' meters (statistics' total mileage and engine time plus the user's offset),
// the items with their status (domain maintenanceStatus), and the check that publishes the `maintenance` event
// once per item falling due. The check is a job on the one job queue: every API process asks for it each minute
// (one job per minute slot), the routes ask again after a change; an item is claimed by a conditional UPDATE
// (notified_at IS NULL), so however many processes or jobs run, each item falling due is published once.
import { type MaintenanceBy, type MaintenanceStatus, maintenanceStatus } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { type MaintenanceDueEvent, Subjects } from '../../gateway/events.ts';
import type { JobQueue } from '../../jobs/queue.ts';

export const MAINTENANCE_CHECK_JOB = 'maintenance.check';

export interface Meters {
  odometerKm: number;
  engineHours: number;
  statOdometerKm: number;
  statEngineHours: number;
  odometerOffsetKm: number;
  engineHoursOffset: number;
}

/** Today in the platform zone (UTC+8, spec §9), 'YYYY-MM-DD': date items fall due at its midnight. */
export function platformToday(now = Date.now()): string {
  return new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The meters of these devices (every id answered, zero without statistics). */
export async function metersOf(ctx: Pick<AppContext, 'db'>, deviceIds: string[]): Promise<Map<string, Meters>> {
  const out = new Map<string, Meters>();
  if (deviceIds.length === 0) return out;
  const rows = await sql<{ id: string; metres: number; engine: number; off_km: number; off_h: number }>`
    SELECT d.id::text AS id,
           coalesce((SELECT sum(s.mileage) FROM stat_daily s WHERE s.device_id = d.id), 0)::float8 AS metres,
           coalesce((SELECT sum(s.engine_seconds) FROM stat_daily s WHERE s.device_id = d.id), 0)::float8 AS engine,
           coalesce(m.odometer_offset_km, 0) AS off_km, coalesce(m.engine_hours_offset, 0) AS off_h
      FROM devices d LEFT JOIN maintenance_meters m ON m.device_id = d.id
     WHERE d.id = ANY(${deviceIds}::bigint[])`.execute(ctx.db);
  for (const r of rows.rows) {
    const statKm = Number(r.metres) / 1000;
    const statHours = Number(r.engine) / 3600;
    out.set(r.id, {
      odometerKm: round1(statKm + Number(r.off_km)),
      engineHours: round1(statHours + Number(r.off_h)),
      statOdometerKm: round1(statKm),
      statEngineHours: round1(statHours),
      odometerOffsetKm: Number(r.off_km),
      engineHoursOffset: Number(r.off_h),
    });
  }
  return out;
}

export interface ItemRow {
  id: string;
  device_id: string;
  terminal_id: string;
  name: string;
  kind: string;
  due_by: MaintenanceBy;
  due_km: number | null;
  due_hours: number | null;
  due_date: string | null;
  remind_before: number;
  interval_km: number | null;
  interval_hours: number | null;
  interval_months: number | null;
  note: string;
  notified_at: Date | null;
  completed_at: Date | null;
  last_done_at: Date | null;
  created_by_name: string;
  created_at: Date;
}

/** Items with their device's terminal id; `where` filters (over `maintenance_items i` / `devices d` / `users u`). */
export async function itemRows(ctx: Pick<AppContext, 'db'>, where: ReturnType<typeof sql>, limit = 1000) {
  const rows = await sql<ItemRow>`
    SELECT i.id::text AS id, i.device_id::text AS device_id, d.terminal_id, i.name, i.kind, i.due_by, i.due_km,
           i.due_hours, i.due_date::text AS due_date, i.remind_before, i.interval_km, i.interval_hours,
           i.interval_months, i.note, i.notified_at, i.completed_at, i.last_done_at, i.created_by_name, i.created_at
      FROM maintenance_items i JOIN devices d ON d.id = i.device_id LEFT JOIN users u ON u.id = d.user_id
     WHERE ${where}
     ORDER BY i.device_id, i.id
     LIMIT ${limit}`.execute(ctx.db);
  return rows.rows;
}

export function statusOf(
  r: ItemRow,
  meters: Meters | undefined,
  today: string,
): { status: MaintenanceStatus; remaining: number | null } {
  return maintenanceStatus(
    {
      by: r.due_by,
      dueKm: r.due_km === null ? null : Number(r.due_km),
      dueHours: r.due_hours === null ? null : Number(r.due_hours),
      dueDate: r.due_date,
      remindBefore: Number(r.remind_before),
      completed: r.completed_at !== null,
    },
    { odometerKm: meters?.odometerKm ?? 0, engineHours: meters?.engineHours ?? 0, today },
  );
}

/**
 * Publishes the `maintenance` event for every item that left 'ok' and was not yet announced for its threshold.
 * Answers the events published.
 */
export async function checkMaintenance(
  ctx: Pick<AppContext, 'db' | 'bus'>,
  now = Date.now(),
): Promise<MaintenanceDueEvent[]> {
  const pending = await itemRows(ctx, sql`i.notified_at IS NULL AND i.completed_at IS NULL`, 100_000);
  if (pending.length === 0) return [];
  const meters = await metersOf(ctx, [...new Set(pending.map((r) => r.device_id))]);
  const today = platformToday(now);
  const published: MaintenanceDueEvent[] = [];
  for (const r of pending) {
    const { status } = statusOf(r, meters.get(r.device_id), today);
    if (status !== 'due' && status !== 'overdue') continue;
    // The claim: only the process whose UPDATE changes the row publishes.
    const claimed = await ctx.db
      .updateTable('maintenance_items')
      .set({ notified_at: new Date(now) })
      .where('id', '=', r.id)
      .where('notified_at', 'is', null)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const event: MaintenanceDueEvent = {
      type: 'maintenance',
      deviceId: r.device_id,
      terminalID: r.terminal_id,
      itemId: r.id,
      itemName: r.name,
      dueBy: r.due_by,
      time: new Date(now).toISOString(),
    };
    ctx.bus.publish(Subjects.maintenanceDue, event);
    published.push(event);
  }
  return published;
}

/** Asks for a check soon (after a change); one job per second slot whatever the number of requests. */
export function requestMaintenanceCheck(jobs: JobQueue | undefined): Promise<unknown> {
  if (!jobs) return Promise.resolve(null);
  return jobs.enqueue(
    MAINTENANCE_CHECK_JOB,
    {},
    { singletonKey: MAINTENANCE_CHECK_JOB, singletonSeconds: 1, singletonNextSlot: true },
  );
}

/**
 * Registers the check worker and asks for a check every `everyMs` (one job per slot across processes). Answers the
 * stop function of the requesting timer.
 */
export async function startMaintenanceChecks(
  ctx: Pick<AppContext, 'db' | 'bus'>,
  jobs: JobQueue,
  onError: (err: unknown) => void,
  everyMs = 60_000,
): Promise<() => void> {
  await jobs.work(MAINTENANCE_CHECK_JOB, async () => {
    await checkMaintenance(ctx);
  });
  const slot = Math.max(1, Math.round(everyMs / 1000));
  const request = () =>
    void jobs
      .enqueue(MAINTENANCE_CHECK_JOB, {}, { singletonKey: `${MAINTENANCE_CHECK_JOB}.periodic`, singletonSeconds: slot })
      .catch(onError);
  const first = setTimeout(request, Math.min(10_000, everyMs));
  const timer = setInterval(request, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
