// Sending a scheduled report: the last complete period (day, Monday-to-Sunday week, month) in the owner's time
// zone, the statistics export of that period written as .xlsx (stat/export.ts), mailed to the schedule's
// addresses. A period goes out once: its report_sends row is written first (unique per schedule and period), so
// of several processes or overlapping checks only the one that wrote the row sends; a failed
// period is tried again at the next check.
import { basename } from 'node:path';
import { isValidTimeZone, lastCompletePeriod, type ReportFrequency } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import { mailSettings, sendMail } from '../notify/channels.ts';
import { runExport } from '../stat/export.ts';

export const REPORTS_DUE_JOB = 'reports.due';

interface ScheduleRow {
  id: string;
  user_id: string;
  name: string;
  kind: string;
  params: Record<string, unknown>;
  frequency: ReportFrequency;
  emails: string[];
  time_zone: string;
}

const SCHEDULE_SELECT = `SELECT s.id::text AS id, s.user_id::text AS user_id, s.name, s.kind, s.params, s.frequency,
  s.emails, u.time_zone FROM report_schedules s JOIN users u ON u.id = s.user_id`;

/** Sends the last complete period of one schedule unless it went out already; answers what happened. */
export async function sendSchedule(ctx: AppContext, scheduleId: string, now = Date.now()): Promise<string> {
  const pool = ctx.dbHandle.pool;
  const s = (await pool.query<ScheduleRow>(`${SCHEDULE_SELECT} WHERE s.id = $1`, [scheduleId])).rows[0];
  if (!s) return 'gone';
  const zone = isValidTimeZone(s.time_zone) ? s.time_zone : '+08:00';
  const period = lastCompletePeriod(s.frequency, now, zone);
  const claimed = await pool.query<{ id: string }>(
    `INSERT INTO report_sends (schedule_id, period_start, period_end, status) VALUES ($1, $2, $3, 'sending')
     ON CONFLICT (schedule_id, period_start) DO UPDATE SET status = 'sending', sent_at = now()
       WHERE report_sends.status = 'failed'
     RETURNING id::text AS id`,
    [s.id, period.firstDay, period.lastDay],
  );
  const sendId = claimed.rows[0]?.id;
  if (!sendId) return 'alreadySent';
  let status = 'failed';
  let rows = 0;
  let answer = '';
  try {
    const exp = (
      await pool.query<{ id: string }>(
        `INSERT INTO stat_exports (user_id, kind, params) VALUES ($1, $2, $3) RETURNING id::text AS id`,
        [s.user_id, s.kind, JSON.stringify({ ...s.params, startTime: period.start, endTime: period.end - 1 })],
      )
    ).rows[0];
    await runExport(ctx, exp.id, async () => {});
    const done = (
      await pool.query<{ state: string; rows: number; file: string | null; error: string | null }>(
        'SELECT state, rows, file, error FROM stat_exports WHERE id = $1',
        [exp.id],
      )
    ).rows[0];
    rows = done.rows;
    if (done.state !== 'done' || !done.file) {
      answer = done.error ?? 'export failed';
    } else {
      const range = period.firstDay === period.lastDay ? period.firstDay : `${period.firstDay} – ${period.lastDay}`;
      const safeName = s.name.replace(/[^\p{L}\p{N}_ -]/gu, '_').slice(0, 60) || 'report';
      const result = await sendMail(await mailSettings(ctx), s.emails, {
        subject: `${s.name} · ${range}`,
        text: `${s.name}\n${range} (${zone})\n${rows} rows: ${basename(done.file)}`,
        attachments: [{ filename: `${safeName}-${period.firstDay}.xlsx`, path: done.file }],
      });
      status = result.ok ? 'sent' : 'failed';
      answer = result.answer;
    }
  } catch (err) {
    answer = err instanceof Error ? err.message : String(err);
  }
  await pool.query('UPDATE report_sends SET status = $2, rows = $3, response = $4, sent_at = now() WHERE id = $1', [
    sendId,
    status,
    rows,
    answer.slice(0, 1000),
  ]);
  return status;
}

/** Every enabled schedule whose last complete period has not gone out yet. */
export async function sendDueReports(ctx: AppContext, now = Date.now()): Promise<void> {
  const ids = (
    await ctx.dbHandle.pool.query<{ id: string }>('SELECT id::text AS id FROM report_schedules WHERE enabled')
  ).rows;
  for (const { id } of ids) await sendSchedule(ctx, id, now);
}
