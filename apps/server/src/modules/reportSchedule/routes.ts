// /api/reportSchedule/*: scheduled reports (issue 18) — a statistics report (mileage, stays, trips, alarms,
// past-due) mailed as .xlsx daily, weekly or monthly in the owner's time zone, and the list of its sends. Needs
// main:stat_export and the report's own permission; schedules are the caller's and those of its subtree.
import { REPORT_FREQUENCIES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { holdsPermission, permissionsOf } from '../../http/access.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { SessionUser } from '../../http/session.ts';
import type { App } from '../../http/types.ts';
import { idSchema } from '../location/params.ts';
import { STAT_PERMISSIONS } from '../stat/bodies.ts';
import { EXPORT_BODIES, EXPORT_PERMISSION } from '../stat/export-kinds.ts';
import { selectDevices } from '../stat/select.ts';
import { REPORTS_DUE_JOB, sendDueReports, sendSchedule } from './runner.ts';

const KINDS = ['findAllMileage', 'stays', 'trips', 'alarms', 'pastDue'] as const;
const EXPORT = { permission: [...STAT_PERMISSIONS.export] };
const tags = ['reportSchedule'];
const PAGE_SIZE = z.coerce.number().int().min(1).max(1000).default(15);

const fields = {
  name: z.string().trim().min(1).max(80),
  kind: z.enum(KINDS),
  /** The report's own parameters without the time range (terminalIDs, userId, children, filter …). */
  params: z.record(z.string(), z.unknown()).default({}),
  frequency: z.enum(REPORT_FREQUENCIES),
  emails: z.array(z.email().max(200)).min(1).max(20),
  enabled: z.boolean().default(true),
};

const scheduleSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  kind: z.string(),
  params: z.record(z.string(), z.unknown()),
  frequency: z.string(),
  emails: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
  lastSend: z
    .object({
      periodStart: z.string(),
      periodEnd: z.string(),
      status: z.string(),
      rows: z.number(),
      sentAt: z.string(),
    })
    .nullable(),
});

const sendSchema = z.object({
  id: z.string(),
  scheduleId: z.string(),
  scheduleName: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  status: z.string(),
  rows: z.number().int(),
  response: z.string(),
  sentAt: z.string(),
});

interface Row {
  id: string;
  user_id: string;
  username: string;
  path: string;
  name: string;
  kind: string;
  params: Record<string, unknown>;
  frequency: string;
  emails: string[];
  enabled: boolean;
  created_at: Date;
  last_start: string | null;
  last_end: string | null;
  last_status: string | null;
  last_rows: number | null;
  last_at: Date | null;
}

const SELECT = `SELECT s.id::text AS id, s.user_id::text AS user_id, u.username, u.path, s.name, s.kind, s.params,
  s.frequency, s.emails, s.enabled, s.created_at,
  l.period_start AS last_start, l.period_end AS last_end, l.status AS last_status, l.rows AS last_rows, l.sent_at AS last_at
  FROM report_schedules s JOIN users u ON u.id = s.user_id
  LEFT JOIN LATERAL (SELECT * FROM report_sends x WHERE x.schedule_id = s.id ORDER BY x.id DESC LIMIT 1) l ON true`;

function present(r: Row): z.infer<typeof scheduleSchema> {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    name: r.name,
    kind: r.kind,
    params: r.params,
    frequency: r.frequency,
    emails: r.emails,
    enabled: r.enabled,
    createdAt: r.created_at.toISOString(),
    lastSend:
      r.last_start && r.last_at
        ? {
            periodStart: r.last_start,
            periodEnd: r.last_end ?? r.last_start,
            status: r.last_status ?? '',
            rows: r.last_rows ?? 0,
            sentAt: r.last_at.toISOString(),
          }
        : null,
  };
}

