// /api/device/import: IMEI lines → devices, as a background job with progress (no request timeout);
// GET /api/device/importJob?id= polls it.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { int32 } from '../../http/input.ts';
import type { App } from '../../http/types.ts';
import { findJob, startJob, trackJobsOnClose } from '../agent/jobs.ts';
import { needs } from '../agent/permissions.ts';
import { idSchema } from '../agent/schema.ts';
import { jobSchema } from '../user/importRoutes.ts';
import { prepareImport, runImport } from './importService.ts';

export async function deviceImportRoutes(app: App, ctx: AppContext): Promise<void> {
  trackJobsOnClose(app, ctx);

  app.post(
    '/device/import',
    {
      config: { permission: needs('devicesImport') },
      schema: {
        tags: ['device'],
        summary:
          'Import devices from IMEI lines (808 types: exactly 11 digits; IMEIs already in the system rejected; quota checked). ' +
          'Answers the job; poll GET /device/importJob',
        body: z.object({
          userId: idSchema.optional(),
          text: z.string().min(1).max(5_000_000),
          protocol: z.number().int().min(0).max(4),
          deviceType: z.number().int().min(0).max(255),
          serviceTerm: int32().nullable().optional(),
          iconType: int32().optional(),
          /** Wait for the job to end and answer with its final state. */
          wait: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => {
      const caller = req.user!;
      const lang = callerLang(req);
      const { wait, ...input } = req.body;
      // Quota, owner, limits and the IMEI checks answer at once; only the writing runs as the job.
      const prepared = await prepareImport(ctx, caller, input, lang);
      const job = await startJob(ctx, caller, 'devices', prepared.imeis.length, (progress) =>
        runImport(ctx, caller, prepared, lang, progress),
      );
      if (wait) await job.done;
      const view = await findJob(ctx, caller, job.id, 'devices');
      return ok({ ...view, error: view.error ? translate(view.error, lang) : null });
    },
  );

  app.get(
    '/device/importJob',
    {
      config: { permission: needs('devicesImport') },
      schema: {
        tags: ['device'],
        summary: 'Progress and result of a device import job',
        querystring: z.object({ id: z.string().uuid() }),
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => {
      const view = await findJob(ctx, req.user!, req.query.id, 'devices');
      return ok({ ...view, error: view.error ? translate(view.error, callerLang(req)) : null });
    },
  );
}
