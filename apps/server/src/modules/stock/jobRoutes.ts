// Progress and refused lines of the factory's import jobs (one pair of endpoints per area).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { ImportJobKind } from '../../db/tables/accounts.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { findJob, type JobView, type ProgressFn, startJob } from '../agent/jobs.ts';
import type { Caller } from '../agent/scope.ts';
import { jobSchema } from '../user/importRoutes.ts';
import { type ImportOutcome, rejectedCsv } from './outcome.ts';
import { readUpload, type SheetRow, type Upload, uploadSchema } from './sheet.ts';

/** The job as the API shows it: the refused lines are left out (download them as CSV), the counts stay. */
export function jobView(view: JobView, lang: string) {
  const result = view.result as ImportOutcome | null;
  const trimmed = result
    ? { ...result, rejected: result.rejected.slice(0, 100), rejectedTotal: result.rejected.length }
    : null;
  return { ...view, result: trimmed, error: view.error ? translate(view.error, lang) : null };
}

export async function respondJob(ctx: AppContext, caller: Caller, id: string, kind: ImportJobKind, lang: string) {
  return ok(jobView(await findJob(ctx, caller, id, kind), lang));
}

export function jobRoutes(
  app: App,
  ctx: AppContext,
  base: string,
  kinds: readonly [ImportJobKind, ...ImportJobKind[]],
  permission: string[],
  tag: string,
): void {
  const query = z.object({ id: z.string().uuid(), kind: z.enum(kinds) });
  app.get(
    `${base}/importJob`,
    {
      config: { permission },
      schema: {
        tags: [tag],
        summary: 'Progress and result counts of an import job (the first 100 refused lines; all of them as CSV)',
        querystring: query,
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => respondJob(ctx, req.user!, req.query.id, req.query.kind, callerLang(req)),
  );
  app.get(
    `${base}/importRejected`,
    {
      config: { permission },
      schema: {
        tags: [tag],
        summary: 'The refused lines of an import job and why, as CSV (line, value, reason, message)',
        querystring: query,
      },
    },
    async (req, reply) => {
      const view = await findJob(ctx, req.user!, req.query.id, req.query.kind);
      const result = view.result as ImportOutcome | null;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rejected-${view.id}.csv"`)
        .send(rejectedCsv(result?.rejected ?? []));
    },
  );
}

export interface ImportRouteOptions<B extends z.ZodRawShape> {
  url: string;
  kind: ImportJobKind;
  permission: string[];
  tag: string;
  summary: string;
  maxRows: number;
  /** Fields the import takes beside the upload (model, batch…). */
  fields: B;
  work: (
    rows: readonly SheetRow[],
    body: Upload & z.infer<z.ZodObject<B>>,
    lang: string,
    progress: ProgressFn,
  ) => Promise<ImportOutcome>;
}

/**
 * One import endpoint of the factory: an upload (text, csv or xlsx) read into rows, the work run as a job with
 * progress, the job answered at once (or once done with `wait: true`); poll `<area>/importJob`.
 */
export function importRoute<B extends z.ZodRawShape>(app: App, ctx: AppContext, opts: ImportRouteOptions<B>): void {
  app.post(
    opts.url,
    {
      config: { permission: opts.permission },
      schema: {
        tags: [opts.tag],
        summary: opts.summary,
        body: uploadSchema.extend(opts.fields).extend({ wait: z.boolean().optional() }),
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const body = req.body as Upload & z.infer<z.ZodObject<B>> & { wait?: boolean };
      const rows = await readUpload(body, opts.maxRows);
      const job = await startJob(ctx, req.user!, opts.kind, rows.length, (progress) =>
        opts.work(rows, body, lang, progress),
      );
      if (body.wait) await job.done;
      return respondJob(ctx, req.user!, job.id, opts.kind, lang);
    },
  );
}
