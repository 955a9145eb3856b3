// /api/driver/*: driver records of an account, a vehicle's current driver and who drove it when (issue 16).
// Reading needs what the monitor or the device list needs; writing needs device edit. Every record and device
// must be within the caller's subtree.
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf } from '../../http/envelope.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idSchema, pageParams, text } from '../agent/schema.ts';
import { type Caller, loadReachableUser, reaches } from '../agent/scope.ts';
import { deviceByRef } from '../location/devices.ts';
import { instantSchema, terminalIdSchema } from '../location/params.ts';
import { setCurrentDriver } from './drivers.ts';

const driverSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  phone: z.string(),
  licence: z.string(),
  icCard: z.string(),
  /** IMEIs of the vehicles this driver drives now. */
  vehicles: z.array(z.string()),
});

const logSchema = z.object({
  time: z.string(),
  action: z.enum(['in', 'out']),
  name: z.string(),
  icCard: z.string(),
  source: z.enum(['card', 'manual']),
});

const driverFields = {
  name: text(50).min(1),
  phone: z
    .string()
    .trim()
    .regex(/^[0-9+\-() ]{0,20}$/)
    .default(''),
  licence: text(40).default(''),
  icCard: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{0,30}$/)
    .default(''),
};

async function loadDriver(ctx: AppContext, caller: Caller, id: string) {
  const row = await ctx.db
    .selectFrom('drivers as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.user_id', 'r.name', 'r.phone', 'r.ic_card', 'u.path'])
    .where('r.id', '=', id)
    .executeTakeFirst();
  if (!row) throw caller.role === 1 ? notFound() : noPermission();
  if (!reaches(caller, row.path)) throw noPermission();
  return row;
}

export async function driverRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/driver/find',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['driver'],
        summary:
          'Driver records of an account of the caller’s subtree (the caller by default), with the vehicles each drives now',
        body: z.object({ userId: idSchema.optional(), keyword: text(50).optional(), ...pageParams }),
        response: { 200: envelopeOf(pageOf(driverSchema)) },
      },
    },
    async (req) => {
      const owner = await loadReachableUser(ctx, req.user!, req.body.userId ?? req.user!.id);
      let q = ctx.db
        .selectFrom('drivers as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .where('r.user_id', '=', owner.id);
      const kw = req.body.keyword?.trim();
      if (kw) {
        const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([eb('r.name', 'ilike', like), eb('r.phone', 'ilike', like), eb('r.ic_card', 'ilike', like)]),
        );
      }
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['r.id', 'r.user_id', 'u.username', 'r.name', 'r.phone', 'r.licence', 'r.ic_card'])
        .select(
          sql<
            string[]
          >`coalesce((SELECT array_agg(d.terminal_id ORDER BY d.terminal_id) FROM devices d WHERE d.driver_id = r.id), '{}')`.as(
            'vehicles',
          ),
        )
        .orderBy('r.id', 'desc')
        .limit(req.body.pageSize)
        .offset((req.body.pageNum - 1) * req.body.pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          id: String(r.id),
          userId: String(r.user_id),
          username: r.username,
          name: r.name,
          phone: r.phone,
          licence: r.licence,
          icCard: r.ic_card,
          vehicles: r.vehicles ?? [],
        })),
      });
    },
  );

  app.post(
    '/driver/save',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['driver'],
        summary:
          'Add a driver record to an account of the caller’s subtree (userId, the caller by default), or change one (id)',
        body: z.object({ id: idSchema.optional(), userId: idSchema.optional(), ...driverFields }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const b = req.body;
      const values = { name: b.name, phone: b.phone, licence: b.licence, ic_card: b.icCard };
      let id: string;
      if (b.id) {
        const row = await loadDriver(ctx, req.user!, b.id);
        await ctx.db
          .updateTable('drivers')
          .set({ ...values, updated_at: new Date() })
          .where('id', '=', b.id)
          .execute();
        // The vehicles it drives now show the new name and phone.
        await ctx.db
          .updateTable('devices')
          .set({ driver_name: b.name, driver_phone: b.phone })
          .where('driver_id', '=', b.id)
          .execute();
        id = String(row.id);
      } else {
        const owner = await loadReachableUser(ctx, req.user!, b.userId ?? req.user!.id);
        const row = await ctx.db
          .insertInto('drivers')
          .values({ user_id: owner.id, ...values })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = String(row.id);
      }
      return ok({ id }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/driver/delete',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['driver'],
        summary: 'Delete a driver record; the vehicles it drives now have no driver afterwards',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await loadDriver(ctx, req.user!, req.body.id);
      const driving = await ctx.db.selectFrom('devices').select('id').where('driver_id', '=', req.body.id).execute();
      for (const d of driving) await setCurrentDriver(ctx.db, String(d.id), null, new Date(), 'manual');
      await ctx.db.deleteFrom('drivers').where('id', '=', req.body.id).execute();
      return ok(null, translate('action.delete.success', callerLang(req)));
    },
  );

  app.post(
    '/driver/assign',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['driver'],
        summary:
          'Set the current driver of a vehicle by hand (driverId; null: none). A JT/T 808 driver card (0x0702) sets it too',
        body: z.object({ terminalID: terminalIdSchema, driverId: idSchema.nullable() }),
        response: { 200: envelopeOf(z.object({ driverName: z.string(), driverPhone: z.string() })) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, { terminalID: req.body.terminalID });
      const driver = req.body.driverId ? await loadDriver(ctx, req.user!, req.body.driverId) : null;
      // A record of another branch may not drive this device: the record's account must be the owner or above.
      if (driver && !device.path.startsWith(driver.path)) throw noPermission();
      await setCurrentDriver(
        ctx.db,
        device.id,
        driver ? { id: String(driver.id), name: driver.name, phone: driver.phone, card: driver.ic_card } : null,
        new Date(),
        'manual',
      );
      return ok(
        { driverName: driver?.name ?? '', driverPhone: driver?.phone ?? '' },
        translate('action.save.success', callerLang(req)),
      );
    },
  );

  app.post(
    '/driver/history',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['driver'],
        summary: 'Who drove a vehicle: the driver changes (card in or out, set by hand) in a time range, newest first',
        body: z.object({
          terminalID: terminalIdSchema,
          startTime: instantSchema.optional(),
          endTime: instantSchema.optional(),
        }),
        response: { 200: envelopeOf(z.array(logSchema)) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, { terminalID: req.body.terminalID });
      let q = ctx.db
        .selectFrom('driver_log')
        .select(['time', 'action', 'name', 'ic_card', 'source'])
        .where('device_id', '=', device.id);
      const { startTime, endTime } = req.body;
      if (startTime !== undefined) q = q.where('time', '>=', new Date(startTime));
      if (endTime !== undefined) q = q.where('time', '<=', new Date(endTime));
      const rows = await q.orderBy('time', 'desc').orderBy('id', 'desc').limit(1000).execute();
      return ok(
        rows.map((r) => ({
          time: r.time.toISOString(),
          action: r.action,
          name: r.name,
          icCard: r.ic_card,
          source: r.source,
        })),
      );
    },
  );
}
