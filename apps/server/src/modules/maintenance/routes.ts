// /api/maintenance/* — maintenance reminders per device (issue 18): items due by odometer, engine hours or date,
// the device's meters (statistics plus an offset set from the real reading), the due and overdue list of the
// caller's fleet. Reads need main:monitor, changes main:device_edit; every device must be in the caller's subtree.
import { nextMaintenanceDue } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { deviceByRef, withinSubtree } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';
import {
  type ItemRow,
  itemRows,
  type Meters,
  metersOf,
  platformToday,
  requestMaintenanceCheck,
  statusOf,
} from './store.ts';

const READ = ['main:monitor'];
const WRITE = ['main:device_edit'];

const deviceRef = { terminalID: terminalIdSchema.optional(), deviceId: idSchema.optional() };
const byEnum = z.enum(['km', 'hours', 'date']);
const dateSchema = z.string().regex(/^\d{4}-\d\d-\d\d$/);
const amount = z.number().min(0).max(10_000_000);

const itemFields = {
  name: z.string().trim().min(1).max(64),
  kind: z.enum(['oil', 'insurance', 'inspection', 'tyres', 'other']).optional(),
  by: byEnum,
  dueKm: amount.nullable().optional(),
  dueHours: amount.nullable().optional(),
  dueDate: dateSchema.nullable().optional(),
  remindBefore: amount.optional(),
  intervalKm: amount.nullable().optional(),
  intervalHours: amount.nullable().optional(),
  intervalMonths: z.number().int().min(1).max(120).nullable().optional(),
  note: z.string().max(500).optional(),
};

const metersSchema = z.object({
  odometerKm: z.number(),
  engineHours: z.number(),
  statOdometerKm: z.number(),
  statEngineHours: z.number(),
  odometerOffsetKm: z.number(),
  engineHoursOffset: z.number(),
});

const itemSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  name: z.string(),
  kind: z.string(),
  by: byEnum,
  dueKm: z.number().nullable(),
  dueHours: z.number().nullable(),
  dueDate: z.string().nullable(),
  remindBefore: z.number(),
  intervalKm: z.number().nullable(),
  intervalHours: z.number().nullable(),
  intervalMonths: z.number().nullable(),
  note: z.string(),
  status: z.enum(['ok', 'due', 'overdue', 'done']),
  /** km, hours or days left before the threshold (negative once passed) */
  remaining: z.number().nullable(),
  lastDoneAt: z.string().nullable(),
  createdBy: z.string(),
});

function present(r: ItemRow, meters: Meters | undefined, today: string): z.infer<typeof itemSchema> {
  const { status, remaining } = statusOf(r, meters, today);
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    terminalID: r.terminal_id,
    name: r.name,
    kind: r.kind,
    by: r.due_by,
    dueKm: num(r.due_km),
    dueHours: num(r.due_hours),
    dueDate: r.due_date,
    remindBefore: Number(r.remind_before),
    intervalKm: num(r.interval_km),
    intervalHours: num(r.interval_hours),
    intervalMonths: r.interval_months,
    note: r.note,
    status,
    remaining,
    lastDoneAt: r.last_done_at ? new Date(r.last_done_at).toISOString() : null,
    createdBy: r.created_by_name,
  };
}

type ItemInput = {
  by: 'km' | 'hours' | 'date';
  dueKm?: number | null;
  dueHours?: number | null;
  dueDate?: string | null;
};

/** The threshold the item's `by` needs must be given. */
function checkThreshold(b: ItemInput): void {
  if (b.by === 'km' && (b.dueKm === undefined || b.dueKm === null))
    throw badRequest('invalidParam', { field: 'dueKm' });
  if (b.by === 'hours' && (b.dueHours === undefined || b.dueHours === null))
    throw badRequest('invalidParam', { field: 'dueHours' });
  if (b.by === 'date' && !b.dueDate) throw badRequest('invalidParam', { field: 'dueDate' });
  if (b.dueDate && Number.isNaN(Date.parse(`${b.dueDate}T00:00:00Z`)))
    throw badRequest('invalidParam', { field: 'dueDate' });
}

