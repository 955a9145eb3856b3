// /api/riskPoint/*: risk points (spec §2 riskPoint) — places where a financed car should not be. A point belongs
// to an account; whoever reaches the owner reaches the point, and the point watches every device below the
// owner. Stays longer than the point's dwell time raise an alarm (detector.ts); the visits report lists stays
// per device. Every call needs main:risk_point (the administrator's, or granted to an agent).
import { displayName } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { likePattern } from '../fence/queries.ts';
import { type Caller, deviceByRef, reachableUserPath } from '../location/devices.ts';
import { idSchema, instantSchema, terminalIdSchema } from '../location/params.ts';
import { RiskDetector } from './detector.ts';
import { RISK_KINDS, readRiskRows, riskTemplate } from './sheet.ts';

declare module '../../context.ts' {
  interface AppServices {
    riskDetector: RiskDetector;
  }
}

const RISK = { permission: ['main:risk_point'] };
const tags = ['riskPoint'];
const IMPORT_MAX_ROWS = 2000;

const fields = {
  name: z.string().trim().min(1).max(50),
  kind: z.enum(RISK_KINDS).default('other'),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  /** metres, 10 to 100000 */
  radius: z.number().min(10).max(100_000),
  note: z.string().trim().max(500).default(''),
  /** a stay longer than this raises the alarm, minutes (1 to 10080, a week) */
  dwellMinutes: z.number().int().min(1).max(10_080).default(30),
};

const riskSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  kind: z.string(),
  lat: z.number(),
  lon: z.number(),
  radius: z.number(),
  note: z.string(),
  dwellMinutes: z.number().int(),
  /** devices inside it now */
  inside: z.number().int(),
  updatedAt: z.string(),
});

const visitSchema = z.object({
  id: z.string(),
  riskPointId: z.string(),
  riskPointName: z.string(),
  kind: z.string(),
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  enteredAt: z.string(),
  /** null while the device is still inside */
  leftAt: z.string().nullable(),
  /** milliseconds from entering to leaving (or to the last fix inside while it stays) */
  duration: z.number(),
  alarmed: z.boolean(),
});

function pointQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('risk_points as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.user_id',
      'u.username',
      'u.path',
      'r.name',
      'r.kind',
      'r.lat',
      'r.lon',
      'r.radius',
      'r.note',
      'r.dwell_minutes',
      'r.updated_at',
      sql<string>`(SELECT count(*) FROM risk_visits v WHERE v.risk_point_id = r.id AND v.left_at IS NULL)`.as('inside'),
    ]);
}

type PointRow = Awaited<ReturnType<ReturnType<typeof pointQuery>['executeTakeFirstOrThrow']>>;

function present(r: PointRow): z.infer<typeof riskSchema> {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    username: r.username,
    name: r.name,
    kind: r.kind,
    lat: r.lat,
    lon: r.lon,
    radius: r.radius,
    note: r.note,
    dwellMinutes: r.dwell_minutes,
    inside: Number(r.inside),
    updatedAt: r.updated_at.toISOString(),
  };
}

