// Track segments built ahead of the queries that read them (issue 22), on the job queue (jobs/queue.ts):
// - when a UTC day closes, each device that reported since gets that day's segment (and any of the week before
//   that is still missing), so the first query of old history reads segments, not hundreds of thousands of fixes;
// - when late or out-of-order fixes land in a closed day, the batcher clears that day's segment in the same
//   transaction (segments.ts, INVALIDATE_SEGMENTS_SQL) and asks for this job, which builds it again.
// Today is read from positions by each query. A query that meets a missing or cleared day still computes it
// (segments.ts), so the job makes queries fast, never right: a segment is stored only at the version it was read at.
import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { loadCompactTrack } from './segments.ts';

export const SEGMENTS_JOB = 'track.segments';
const DAY_MS = 86_400_000;
/** Devices (or cleared device-days) per read of the work list. */
const ROUND = 500;
/** The day-close request also fills days of the week before that are missing (a process that was down). */
const CATCH_UP_DAYS = 7;
/** How often each job-running process asks for the day-close job (one job per day across processes). */
const REQUEST_EVERY_MS = 10 * 60_000;
/** The first request, a while after start (a process that starts is busy enough). */
const FIRST_REQUEST_MS = 120_000;
/** Late fixes: the rebuild waits this long, so one job takes the late fixes of many batches. */
const LATE_DELAY_SECONDS = 5;

/** Days (YYYY-MM-DD, UTC, inclusive) whose missing segments to build; without them, only cleared days. */
export interface SegmentsJobData {
  from?: string;
  to?: string;
}

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (key: string) => Date.parse(`${key}T00:00:00Z`);

export interface PreparedSegments {
  /** Device-days built again after a late fix cleared them. */
  rebuilt: number;
  /** Devices whose closed days of [from, to] were prepared. */
  devices: number;
}

/** Builds the cleared segments of closed days, then the missing ones of [from, to] (closed days only). */
export async function prepareSegments(
  pool: pg.Pool,
  data: SegmentsJobData,
  now = Date.now(),
  onProgress: (done: number) => Promise<void> = async () => {},
): Promise<PreparedSegments> {
  const today = dayKey(now);
  let rebuilt = 0;
  let after = { d: '0', day: '0001-01-01' };
  for (;;) {
    const cleared = await pool.query<{ device_id: string; first: string; last: string; n: string }>(
      `SELECT device_id::text AS device_id, min(day)::text AS first, max(day)::text AS last, count(*)::text AS n
         FROM (SELECT device_id, day FROM track_segments
                WHERE data IS NULL AND day < $1::date AND (device_id, day) > ($2::bigint, $3::date)
                ORDER BY device_id, day LIMIT $4) x
        GROUP BY device_id ORDER BY device_id`,
      [today, after.d, after.day, ROUND],
    );
    for (const row of cleared.rows) {
      await loadCompactTrack(pool, row.device_id, dayStart(row.first), dayStart(row.last) + DAY_MS - 1, now);
      rebuilt += Number(row.n);
      after = { d: row.device_id, day: row.last };
    }
    if (cleared.rows.reduce((n, r) => n + Number(r.n), 0) < ROUND) break;
  }

  let devices = 0;
  if (data.from && data.to) {
    const from = dayStart(data.from);
    const to = Math.min(dayStart(data.to) + DAY_MS, dayStart(today)) - 1;
    let afterId = '0';
    while (from < to) {
      // A device whose newest fix is older than the range has none in it.
      const due = await pool.query<{ device_id: string }>(
        `SELECT device_id::text AS device_id FROM device_state WHERE pos_time >= $1 AND device_id > $2
          ORDER BY device_id LIMIT $3`,
        [new Date(from), afterId, ROUND],
      );
      for (const row of due.rows) {
        await loadCompactTrack(pool, row.device_id, from, to, now);
        devices++;
        afterId = row.device_id;
      }
      await onProgress(devices);
      if (due.rows.length < ROUND) break;
    }
  }
  return { rebuilt, devices };
}

/** Asks for the job of the day that closed last (and the week before it); one job per day across processes. */
export function requestDayClose(jobs: JobQueue, now = Date.now()): Promise<string | null> {
  const yesterday = dayKey(now - DAY_MS);
  const data: SegmentsJobData = { from: dayKey(now - CATCH_UP_DAYS * DAY_MS), to: yesterday };
  return jobs.enqueue(SEGMENTS_JOB, data, { singletonKey: `day:${yesterday}`, singletonSeconds: 86_400 });
}

/**
 * Asks for the rebuild of segments that late fixes cleared (the batcher calls it after such a commit); several
 * requests within the delay share one job.
 */
export function requestLateRebuild(jobs: JobQueue): Promise<string | null> {
  return jobs.enqueue(
    SEGMENTS_JOB,
    {},
    {
      singletonKey: 'late',
      singletonSeconds: LATE_DELAY_SECONDS,
      singletonNextSlot: true,
      startAfterSeconds: LATE_DELAY_SECONDS,
    },
  );
}

/** Registers the worker and asks for the day-close job soon and every ten minutes; returns the stop function. */
export async function startTrackSegments(
  ctx: Pick<AppContext, 'dbHandle'>,
  jobs: JobQueue,
  onError: (err: unknown) => void,
): Promise<() => void> {
  await jobs.work<SegmentsJobData>(SEGMENTS_JOB, async (job) => {
    await prepareSegments(ctx.dbHandle.pool, job.data, Date.now(), (done) => job.progress(0, { devices: done }));
  });
  const request = () => void requestDayClose(jobs).catch(onError);
  const first = setTimeout(request, FIRST_REQUEST_MS);
  const timer = setInterval(request, REQUEST_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