export async function maintenanceRoutes(app: App, ctx: AppContext): Promise<void> {
  const jobs = () => ctx.services.jobs;
  const changed = () => {
    requestMaintenanceCheck(jobs()).catch(() => {});
  };

  /** An item whose device is in the caller's subtree. */
  const reachableItem = async (caller: NonNullable<Parameters<typeof deviceByRef>[1]>, id: string) => {
    const row = await ctx.db
      .selectFrom('maintenance_items as i')
      .innerJoin('devices as d', 'd.id', 'i.device_id')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .select(['i.id', 'i.device_id', 'i.due_by', 'i.interval_km', 'i.interval_hours', 'i.interval_months', 'u.path'])
      .where('i.id', '=', id)
      .executeTakeFirst();
    if (!row) throw caller.role === 1 ? notFound() : noPermission();
    if (!reachesPath(caller, row.path ?? '')) throw noPermission();
    return row;
  };

  app.post(
    '/maintenance/find',
    {
      config: { permission: READ },
      schema: {
        tags: ['maintenance'],
        summary: "A device's maintenance items with their status (ok, due, overdue, done) and its current meters",
        body: z.object(deviceRef),
        response: { 200: envelopeOf(z.object({ meters: metersSchema, items: z.array(itemSchema) })) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const meters = (await metersOf(ctx, [device.id])).get(device.id)!;
      const rows = await itemRows(ctx, sql`i.device_id = ${device.id}`);
      const today = platformToday();
      return ok({ meters, items: rows.map((r) => present(r, meters, today)) });
    },
  );

  app.post(
    '/maintenance/dueList',
    {
      config: { permission: READ },
      schema: {
        tags: ['maintenance'],
        summary: "The due and overdue maintenance items of the caller's fleet (its whole subtree), most urgent first",
        body: z.object({}),
        response: { 200: envelopeOf(z.array(itemSchema.extend({ deviceName: z.string() }))) },
      },
    },
    async (req) => {
      const rows = await itemRows(ctx, sql`i.completed_at IS NULL AND ${withinSubtree(req.user!)}`, 5000);
      const meters = await metersOf(ctx, [...new Set(rows.map((r) => r.device_id))]);
      const names = new Map(
        (rows.length
          ? await ctx.db
              .selectFrom('devices')
              .select(['id', 'nickname', 'car_number', 'terminal_id'])
              .where(
                'id',
                'in',
                rows.map((r) => r.device_id),
              )
              .execute()
          : []
        ).map((d) => [String(d.id), d.nickname || d.car_number || d.terminal_id]),
      );
      const today = platformToday();
      const list = rows
        .map((r) => ({ ...present(r, meters.get(r.device_id), today), deviceName: names.get(r.device_id) ?? '' }))
        .filter((i) => i.status === 'due' || i.status === 'overdue')
        .sort((a, b) => (a.status === b.status ? 0 : a.status === 'overdue' ? -1 : 1));
      return ok(list);
    },
  );

  app.post(
    '/maintenance/add',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['maintenance'],
        summary:
          'Adds a maintenance item to a device: due by odometer (dueKm), engine hours (dueHours) or date (dueDate)',
        body: z.object({ ...deviceRef, ...itemFields }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const b = req.body;
      const device = await deviceByRef(ctx, req.user!, b);
      checkThreshold(b);
      const row = await ctx.db
        .insertInto('maintenance_items')
        .values({
          device_id: device.id,
          name: b.name,
          kind: b.kind ?? 'other',
          due_by: b.by,
          due_km: b.by === 'km' ? (b.dueKm ?? null) : null,
          due_hours: b.by === 'hours' ? (b.dueHours ?? null) : null,
          due_date: b.by === 'date' ? (b.dueDate ?? null) : null,
          remind_before: b.remindBefore ?? 0,
          interval_km: b.intervalKm ?? null,
          interval_hours: b.intervalHours ?? null,
          interval_months: b.intervalMonths ?? null,
          note: b.note ?? '',
          created_by_name: req.user!.username,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      changed();
      return ok({ id: String(row.id) });
    },
  );

  app.post(
    '/maintenance/update',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['maintenance'],
        summary: 'Changes a maintenance item; a new threshold is announced again when it falls due',
        body: z.object({ id: idSchema, ...itemFields }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const b = req.body;
      const item = await reachableItem(req.user!, b.id);
      checkThreshold(b);
      await ctx.db
        .updateTable('maintenance_items')
        .set({
          name: b.name,
          kind: b.kind ?? 'other',
          due_by: b.by,
          due_km: b.by === 'km' ? (b.dueKm ?? null) : null,
          due_hours: b.by === 'hours' ? (b.dueHours ?? null) : null,
          due_date: b.by === 'date' ? (b.dueDate ?? null) : null,
          remind_before: b.remindBefore ?? 0,
          interval_km: b.intervalKm ?? null,
          interval_hours: b.intervalHours ?? null,
          interval_months: b.intervalMonths ?? null,
          note: b.note ?? '',
          notified_at: null,
          completed_at: null,
        })
        .where('id', '=', item.id)
        .execute();
      changed();
      return ok({ id: String(item.id) });
    },
  );

  app.post(
    '/maintenance/done',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['maintenance'],
        summary:
          'Marks a maintenance item done now: with an interval its next threshold is the current meter (or today) plus the interval, without one it is completed',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const item = await reachableItem(req.user!, req.body.id);
      const meters = (await metersOf(ctx, [String(item.device_id)])).get(String(item.device_id));
      const next = nextMaintenanceDue(
        item.due_by,
        { intervalKm: item.interval_km, intervalHours: item.interval_hours, intervalMonths: item.interval_months },
        { odometerKm: meters?.odometerKm ?? 0, engineHours: meters?.engineHours ?? 0, today: platformToday() },
      );
      await ctx.db
        .updateTable('maintenance_items')
        .set({
          last_done_at: new Date(),
          notified_at: null,
          completed_at: next ? null : new Date(),
          ...(next?.dueKm !== undefined ? { due_km: next.dueKm } : {}),
          ...(next?.dueHours !== undefined ? { due_hours: next.dueHours } : {}),
          ...(next?.dueDate !== undefined ? { due_date: next.dueDate } : {}),
        })
        .where('id', '=', item.id)
        .execute();
      changed();
      return ok({ id: String(item.id) });
    },
  );

  app.post(
    '/maintenance/delete',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['maintenance'],
        summary: 'Deletes a maintenance item',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const item = await reachableItem(req.user!, req.body.id);
      await ctx.db.deleteFrom('maintenance_items').where('id', '=', item.id).execute();
      return ok({ id: String(item.id) });
    },
  );

  app.post(
    '/maintenance/setMeters',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['maintenance'],
        summary:
          "Sets a device's current odometer (km) and/or engine hours from the real reading: kept as an offset to the statistics' totals, so the meters keep counting",
        body: z.object({ ...deviceRef, odometerKm: amount.optional(), engineHours: amount.optional() }),
        response: { 200: envelopeOf(metersSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const device = await deviceByRef(ctx, req.user!, b);
      if (b.odometerKm === undefined && b.engineHours === undefined)
        throw badRequest('invalidParam', { field: 'odometerKm' });
      const current = (await metersOf(ctx, [device.id])).get(device.id)!;
      const offKm = b.odometerKm === undefined ? current.odometerOffsetKm : b.odometerKm - current.statOdometerKm;
      const offH = b.engineHours === undefined ? current.engineHoursOffset : b.engineHours - current.statEngineHours;
      await ctx.db
        .insertInto('maintenance_meters')
        .values({
          device_id: device.id,
          odometer_offset_km: offKm,
          engine_hours_offset: offH,
          updated_by_name: req.user!.username,
        })
        .onConflict((oc) =>
          oc.column('device_id').doUpdateSet({
            odometer_offset_km: offKm,
            engine_hours_offset: offH,
            updated_at: new Date(),
            updated_by_name: req.user!.username,
          }),
        )
        .execute();
      changed();
      return ok((await metersOf(ctx, [device.id])).get(device.id)!);
    },
  );
}
