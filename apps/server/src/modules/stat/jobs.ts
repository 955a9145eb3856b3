// The statistics area's background work on the job queue: the daily roll-up and the exports.
import type { AppContext } from '../../context.ts';
import type { EnqueueOptions, JobQueue } from '../../jobs/queue.ts';
import { runRollup } from './rollup.ts';

export const ROLLUP_JOB = 'stats.rollup';
/** At most one roll-up request per this many ms from one process (the queue keeps one queued job anyway). */
const REQUEST_EVERY_MS = 2000;

/** One roll-up per slot of the roll-up delay (at least 1 s); a request in a taken slot goes to the next one. */
function rollupSlot(delaySeconds: number): EnqueueOptions {
  const slot = Math.max(1, delaySeconds);
  return { singletonKey: 'rollup', singletonSeconds: slot, singletonNextSlot: true, startAfterSeconds: delaySeconds };
}

/**
 * Asks for a roll-up after the ingest marked devices dirty, at most every REQUEST_EVERY_MS, without waiting
 * (the ingest's commit path must not slow down). The job starts after the roll-up delay.
 */
export class RollupRequester {
  private last = 0;
  private trailing: NodeJS.Timeout | undefined;
  constructor(
    private readonly jobs: JobQueue,
    private readonly delaySeconds: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  request(): void {
    const now = Date.now();
    if (now - this.last >= REQUEST_EVERY_MS) {
      this.send(now);
      return;
    }
    // Too soon after the last request: one trailing request, so the last marks are never left without one.
    this.trailing ??= setTimeout(
      () => {
        this.trailing = undefined;
        this.send(Date.now());
      },
      REQUEST_EVERY_MS - (now - this.last),
    );
    this.trailing.unref?.();
  }

  stop(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = undefined;
  }

  private send(now: number): void {
    this.last = now;
    this.jobs.enqueue(ROLLUP_JOB, {}, rollupSlot(this.delaySeconds)).catch(this.onError);
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
      await jobs.enqueue(ROLLUP_JOB, {}, rollupSlot(delaySeconds));
    }
  });
  const { registerExportJob } = await import('./export.ts');
  await registerExportJob(ctx, jobs);
}
