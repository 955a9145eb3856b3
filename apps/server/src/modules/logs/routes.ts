// /api/log/*: the factory's logs (spec §2 /test/log/*). Device log (device_log the gateway writes) by IMEI and
// time, raw frame capture switched on per IMEI for N minutes with each frame in hex and decoded JSON, the system
// log (server warnings and errors, live tail by polling with afterId) and the audit log beside it, a device's
// connection history, and the retention of each log kind. Factory staff work on the whole fleet: these screens
// serve the production line, where devices often have no owner yet; each route needs its factory permission.
import { connectionIntervals } from '@carhere/domain';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { DeviceLogTable } from '../../db/tables/gateway.ts';
import { FRAME_CAPTURE_CHANGED } from '../../gateway/frame-capture.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { terminalIdSchema } from '../location/params.ts';
import { DEFAULT_RETENTION_DAYS, LOG_KINDS, retentionDays } from './cleanup.ts';

const DEVICE_LOG = ['factory:log_device'];
const SYSTEM_LOG = ['factory:log_system'];
const DEVICE_STATE = ['factory:log_device_state'];
const timeSchema = z.string().datetime({ offset: true });
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const deviceLogSchema = z.object({
  id: z.string(),
  time: z.string(),
  terminalID: z.string(),
  protocol: z.string(),
  event: z.string(),
  remote: z.string(),
  detail: z.string(),
});
const frameSchema = z.object({
  id: z.string(),
  time: z.string(),
  terminalID: z.string(),
  protocol: z.string(),
  direction: z.enum(['in', 'out']),
  hex: z.string(),
  decoded: z.unknown(),
  remote: z.string(),
});
const systemLogSchema = z.object({
  id: z.string(),
  time: z.string(),
  level: z.string(),
  message: z.string(),
  detail: z.string(),
});
const auditSchema = z.object({
  id: z.string(),
  time: z.string(),
  username: z.string(),
  ip: z.string(),
  operation: z.string(),
  status: z.number().int(),
  targets: z.unknown(),
});
const captureSchema = z.object({ terminalID: z.string(), until: z.string().nullable() });

/** A device_log row as the API shows it. */
function deviceLogItem(r: Selectable<DeviceLogTable>): z.infer<typeof deviceLogSchema> {
  return {
    id: String(r.id),
    time: iso(r.time) as string,
    terminalID: r.terminal_id,
    protocol: r.protocol,
    event: r.event,
    remote: r.remote,
    detail: r.detail,
  };
}

/**
 * One page of a log, newest first (by id), with the count of the filtered rows: `q` holds the filters, `pick`
 * the columns of the page.
 */
async function newestFirst<TB extends keyof Database, O>(
  q: SelectQueryBuilder<Database, TB, object>,
  page: { pageNum: number; pageSize: number },
  pick: (q: SelectQueryBuilder<Database, TB, object>) => SelectQueryBuilder<Database, TB, O>,
): Promise<{ total: number; rows: O[] }> {
  const count = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await pick(q)
    .orderBy(sql.ref('id'), 'desc')
    .limit(page.pageSize)
    .offset((page.pageNum - 1) * page.pageSize)
    .execute();
  return { total: Number(count.n), rows: rows as O[] };
}