export async function riskRoutes(app: App, ctx: AppContext): Promise<void> {
  const detector = new RiskDetector(ctx, (err, what) => app.log.error({ err }, what));
  await detector.start();
  ctx.services.riskDetector = detector;
  app.addHook('onClose', async () => detector.stop());

  const load = async (caller: Caller, id: string) => {
    const row = await pointQuery(ctx).where('r.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    if (!reachesPath(caller, row.path)) throw noPermission();
    return row;
  };

  app.post(
    '/riskPoint/find',
    {
      config: RISK,
      schema: {
        tags,
        summary: 'Risk points the caller reaches (optionally of one owner, by name or kind), newest first',
        body: z.object({
          name: z.string().trim().max(50).optional(),
          kind: z.enum(RISK_KINDS).optional(),
          userId: idSchema.optional(),
          pageNum: pageQuery.pageNum,
          pageSize: z.coerce.number().int().min(1).max(1000).default(15),
        }),
        response: { 200: envelopeOf(pageOf(riskSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      const me = req.user!;
      let q = pointQuery(ctx).where(me.role === 1 ? sql<boolean>`true` : sql<boolean>`u.path LIKE ${`${me.path}%`}`);
      if (b.userId) {
        const owner = await reachableUserPath(ctx, me, b.userId);
        q = q.where('r.user_id', '=', owner.id);
      }
      if (b.name) q = q.where('r.name', 'ilike', likePattern(b.name));
      if (b.kind) q = q.where('r.kind', '=', b.kind);
      const total = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await q
        .orderBy('r.id', 'desc')
        .limit(b.pageSize)
        .offset((b.pageNum - 1) * b.pageSize)
        .execute();
      return ok({ total: Number(total.n), list: rows.map(present) });
    },
  );

  app.post(
    '/riskPoint/add',
    {
      config: RISK,
      schema: {
        tags,
        summary: 'Add a risk point (circle, WGS-84) for the caller or an account below it',
        body: z.object({ ...fields, userId: idSchema.optional() }),
        response: { 200: envelopeOf(riskSchema) },
      },
    },
    async (req) => {
      const { userId, dwellMinutes, ...b } = req.body;
      const owner = await reachableUserPath(ctx, req.user!, userId);
      const row = await ctx.db
        .insertInto('risk_points')
        .values({ ...b, user_id: owner.id, dwell_minutes: dwellMinutes })
        .returning('id')
        .executeTakeFirstOrThrow();
      await detector.changed();
      return ok(present(await load(req.user!, String(row.id))));
    },
  );

  app.post(
    '/riskPoint/update',
    {
      config: RISK,
      schema: {
        tags,
        summary: 'Change a risk point',
        body: z.object({
          id: idSchema,
          name: fields.name.optional(),
          kind: z.enum(RISK_KINDS).optional(),
          lat: fields.lat.optional(),
          lon: fields.lon.optional(),
          radius: fields.radius.optional(),
          note: z.string().trim().max(500).optional(),
          dwellMinutes: z.number().int().min(1).max(10_080).optional(),
        }),
        response: { 200: envelopeOf(riskSchema) },
      },
    },
    async (req) => {
      const { id, dwellMinutes, ...b } = req.body;
      await load(req.user!, id);
      const set = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
      await ctx.db
        .updateTable('risk_points')
        .set({ ...set, ...(dwellMinutes !== undefined ? { dwell_minutes: dwellMinutes } : {}), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await detector.changed();
      return ok(present(await load(req.user!, id)));
    },
  );

  app.post(
    '/riskPoint/delete',
    {
      config: RISK,
      schema: {
        tags,
        summary: 'Delete a risk point and its visits',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await load(req.user!, req.body.id);
      await ctx.db.deleteFrom('risk_points').where('id', '=', req.body.id).execute();
      await detector.changed();
      return ok(null);
    },
  );

  app.get(
    '/riskPoint/template',
    {
      config: RISK,
      schema: { tags, summary: 'The xlsx template of the risk point import' },
    },
    async (_req, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="risk-points.xlsx"')
        .send(await riskTemplate()),
  );

  const lineResult = z.object({ line: z.number().int(), ok: z.boolean(), field: z.string().nullable() });
  app.post(
    '/riskPoint/import',
    {
      config: RISK,
      schema: {
        tags,
        summary: `Import risk points: rows name, kind, lat, lon, radius, dwellMinutes, note (text or xlsx, at most ${IMPORT_MAX_ROWS}); per-line results`,
        body: z.object({
          text: z.string().max(2_000_000).optional(),
          file: z.object({ name: z.string().max(200), base64: z.string().max(10_000_000) }).optional(),
          userId: idSchema.optional(),
        }),
        response: {
          200: envelopeOf(z.object({ added: z.number().int(), failed: z.number().int(), lines: z.array(lineResult) })),
        },
      },
    },
    async (req) => {
      const owner = await reachableUserPath(ctx, req.user!, req.body.userId);
      const rows = await readRiskRows(req.body);
      if (rows.length > IMPORT_MAX_ROWS) throw badRequest('file.tooManyRows', { max: IMPORT_MAX_ROWS });
      const schema = z.object(fields);
      const lines: z.infer<typeof lineResult>[] = [];
      const values: {
        user_id: string;
        name: string;
        kind: string;
        lat: number;
        lon: number;
        radius: number;
        note: string;
        dwell_minutes: number;
      }[] = [];
      const num = (s: string | undefined) => (s === undefined || s === '' ? undefined : Number(s));
      for (const r of rows) {
        const [name, kind, lat, lon, radius, dwell, note] = r.cells;
        const parsed = schema.safeParse({
          name,
          kind: kind === '' ? undefined : kind,
          lat: num(lat),
          lon: num(lon),
          radius: num(radius),
          dwellMinutes: num(dwell),
          note: note ?? '',
        });
        if (!parsed.success) {
          lines.push({ line: r.line, ok: false, field: String(parsed.error.issues[0]?.path[0] ?? 'row') });
          continue;
        }
        const p = parsed.data;
        values.push({
          user_id: owner.id,
          name: p.name,
          kind: p.kind,
          lat: p.lat,
          lon: p.lon,
          radius: p.radius,
          note: p.note,
          dwell_minutes: p.dwellMinutes,
        });
        lines.push({ line: r.line, ok: true, field: null });
      }
      if (values.length > 0) await ctx.db.insertInto('risk_points').values(values).execute();
      await detector.changed();
      return ok({ added: values.length, failed: lines.length - values.length, lines });
    },
  );

  app.post(
    '/riskPoint/visits',
    {
      config: RISK,
      schema: {
        tags,
        summary: 'Visits report: stays of devices inside risk points that began in a window (per device, newest first)',
        body: z.object({
          terminalID: terminalIdSchema.optional(),
          riskPointId: idSchema.optional(),
          startTime: instantSchema,
          endTime: instantSchema,
          pageNum: pageQuery.pageNum,
          pageSize: z.coerce.number().int().min(1).max(1000).default(15),
        }),
        response: { 200: envelopeOf(pageOf(visitSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      const me = req.user!;
      if (b.startTime > b.endTime) throw badRequest('validation.rangeOrder');
      let q = ctx.db
        .selectFrom('risk_visits as v')
        .innerJoin('risk_points as r', 'r.id', 'v.risk_point_id')
        .innerJoin('devices as d', 'd.id', 'v.device_id')
        .leftJoin('users as u', 'u.id', 'd.user_id')
        .leftJoin('device_state as s', 's.device_id', 'v.device_id')
        .where('v.entered_at', '>=', new Date(b.startTime))
        .where('v.entered_at', '<=', new Date(b.endTime));
      // Only devices the caller reaches (whatever point they visited).
      if (me.role !== 1) q = q.where(sql<boolean>`u.path LIKE ${`${me.path}%`}`);
      if (b.terminalID) {
        const device = await deviceByRef(ctx, me, { terminalID: b.terminalID });
        q = q.where('v.device_id', '=', device.id);
      }
      if (b.riskPointId) {
        await load(me, b.riskPointId);
        q = q.where('v.risk_point_id', '=', b.riskPointId);
      }
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select([
          'v.id',
          'v.risk_point_id',
          'r.name as point_name',
          'r.kind',
          'v.device_id',
          'd.terminal_id',
          'd.nickname',
          'd.car_number',
          'v.entered_at',
          'v.last_at',
          'v.left_at',
          'v.alarm_id',
          's.pos_time',
        ])
        .orderBy('d.terminal_id')
        .orderBy('v.entered_at', 'desc')
        .limit(b.pageSize)
        .offset((b.pageNum - 1) * b.pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          id: String(r.id),
          riskPointId: String(r.risk_point_id),
          riskPointName: r.point_name,
          kind: r.kind,
          deviceId: String(r.device_id),
          terminalID: r.terminal_id,
          displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
          enteredAt: r.entered_at.toISOString(),
          leftAt: r.left_at ? r.left_at.toISOString() : null,
          // An open stay lasts until the device's latest fix (the detector keeps its last fix inside in memory).
          duration: (r.left_at ?? maxDate(r.last_at, r.pos_time)).getTime() - r.entered_at.getTime(),
          alarmed: r.alarm_id !== null,
        })),
      });
    },
  );
}

function maxDate(a: Date, b: Date | null): Date {
  return b && b.getTime() > a.getTime() ? b : a;
}
