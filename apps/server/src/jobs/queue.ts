// The one job queue for background work (shared/DESIGN.md): statistics roll-ups and exports today; factory
// tasks, notification deliveries and scale-out work reuse it. Backed by pg-boss 10 (schema `pgboss`), which
// claims jobs with `FOR UPDATE SKIP LOCKED`, so several server processes share one queue safely.
//
// pg-boss runs on PGlite too: it is given a `db` adapter over our own pg.Pool instead of a connection string.
// PGlite's pool has a single connection, so every pg-boss statement takes its turn with the application's
// queries and transactions (a checked-out client holds the connection for the whole transaction). pg-boss's
// schema script is several statements in one text without parameters; node-postgres sends such a text with
// the simple-query protocol, which accepts several statements (checked by jobs/queue.test.ts on both stores).

import type pg from 'pg';
import PgBoss from 'pg-boss';
import { watchJobQueue } from '../ops/metrics.ts';

declare module '../context.ts' {
  interface AppServices {
    /** The background job queue, started by main.ts. */
    jobs: JobQueue;
  }
}

export interface JobContext<T> {
  id: string;
  name: string;
  data: T;
  /** Records progress (0..1) and a small detail for progress views (`JobQueue.progressOf`). */
  progress(fraction: number, detail?: Record<string, unknown>): Promise<void>;
}

export type JobHandler<T> = (job: JobContext<T>) => Promise<void>;

export interface EnqueueOptions {
  /**
   * With `singletonSeconds`: at most one job per key in each time slot of that many seconds; another enqueue in
   * a taken slot is dropped (answers null), or with `singletonNextSlot` moved to the next slot.
   */
  singletonKey?: string;
  singletonSeconds?: number;
  singletonNextSlot?: boolean;
  /** Seconds to wait before the job may start. */
  startAfterSeconds?: number;
  retryLimit?: number;
}

export interface WorkOptions {
  /** How often an idle worker looks for jobs (seconds; default 1). */
  pollingIntervalSeconds?: number;
}

export interface JobProgress {
  jobId: string;
  name: string;
  /** created | retry | active | completed | cancelled | failed | unknown */
  state: string;
  progress: number;
  detail: Record<string, unknown>;
}

export interface JobQueue {
  /** Queues a job; returns its id, or null when a singleton job of the same key is already queued. */
  enqueue<T extends object>(name: string, data: T, opts?: EnqueueOptions): Promise<string | null>;
  /** Runs `handler` for jobs of `name` in this process (one at a time per registration). */
  work<T extends object>(name: string, handler: JobHandler<T>, opts?: WorkOptions): Promise<void>;
  progressOf(name: string, jobId: string): Promise<JobProgress | null>;
  /** Stops fetching, waits for running handlers to finish. */
  stop(): Promise<void>;
}

/** A pg-boss `db` adapter over a node-postgres pool (PostgreSQL server or PGlite). */
export function poolAdapter(pool: pg.Pool): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => {
      const result = values && values.length > 0 ? await pool.query(text, values) : await pool.query(text);
      // A multi-statement text answers an array of results; pg-boss reads the last one.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return { rows: last?.rows ?? [] };
    },
  };
}

const PROGRESS_SQL = `INSERT INTO job_progress (job_id, name, progress, detail, updated_at)
  VALUES ($1, $2, $3, coalesce($4::jsonb, '{}'::jsonb), now())
  ON CONFLICT (job_id) DO UPDATE SET progress = EXCLUDED.progress,
    detail = coalesce($4::jsonb, job_progress.detail), updated_at = now()`;

export async function startJobQueue(
  pool: pg.Pool,
  onError: (err: unknown) => void = () => {},
  /** supervise: run pg-boss maintenance here (false in gateway-only processes, which only queue jobs). */
  opts: { supervise?: boolean } = {},
): Promise<JobQueue> {
  const boss = new PgBoss({
    db: poolAdapter(pool),
    // No cron schedules (no clock-skew monitor timers); maintenance keeps the archive small. Several processes
    // may supervise at once: pg-boss serialises its maintenance with an advisory lock.
    schedule: false,
    supervise: opts.supervise ?? true,
    maintenanceIntervalSeconds: 300,
  });
  boss.on('error', onError);
  await boss.start();
  const created = new Set<string>();
  const ensureQueue = async (name: string) => {
    if (created.has(name)) return;
    if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, policy: 'standard' });
    created.add(name);
  };
  const unwatch = watchJobQueue({
    depth: async () => {
      const out: Record<string, number> = {};
      for (const name of created) out[name] = await boss.getQueueSize(name, { before: 'completed' });
      return out;
    },
  });
  const progress = async (id: string, name: string, fraction: number, detail?: Record<string, unknown>) => {
    const text = detail === undefined ? null : JSON.stringify(detail);
    await pool.query(PROGRESS_SQL, [id, name, Math.max(0, Math.min(1, fraction)), text]);
  };
  return {
    async enqueue(name, data, opts = {}) {
      await ensureQueue(name);
      const id = await boss.send(name, data, {
        singletonKey: opts.singletonKey,
        singletonSeconds: opts.singletonSeconds,
        singletonNextSlot: opts.singletonNextSlot,
        startAfter: opts.startAfterSeconds,
        retryLimit: opts.retryLimit ?? 2,
      });
      if (id) await progress(id, name, 0);
      return id;
    },
    async work(name, handler, opts = {}) {
      await ensureQueue(name);
      await boss.work(
        name,
        { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
        async (jobs) => {
          for (const job of jobs) {
            await handler({
              id: job.id,
              name,
              data: job.data as never,
              progress: (fraction, detail) => progress(job.id, name, fraction, detail),
            });
            await progress(job.id, name, 1);
          }
        },
      );
    },
    async progressOf(name, jobId) {
      const row = (
        await pool.query<{ progress: number; detail: Record<string, unknown> }>(
          'SELECT progress, detail FROM job_progress WHERE job_id = $1',
          [jobId],
        )
      ).rows[0];
      const job = await boss.getJobById(name, jobId, { includeArchive: true }).catch(() => null);
      if (!row && !job) return null;
      return {
        jobId,
        name,
        state: job?.state ?? 'unknown',
        progress: row?.progress ?? 0,
        detail: row?.detail ?? {},
      };
    },
    async stop() {
      unwatch();
      await boss.stop({ graceful: true, wait: true, timeout: 60_000 });
    },
  };
}