export async function reportScheduleRoutes(app: App, ctx: AppContext): Promise<void> {
  const pool = ctx.dbHandle.pool;
  const jobs = ctx.services.jobs;
  if (!jobs) throw new Error('reportSchedule: the job queue is not started');
  await jobs.work(REPORTS_DUE_JOB, () => sendDueReports(ctx));
  // Every process asks hourly; the queue keeps one check an hour.
  const request = () =>
    void jobs
      .enqueue(REPORTS_DUE_JOB, {}, { singletonKey: REPORTS_DUE_JOB, singletonSeconds: 3600 })
      .catch((err) => app.log.error({ err }, 'report schedule check request failed'));
  const first = setTimeout(request, 60_000);
  const timer = setInterval(request, 3_600_000);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });

  /** The report's parameters as its statistics endpoint reads them, within the owner's reach. */
  const checkParams = async (owner: SessionUser, kind: (typeof KINDS)[number], params: Record<string, unknown>) => {
    if (!holdsPermission(permissionsOf(owner.role, ctx.config.appEnv), EXPORT_PERMISSION[kind])) throw noPermission();
    const parsed = EXPORT_BODIES[kind].safeParse({ ...params, startTime: 0, endTime: 1 });
    if (!parsed.success) throw badRequest('invalidParam', { field: parsed.error.issues[0]?.path.join('.') ?? '' });
    if (kind !== 'pastDue') await selectDevices(ctx, owner, parsed.data as never);
  };

  const load = async (caller: Pick<SessionUser, 'role' | 'path'>, id: string) => {
    const row = (await pool.query<Row>(`${SELECT} WHERE s.id = $1`, [id])).rows[0];
    if (!row) throw notFound();
    if (!reachesPath(caller, row.path)) throw noPermission();
    return row;
  };

  app.post(
    '/reportSchedule/find',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Report schedules of the caller and the accounts below it, with their last send',
        body: z.object({ pageNum: pageQuery.pageNum, pageSize: PAGE_SIZE }),
        response: { 200: envelopeOf(pageOf(scheduleSchema)) },
      },
    },
    async (req) => {
      const me = req.user!;
      const b = req.body;
      const args = [me.role === 1, `${me.path}%`];
      const total = (
        await pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM report_schedules s JOIN users u ON u.id = s.user_id WHERE ($1 OR u.path LIKE $2)',
          args,
        )
      ).rows[0].n;
      const rows = (
        await pool.query<Row>(
          `${SELECT} WHERE ($1 OR u.path LIKE $2) ORDER BY s.id DESC LIMIT ${b.pageSize} OFFSET ${(b.pageNum - 1) * b.pageSize}`,
          args,
        )
      ).rows;
      return ok({ total: Number(total), list: rows.map(present) });
    },
  );

  app.post(
    '/reportSchedule/add',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Schedule a statistics report for the caller, mailed as .xlsx daily, weekly or monthly',
        body: z.object(fields),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const b = req.body;
      await checkParams(req.user!, b.kind, b.params);
      const row = (
        await pool.query<{ id: string }>(
          `INSERT INTO report_schedules (user_id, name, kind, params, frequency, emails, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id`,
          [req.user!.id, b.name, b.kind, JSON.stringify(b.params), b.frequency, b.emails, b.enabled],
        )
      ).rows[0];
      return ok({ id: row.id });
    },
  );

  app.post(
    '/reportSchedule/update',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Change a report schedule (fields left out stay as they are)',
        body: z.object({
          id: idSchema,
          name: fields.name.optional(),
          kind: fields.kind.optional(),
          params: z.record(z.string(), z.unknown()).optional(),
          frequency: fields.frequency.optional(),
          emails: fields.emails.optional(),
          enabled: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(scheduleSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const row = await load(req.user!, b.id);
      const kind = b.kind ?? (row.kind as (typeof KINDS)[number]);
      const params = b.params ?? row.params;
      if (b.kind !== undefined || b.params !== undefined) {
        const owner = (
          await pool.query<SessionUser>('SELECT id::text AS id, role, path FROM users WHERE id = $1', [row.user_id])
        ).rows[0];
        await checkParams(owner, kind, params);
      }
      await pool.query(
        `UPDATE report_schedules SET name = $2, kind = $3, params = $4, frequency = $5, emails = $6, enabled = $7
         WHERE id = $1`,
        [
          b.id,
          b.name ?? row.name,
          kind,
          JSON.stringify(params),
          b.frequency ?? row.frequency,
          b.emails ?? row.emails,
          b.enabled ?? row.enabled,
        ],
      );
      return ok(present(await load(req.user!, b.id)));
    },
  );

  app.post(
    '/reportSchedule/delete',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Delete a report schedule and its sends',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await load(req.user!, req.body.id);
      await pool.query('DELETE FROM report_schedules WHERE id = $1', [req.body.id]);
      return ok(null);
    },
  );

  app.post(
    '/reportSchedule/sendNow',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Send the last complete period of a schedule now (once per period; a failed one again)',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ status: z.string() })) },
      },
    },
    async (req) => {
      await load(req.user!, req.body.id);
      return ok({ status: await sendSchedule(ctx, req.body.id) });
    },
  );

  app.post(
    '/reportSchedule/sends',
    {
      config: EXPORT,
      schema: {
        tags,
        summary: 'Sends of the schedules the caller reaches (or of one), newest first',
        body: z.object({ scheduleId: idSchema.optional(), pageNum: pageQuery.pageNum, pageSize: PAGE_SIZE }),
        response: { 200: envelopeOf(pageOf(sendSchema)) },
      },
    },
    async (req) => {
      const me = req.user!;
      const b = req.body;
      if (b.scheduleId) await load(me, b.scheduleId);
      const args: unknown[] = [me.role === 1, `${me.path}%`];
      let filter = 'WHERE ($1 OR u.path LIKE $2)';
      if (b.scheduleId) {
        args.push(b.scheduleId);
        filter += ` AND x.schedule_id = $${args.length}`;
      }
      const from =
        'FROM report_sends x JOIN report_schedules s ON s.id = x.schedule_id JOIN users u ON u.id = s.user_id';
      const total = (await pool.query<{ n: string }>(`SELECT count(*) AS n ${from} ${filter}`, args)).rows[0].n;
      const rows = (
        await pool.query<{
          id: string;
          schedule_id: string;
          name: string;
          period_start: string;
          period_end: string;
          status: string;
          rows: number;
          response: string;
          sent_at: Date;
        }>(
          `SELECT x.id::text AS id, x.schedule_id::text AS schedule_id, s.name, x.period_start, x.period_end, x.status,
                  x.rows, x.response, x.sent_at
           ${from} ${filter} ORDER BY x.id DESC LIMIT ${b.pageSize} OFFSET ${(b.pageNum - 1) * b.pageSize}`,
          args,
        )
      ).rows;
      return ok({
        total: Number(total),
        list: rows.map((x) => ({
          id: x.id,
          scheduleId: x.schedule_id,
          scheduleName: x.name,
          periodStart: x.period_start,
          periodEnd: x.period_end,
          status: x.status,
          rows: x.rows,
          response: x.response,
          sentAt: x.sent_at.toISOString(),
        })),
      });
    },
  );
}
