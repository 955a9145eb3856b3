// Retention of the logs (factory log/*): days per log kind (log_retention rows, defaults below) and row caps, so
// no log grows without bound. The cleanup runs as a job on the job queue (jobs/queue.ts): every process asks
// for it hourly, the queue keeps one job per hour (singleton slot), one worker runs it.
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { JobQueue } from '../../jobs/queue.ts';

export const LOG_CLEANUP_JOB = 'logs.cleanup';

export const LOG_KINDS = ['deviceLog', 'frameLog', 'systemLog', 'commandLog', 'task', 'recording'] as const;
export type LogKind = (typeof LOG_KINDS)[number];

export const DEFAULT_RETENTION_DAYS: Record<LogKind, number> = {
  deviceLog: 90,
  frameLog: 7,
  systemLog: 30,
  commandLog: 180,
  task: 180,
  recording: 30,
};

/** Newest rows kept whatever their age (a storm of warnings or frames stays bounded). */
export const ROW_CAPS = { systemLog: 100_000, frameLog: 1_000_000 } as const;

export async function retentionDays(ctx: Pick<AppContext, 'db'>): Promise<Record<LogKind, number>> {
  const rows = await ctx.db.selectFrom('log_retention').select(['kind', 'days']).execute();
  const out = { ...DEFAULT_RETENTION_DAYS };
  for (const r of rows) if ((LOG_KINDS as readonly string[]).includes(r.kind)) out[r.kind as LogKind] = r.days;
  return out;
}

/** Deletes what is past its retention or beyond the row caps; returns rows deleted per kind. */
export async function cleanupLogs(ctx: Pick<AppContext, 'db'>): Promise<Record<string, number>> {
  const days = await retentionDays(ctx);
  const before = (kind: LogKind) => new Date(Date.now() - days[kind] * 86_400_000);
  const n = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0);
  const out: Record<string, number> = {};
  out.deviceLog = n(await sql`DELETE FROM device_log WHERE time < ${before('deviceLog')}`.execute(ctx.db));
  out.frameLog = n(await sql`DELETE FROM frame_log WHERE time < ${before('frameLog')}`.execute(ctx.db));
  out.frameLog += n(
    await sql`DELETE FROM frame_log WHERE id <= (SELECT id FROM frame_log ORDER BY id DESC OFFSET ${ROW_CAPS.frameLog} LIMIT 1)`.execute(
      ctx.db,
    ),
  );
  out.systemLog = n(await sql`DELETE FROM system_log WHERE time < ${before('systemLog')}`.execute(ctx.db));
  out.systemLog += n(
    await sql`DELETE FROM system_log WHERE id <= (SELECT id FROM system_log ORDER BY id DESC OFFSET ${ROW_CAPS.systemLog} LIMIT 1)`.execute(
      ctx.db,
    ),
  );
  out.commandLog = n(await sql`DELETE FROM command_log WHERE time < ${before('commandLog')}`.execute(ctx.db));
  out.task = n(
    await sql`DELETE FROM tasks WHERE created_at < ${before('task')} AND expires_at < now()`.execute(ctx.db),
  );
  out.recording = n(await sql`DELETE FROM recordings WHERE received_at < ${before('recording')}`.execute(ctx.db));
  await sql`DELETE FROM frame_capture WHERE until < now()`.execute(ctx.db);
  return out;
}

/**
 * Registers the cleanup job and asks for it a minute after start, then hourly (one job per hour slot whatever
 * the number of processes). Returns the stop function of the requesting timer.
 */
export async function startLogCleanup(
  ctx: Pick<AppContext, 'db'>,
  jobs: JobQueue,
  onError: (err: unknown) => void,
  everyMs = 3_600_000,
): Promise<() => void> {
  await jobs.work(LOG_CLEANUP_JOB, async () => {
    await cleanupLogs(ctx);
  });
  const slot = Math.max(1, Math.round(everyMs / 1000));
  const request = () =>
    void jobs.enqueue(LOG_CLEANUP_JOB, {}, { singletonKey: LOG_CLEANUP_JOB, singletonSeconds: slot }).catch(onError);
  const first = setTimeout(request, Math.min(60_000, everyMs));
  const timer = setInterval(request, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
