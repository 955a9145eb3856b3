// /api/stat/export — countExport: POST starts an export job ({kind, ...params} → {jobId}), GET …/progress
// follows it, GET …/download fetches the finished .xlsx. Only the account that asked may follow or fetch it.
import { createReadStream } from 'node:fs';
import { EXPORT_MAX_DAYS, EXPORT_MAX_DEVICES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { holdsPermission, permissionsOf } from '../../http/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { STAT_PERMISSIONS } from './bodies.ts';
import { EXPORT_JOB } from './export.ts';
import { EXPORT_BODIES, EXPORT_KINDS, EXPORT_PERMISSION, type ExportKind } from './export-kinds.ts';
import { selectDevices } from './select.ts';

const startBody = z.object({ kind: z.enum(EXPORT_KINDS) }).passthrough();
const jobQuery = z.object({ jobId: z.string().regex(/^\d{1,18}$/) });
const progressSchema = z.object({
  jobId: z.string(),
  kind: z.string(),
  /** queued | running | done | failed */
  state: z.string(),
  /** 0..1 */
  progress: z.number(),
  rows: z.number(),
  error: z.string().nullable(),
});

export async function exportRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/stat/export',
    {
      config: { permission: [...STAT_PERMISSIONS.export] },
      schema: {
        tags: ['stat'],
        summary: 'Start an .xlsx export of a statistics answer: {kind, ...that endpoint’s parameters} → {jobId}',
        body: startBody,
        response: { 200: envelopeOf(z.object({ jobId: z.string() })) },
      },
    },
    async (req) => {
      const caller = req.user!;
      const { kind, ...rest } = startBody.parse(req.body);
      if (!holdsPermission(permissionsOf(caller.role, ctx.config.appEnv), EXPORT_PERMISSION[kind as ExportKind])) {
        throw noPermission();
      }
      const parsed = EXPORT_BODIES[kind as ExportKind].safeParse(rest);
      if (!parsed.success) throw badRequest('invalidParam', { field: parsed.error.issues[0]?.path.join('.') ?? '' });
      const params = parsed.data as Record<string, unknown>;
      const limit = () => badRequest('validation.exportLimit', { devices: EXPORT_MAX_DEVICES, days: EXPORT_MAX_DAYS });
      if (typeof params.startTime === 'number' && typeof params.endTime === 'number') {
        if (params.startTime > params.endTime) throw badRequest('validation.rangeOrder');
        if (params.endTime - params.startTime > EXPORT_MAX_DAYS * 86_400_000) throw limit();
      }
      if (kind !== 'findByUserIds' && kind !== 'pastDue') {
        // Reach is checked here too, so a refused device answers at once rather than in a failed job.
        const devices = await selectDevices(ctx, caller, params);
        if (devices.length > EXPORT_MAX_DEVICES) throw limit();
      }
      const row = await ctx.db
        .insertInto('stat_exports')
        .values({ user_id: caller.id, kind, params: JSON.stringify(params) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const jobs = ctx.services.jobs;
      if (!jobs) throw new Error('job queue not running');
      const jobId = await jobs.enqueue(EXPORT_JOB, { exportId: String(row.id) });
      await ctx.db.updateTable('stat_exports').set({ job_id: jobId }).where('id', '=', row.id).execute();
      return ok({ jobId: String(row.id) });
    },
  );

  const mine = async (caller: { id: string }, jobId: string) => {
    const row = await ctx.db.selectFrom('stat_exports').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!row) throw notFound();
    if (String(row.user_id) !== caller.id) throw noPermission();
    return row;
  };

  app.get(
    '/stat/export/progress',
    {
      config: { permission: [...STAT_PERMISSIONS.export] },
      schema: {
        tags: ['stat'],
        summary: 'Progress of an export job',
        querystring: jobQuery,
        response: { 200: envelopeOf(progressSchema) },
      },
    },
    async (req) => {
      const row = await mine(req.user!, req.query.jobId);
      let progress = row.state === 'done' ? 1 : 0;
      if (row.state === 'running' && row.job_id) {
        const p = await ctx.services.jobs?.progressOf('stats.export', row.job_id);
        progress = p?.progress ?? 0;
      }
      return ok({
        jobId: String(row.id),
        kind: row.kind,
        state: row.state,
        progress,
        rows: row.rows,
        error: row.error,
      });
    },
  );

  app.get(
    '/stat/export/download',
    {
      config: { permission: [...STAT_PERMISSIONS.export] },
      schema: { tags: ['stat'], summary: 'The finished .xlsx of an export job', querystring: jobQuery },
    },
    async (req, reply) => {
      const row = await mine(req.user!, req.query.jobId);
      if (row.state !== 'done' || !row.file) throw notFound();
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="stat-${row.kind}-${row.id}.xlsx"`)
        .send(createReadStream(row.file));
    },
  );
}
