// Retention of positions and alarms (RETENTION_DAYS, default 400; ALARM_RETENTION_DAYS, default the same).
//
// Positions live in monthly partitions (positions_YYYY_MM, gateway/ingest/partitions.ts): a month whose last
// instant is older than the cut-off is dropped whole (DROP TABLE of the partition: no row-by-row delete of a
// month, no dead rows left for vacuum). The month that straddles the cut-off stays until all of it has fallen
// out, so positions are kept at least RETENTION_DAYS and at most about a month longer. Fixes with odd times sit
// in positions_default and are deleted by time. Alarms are one table: deleted by time in bounded rounds.
// Logs have their own settings (log_retention, modules/logs/cleanup.ts).
//
// It runs as a job on the job queue: every API process asks for it every six hours, the queue keeps one job
// per 12-hour slot and one worker runs it, so it runs once across processes (twice a day at most).
import type pg from 'pg';
import type { AppContext } from '../context.ts';
import type { JobQueue } from '../jobs/queue.ts';

export const RETENTION_JOB = 'ops.retention';
const DAY_MS = 86_400_000;
/** Alarms deleted per statement (a short lock, a bounded transaction). */
const ALARM_ROUND = 10_000;

export interface RetentionResult {
  /** Partitions dropped (names). */
  droppedPartitions: string[];
  /** Positions deleted from the default partition. */
  defaultRows: number;
  alarms: number;
}

/** The first instant after the month of a partition named positions_YYYY_MM, or null for other names. */
function monthEnd(name: string): number | null {
  const m = /^positions_(\d{4})_(\d{2})$/.exec(name);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]), 1);
}

export async function applyRetention(
  pool: pg.Pool,
  opts: { retentionDays: number; alarmRetentionDays: number; now?: number },
): Promise<RetentionResult> {
  const now = opts.now ?? Date.now();
  const cutoff = new Date(now - opts.retentionDays * DAY_MS);
  const parts = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'positions' ORDER BY c.relname`,
  );
  const droppedPartitions: string[] = [];
  for (const { name } of parts.rows) {
    const end = monthEnd(name);
    if (end === null || end > cutoff.getTime()) continue;
    // The name was checked against positions_YYYY_MM above: safe to put in the statement.
    await pool.query(`DROP TABLE IF EXISTS ${name}`);
    droppedPartitions.push(name);
  }
  const defaultRows = (await pool.query('DELETE FROM positions_default WHERE time < $1', [cutoff])).rowCount ?? 0;
  const alarmCutoff = new Date(now - opts.alarmRetentionDays * DAY_MS);
  let alarms = 0;
  for (;;) {
    const res = await pool.query('DELETE FROM alarms WHERE id IN (SELECT id FROM alarms WHERE time < $1 LIMIT $2)', [
      alarmCutoff,
      ALARM_ROUND,
    ]);
    alarms += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) < ALARM_ROUND) break;
  }
  return { droppedPartitions, defaultRows, alarms };
}

/**
 * Registers the retention job and asks for it five minutes after start, then every six hours (one job per
 * 12-hour slot whatever the number of processes). Returns the stop function of the requesting timers.
 */
export async function startRetention(
  ctx: Pick<AppContext, 'dbHandle' | 'config'>,
  jobs: JobQueue,
  onError: (err: unknown) => void,
): Promise<() => void> {
  await jobs.work(RETENTION_JOB, async () => {
    await applyRetention(ctx.dbHandle.pool, {
      retentionDays: ctx.config.retentionDays,
      alarmRetentionDays: ctx.config.alarmRetentionDays,
    });
  });
  const request = () => void requestRetention(jobs).catch(onError);
  const first = setTimeout(request, 300_000);
  const timer = setInterval(request, 6 * 3_600_000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/**
 * Queues a retention run; null when another process already queued one in this 12-hour slot (pg-boss keeps
 * singleton slots within its archive interval, 12 hours).
 */
export function requestRetention(jobs: JobQueue): Promise<string | null> {
  return jobs.enqueue(RETENTION_JOB, {}, { singletonKey: RETENTION_JOB, singletonSeconds: 43_200 });
}
