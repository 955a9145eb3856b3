// The delivery job: claims its rows (so a row is sent by one worker only, whatever the number of processes),
// sends them a few at a time, logs the receiver's answer, and queues a retry with backoff (doubling from
// Notifier.retryBaseSeconds up to an hour) until 24 h after the event was queued. A retry is a job with a start
// time in the queue's table, so it survives a restart in the middle of its backoff.
import type { AppContext } from '../../context.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { mailSettings, type SendResult, sendNotifyMail, sendPush, sendWebhook } from './channels.ts';
import { DELIVER_JOB, type Notifier } from './notifier.ts';
import type { DeliveryRow } from './store.ts';
import { vapidKeys } from './vapid.ts';

const RETRY_WINDOW_MS = 24 * 3600_000;
const CONCURRENCY = 16;

type Claimed = DeliveryRow & { user_id: string };

async function sendOne(ctx: AppContext, d: Claimed): Promise<SendResult> {
  const t = d.target;
  switch (t.type) {
    case 'email':
      return sendNotifyMail(await mailSettings(ctx), t.to, d.payload);
    case 'webhook':
      return sendWebhook(t.url, t.secret, d.payload, d.uid, ctx.config.allowPrivateWebhooks);
    case 'push':
      return sendPush(ctx, d.user_id, await vapidKeys(ctx), d.payload, d.uid, ctx.config.allowPrivatePush);
    default:
      return { ok: true, answer: 'live view' };
  }
}

/**
 * Deliveries whose job was lost (the process stopped between writing the row and queueing it) or whose sender
 * stopped mid-send: queued again. Run with the hourly expiry check.
 */
export async function requeueStale(ctx: AppContext, jobs: JobQueue): Promise<number> {
  const rows = (
    await ctx.dbHandle.pool.query<{ id: string }>(
      `SELECT id::text AS id FROM notify_deliveries
        WHERE (status = 'queued' AND updated_at < now() - interval '10 minutes')
           OR (status = 'sending' AND updated_at < now() - interval '10 minutes')
        LIMIT 5000`,
    )
  ).rows;
  for (let i = 0; i < rows.length; i += 50) {
    await jobs.enqueue(DELIVER_JOB, { ids: rows.slice(i, i + 50).map((r) => r.id) }, { retryLimit: 3 });
  }
  return rows.length;
}

export function backoffSeconds(base: number, attempts: number): number {
  return Math.min(3600, base * 2 ** Math.max(0, attempts - 1));
}

export async function deliver(ctx: AppContext, jobs: JobQueue, notifier: Notifier, ids: string[]): Promise<void> {
  const pool = ctx.dbHandle.pool;
  const claimed = (
    await pool.query<Claimed>(
      `UPDATE notify_deliveries d SET status = 'sending', updated_at = now()
         FROM notify_rules r
        WHERE d.id = ANY($1::bigint[]) AND r.id = d.rule_id
          AND (d.status IN ('queued', 'retrying')
               -- a claim left by a process that stopped in the middle of sending (the job came back to the queue)
               OR (d.status = 'sending' AND d.updated_at < now() - interval '5 minutes'))
        RETURNING d.id::text AS id, d.rule_id::text AS rule_id, d.uid, d.payload, d.target, d.attempts, d.created_at,
                  r.user_id::text AS user_id`,
      [ids],
    )
  ).rows;
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const d = claimed[next++];
      let result: SendResult;
      try {
        result = await sendOne(ctx, d);
      } catch (err) {
        result = { ok: false, answer: err instanceof Error ? err.message : String(err) };
      }
      const attempts = d.attempts + 1;
      const expired = Date.now() - d.created_at.getTime() > RETRY_WINDOW_MS;
      const status = result.ok ? 'sent' : result.permanent || expired ? 'failed' : 'retrying';
      await pool.query(
        'UPDATE notify_deliveries SET status = $2, attempts = $3, response = $4, updated_at = now() WHERE id = $1',
        [d.id, status, attempts, result.answer.slice(0, 1000)],
      );
      if (status === 'retrying') {
        await jobs.enqueue(
          DELIVER_JOB,
          { ids: [d.id] },
          { startAfterSeconds: backoffSeconds(notifier.retryBaseSeconds, attempts), retryLimit: 3 },
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
}
