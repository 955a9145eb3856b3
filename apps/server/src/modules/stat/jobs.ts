// The statistics area's background work on the job queue: the daily roll-up and the exports.
import type { AppContext } from '../../context.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { runRollup } from './rollup.ts';

export const ROLLUP_JOB = 'stats.rollup';
/** At most one roll-up request per this many ms from one process (the queue keeps one queued job anyway). */
const REQUEST_EVERY_MS = 2000;

/**
 * Asks for a roll-up after the ingest marked devices dirty, at most every REQUEST_EVERY_MS, without waiting
 * (the ingest's commit path must not slow down). The job starts after the roll-up delay.
 */
export class RollupRequester {
  private last = 0;
  constructor(
    private readonly jobs: JobQueue,
    private readonly delaySeconds: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  request(): void {
    const now = Date.now();
    if (now - this.last < REQUEST_EVERY_MS) return;
    this.last = now;
    this.jobs
      .enqueue(ROLLUP_JOB, {}, { singletonKey: 'rollup', startAfterSeconds: this.delaySeconds })
      .catch(this.onError);
  }
}

/** Registers the statistics workers on the queue (every server process runs them; the queue shares the work). */
export async function registerStatJobs(ctx: AppContext, jobs: JobQueue): Promise<void> {
  const delaySeconds = ctx.config.statsRollupDelaySeconds;
  await jobs.work(ROLLUP_JOB, async (job) => {
    const result = await runRollup(ctx.dbHandle.pool, {
      delaySeconds,
      onProgress: (done) => job.progress(0, { devices: done }),
    });
    // Marks that were too young this time: come back when they are old enough.
    if (result.waiting > 0) {
      await jobs.enqueue(ROLLUP_JOB, {}, { singletonKey: 'rollup', startAfterSeconds: Math.max(1, delaySeconds) });
    }
  });
  const { registerExportJob } = await import('./export.ts');
  await registerExportJob(ctx, jobs);
}