export async function logRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/log/device/find',
    {
      config: { permission: DEVICE_LOG },
      schema: {
        tags: ['logs'],
        summary: 'Device log (logins, refusals, garbage, idle closes…) by IMEI (prefix) and time, newest first',
        body: z.object({
          terminalID: z
            .string()
            .trim()
            .regex(/^[0-9A-Za-z]{1,32}$/)
            .optional(),
          event: z.string().max(32).optional(),
          from: timeSchema.optional(),
          to: timeSchema.optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(deviceLogSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      let q = ctx.db.selectFrom('device_log');
      if (b.terminalID) q = q.where('terminal_id', 'like', `${b.terminalID}%`);
      if (b.event) q = q.where('event', '=', b.event as never);
      if (b.from) q = q.where('time', '>=', new Date(b.from));
      if (b.to) q = q.where('time', '<', new Date(b.to));
      const { total, rows } = await newestFirst(q, b, (p) => p.selectAll());
      return ok({
        total,
        list: rows.map(deviceLogItem),
      });
    },
  );

  app.post(
    '/log/capture/start',
    {
      config: { permission: DEVICE_LOG },
      schema: {
        tags: ['logs'],
        summary: 'Switch raw frame capture on for an IMEI for 1–120 minutes (every gateway process follows)',
        body: z.object({ terminalID: terminalIdSchema, minutes: z.number().int().min(1).max(120) }),
        response: { 200: envelopeOf(captureSchema) },
      },
    },
    async (req) => {
      const until = new Date(Date.now() + req.body.minutes * 60_000);
      await ctx.db
        .insertInto('frame_capture')
        .values({ terminal_id: req.body.terminalID, until, created_by: req.user!.id })
        .onConflict((oc) => oc.column('terminal_id').doUpdateSet({ until, created_by: req.user!.id }))
        .execute();
      ctx.bus.publish(FRAME_CAPTURE_CHANGED, { terminalID: req.body.terminalID });
      return ok({ terminalID: req.body.terminalID, until: until.toISOString() });
    },
  );

  app.post(
    '/log/capture/stop',
    {
      config: { permission: DEVICE_LOG },
      schema: {
        tags: ['logs'],
        summary: 'Switch raw frame capture off for an IMEI',
        body: z.object({ terminalID: terminalIdSchema }),
        response: { 200: envelopeOf(captureSchema) },
      },
    },
    async (req) => {
      await ctx.db.deleteFrom('frame_capture').where('terminal_id', '=', req.body.terminalID).execute();
      ctx.bus.publish(FRAME_CAPTURE_CHANGED, { terminalID: req.body.terminalID });
      return ok({ terminalID: req.body.terminalID, until: null });
    },
  );

  app.post(
    '/log/frames',
    {
      config: { permission: DEVICE_LOG },
      schema: {
        tags: ['logs'],
        summary:
          'Captured frames of an IMEI, newest first (afterId: only newer ones, for a live view), and whether capture is on',
        body: z.object({
          terminalID: terminalIdSchema,
          afterId: z
            .string()
            .regex(/^\d{1,18}$/)
            .optional(),
          pageSize: z.number().int().min(1).max(500).default(100),
        }),
        response: {
          200: envelopeOf(z.object({ capture: captureSchema, list: z.array(frameSchema) })),
        },
      },
    },
    async (req) => {
      const { terminalID, afterId, pageSize } = req.body;
      let q = ctx.db.selectFrom('frame_log').selectAll().where('terminal_id', '=', terminalID);
      if (afterId) q = q.where('id', '>', afterId);
      const rows = await q.orderBy('id', 'desc').limit(pageSize).execute();
      const cap = await ctx.db
        .selectFrom('frame_capture')
        .select('until')
        .where('terminal_id', '=', terminalID)
        .where('until', '>', new Date())
        .executeTakeFirst();
      return ok({
        capture: { terminalID, until: cap ? iso(cap.until) : null },
        list: rows.map((r) => ({
          id: String(r.id),
          time: iso(r.time) as string,
          terminalID: r.terminal_id,
          protocol: r.protocol,
          direction: r.direction,
          hex: r.hex,
          decoded: r.decoded,
          remote: r.remote,
        })),
      });
    },
  );

  app.post(
    '/log/system/find',
    {
      config: { permission: SYSTEM_LOG },
      schema: {
        tags: ['logs'],
        summary: 'System log: server warnings and errors, newest first; afterId returns only newer rows (live tail)',
        body: z.object({
          level: z.enum(['warn', 'error', 'fatal']).optional(),
          keyword: z.string().trim().max(100).optional(),
          from: timeSchema.optional(),
          to: timeSchema.optional(),
          afterId: z
            .string()
            .regex(/^\d{1,18}$/)
            .optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(systemLogSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      let q = ctx.db.selectFrom('system_log');
      if (b.level) q = q.where('level', '=', b.level);
      if (b.keyword) q = q.where('message', 'ilike', `%${b.keyword.replace(/[\\%_]/g, '\\$&')}%`);
      if (b.from) q = q.where('time', '>=', new Date(b.from));
      if (b.to) q = q.where('time', '<', new Date(b.to));
      if (b.afterId) q = q.where('id', '>', b.afterId);
      const { total, rows } = await newestFirst(q, b, (p) => p.selectAll());
      return ok({
        total,
        list: rows.map((r) => ({
          id: String(r.id),
          time: iso(r.time) as string,
          level: r.level,
          message: r.message,
          detail: r.detail,
        })),
      });
    },
  );

  app.post(
    '/log/audit/find',
    {
      config: { permission: SYSTEM_LOG },
      schema: {
        tags: ['logs'],
        summary: 'The audit log (every write through the API) beside the system log, newest first',
        body: z.object({
          keyword: z.string().trim().max(100).optional(),
          from: timeSchema.optional(),
          to: timeSchema.optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(auditSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      let q = ctx.db.selectFrom('audit_log');
      if (b.keyword) {
        const like = `%${b.keyword.replace(/[\\%_]/g, '\\$&')}%`;
        q = q.where((eb) => eb.or([eb('operation', 'ilike', like), eb('username', 'ilike', like)]));
      }
      if (b.from) q = q.where('at', '>=', new Date(b.from));
      if (b.to) q = q.where('at', '<', new Date(b.to));
      const { total, rows } = await newestFirst(q, b, (p) =>
        p.select(['id', 'at', 'username', 'ip', 'operation', 'status', 'targets']),
      );
      return ok({
        total,
        list: rows.map((r) => ({
          id: String(r.id),
          time: iso(r.at) as string,
          username: r.username,
          ip: r.ip,
          operation: r.operation,
          status: r.status,
          targets: r.targets,
        })),
      });
    },
  );

  app.post(
    '/log/deviceState',
    {
      config: { permission: DEVICE_STATE },
      schema: {
        tags: ['logs'],
        summary:
          'A device’s connection history: online now, last login, online intervals (start, end, address) and the events',
        body: z.object({ terminalID: terminalIdSchema, from: timeSchema.optional(), to: timeSchema.optional() }),
        response: {
          200: envelopeOf(
            z.object({
              terminalID: z.string(),
              registered: z.boolean(),
              online: z.boolean(),
              lastSeen: z.string().nullable(),
              intervals: z.array(
                z.object({
                  start: z.string(),
                  end: z.string().nullable(),
                  remote: z.string(),
                  endedBy: z.string().nullable(),
                }),
              ),
              events: z.array(deviceLogSchema),
            }),
          ),
        },
      },
    },
    async (req) => {
      const { terminalID } = req.body;
      const from = req.body.from ? new Date(req.body.from) : new Date(Date.now() - 7 * 86_400_000);
      const to = req.body.to ? new Date(req.body.to) : new Date(Date.now() + 60_000);
      const device = await sql<{ online: boolean | null; last_seen: Date | null }>`
        SELECT s.online, s.last_seen FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
         WHERE d.terminal_id = ${terminalID}`.execute(ctx.db);
      const rows = await ctx.db
        .selectFrom('device_log')
        .selectAll()
        .where('terminal_id', '=', terminalID)
        .where('time', '>=', from)
        .where('time', '<', to)
        .orderBy('id', 'asc')
        .limit(5000)
        .execute();
      const events = rows.map(deviceLogItem);
      const d = device.rows[0];
      return ok({
        terminalID,
        registered: d !== undefined,
        online: d?.online === true,
        lastSeen: d ? iso(d.last_seen) : null,
        intervals: connectionIntervals(events).reverse(),
        events: events.reverse(),
      });
    },
  );

  const retentionSchema = z.object(
    Object.fromEntries(LOG_KINDS.map((k) => [k, z.number().int()])) as Record<(typeof LOG_KINDS)[number], z.ZodNumber>,
  );

  app.get(
    '/log/retention',
    {
      config: { permission: SYSTEM_LOG },
      schema: {
        tags: ['logs'],
        summary: `Days each log kind is kept (defaults: ${JSON.stringify(DEFAULT_RETENTION_DAYS)})`,
        response: { 200: envelopeOf(retentionSchema) },
      },
    },
    async () => ok(await retentionDays(ctx)),
  );

  app.post(
    '/log/retention',
    {
      config: { permission: SYSTEM_LOG },
      schema: {
        tags: ['logs'],
        summary: 'Set the days a log kind is kept (1–3650); the hourly cleanup applies it',
        body: z.object({ kind: z.enum(LOG_KINDS), days: z.number().int().min(1).max(3650) }),
        response: { 200: envelopeOf(retentionSchema) },
      },
    },
    async (req) => {
      const { kind, days } = req.body;
      await ctx.db
        .insertInto('log_retention')
        .values({ kind, days, updated_by: req.user!.id })
        .onConflict((oc) => oc.column('kind').doUpdateSet({ days, updated_by: req.user!.id, updated_at: new Date() }))
        .execute();
      return ok(await retentionDays(ctx));
    },
  );
}
