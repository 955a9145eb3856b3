// Import jobs: long imports run in the background and record their progress in import_jobs, which the web
// polls (any API process sharing the database can answer). A job belongs to the account that started it.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { ImportJobKind, ImportJobStatus } from '../../db/tables/accounts.ts';
import { ApiError } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { type Caller, callerIsAdmin } from './scope.ts';

export interface JobView {
  id: string;
  kind: ImportJobKind;
  status: ImportJobStatus;
  total: number;
  processed: number;
  result: unknown;
  error: string | null;
}

export type ProgressFn = (processed: number) => Promise<void>;

const running = new WeakMap<AppContext, Set<Promise<void>>>();

const JOB_KEEP_MS = 7 * 86_400_000;
/** A running job writes progress at least every few seconds; one silent this long died with its process. */
export const JOB_STALLED_MS = 5 * 60_000;

/** Waits for this context's running jobs when the app closes (tests, shutdown). */
export function trackJobsOnClose(app: App, ctx: AppContext): void {
  if (!running.has(ctx)) running.set(ctx, new Set());
  app.addHook('onClose', async () => {
    await Promise.allSettled([...(running.get(ctx) ?? [])]);
  });
}

/**
 * Starts `work` in the background and returns the job id at once. Progress is written at most every 250 ms;
 * the result (or the error) is stored when the work ends.
 */
export async function startJob<R>(
  ctx: AppContext,
  caller: Caller,
  kind: ImportJobKind,
  total: number,
  work: (progress: ProgressFn) => Promise<R>,
): Promise<{ id: string; done: Promise<void> }> {
  const id = randomUUID();
  // Finished jobs are kept a week for their results, then dropped.
  await ctx.db
    .deleteFrom('import_jobs')
    .where('created_at', '<', new Date(Date.now() - JOB_KEEP_MS))
    .execute();
  await ctx.db.insertInto('import_jobs').values({ id, kind, user_id: caller.id, total }).execute();
  let lastWrite = 0;
  const progress: ProgressFn = async (processed) => {
    const now = Date.now();
    if (now - lastWrite < 250 && processed < total) return;
    lastWrite = now;
    await ctx.db.updateTable('import_jobs').set({ processed, updated_at: new Date() }).where('id', '=', id).execute();
  };
  const done = (async () => {
    try {
      const result = await work(progress);
      await ctx.db
        .updateTable('import_jobs')
        .set({ status: 'done', processed: total, result: JSON.stringify(result), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
    } catch (err) {
      const key = err instanceof ApiError ? err.key : 'http.serverBusy';
      await ctx.db
        .updateTable('import_jobs')
        .set({ status: 'failed', error: key, updated_at: new Date() })
        .where('id', '=', id)
        .execute()
        .catch(() => {});
    }
  })();
  const set = running.get(ctx);
  if (set) {
    set.add(done);
    done.finally(() => set.delete(done));
  }
  return { id, done };
}

export async function findJob(ctx: AppContext, caller: Caller, id: string, kind: ImportJobKind): Promise<JobView> {
  const row = await ctx.db
    .selectFrom('import_jobs')
    .select(['id', 'kind', 'user_id', 'status', 'total', 'processed', 'result', 'error', 'updated_at'])
    .where('id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row || (row.user_id !== caller.id && !callerIsAdmin(caller))) throw new ApiError(404, 'job.notFound', 404);
  const stalled = row.status === 'running' && Date.now() - row.updated_at.getTime() > JOB_STALLED_MS;
  if (stalled) return { ...viewOf(row), status: 'failed', error: 'job.stalled' };
  return viewOf(row);
}

function viewOf(row: {
  id: string;
  kind: ImportJobKind;
  status: ImportJobStatus;
  total: number;
  processed: number;
  result: unknown;
  error: string | null;
}): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    processed: row.processed,
    result: row.result,
    error: row.error,
  };
}
