// The senders of the e-mail, webhook and push channels. Each answers what the receiver said, for the log.
import { createHmac } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { AppContext } from '../../context.ts';
import { mailOf, pushMessageOf, webhookBodyOf } from './messages.ts';
import type { NotifyPayload } from './store.ts';
import { guardedPost, webhookUrlShapeProblem } from './webhookGuard.ts';
import { sendWebPush, type VapidKeys } from './webpush.ts';

export interface SendResult {
  ok: boolean;
  /** The receiver's answer (HTTP status and body start, SMTP response). */
  answer: string;
  /** No point in retrying (bad address, subscription gone, nothing configured). */
  permanent?: boolean;
}

export interface MailSettings {
  smtpUrl: string;
  from: string;
}

/** SMTP_URL / MAIL_FROM, else the system settings row `notify.mail` ({smtpUrl, from}). */
export async function mailSettings(ctx: AppContext): Promise<MailSettings | null> {
  if (ctx.config.smtpUrl) return { smtpUrl: ctx.config.smtpUrl, from: ctx.config.mailFrom ?? 'carhere@localhost' };
  const row = (
    await ctx.dbHandle.pool.query<{ value: { smtpUrl?: string; from?: string } }>(
      `SELECT value FROM settings WHERE key = 'notify.mail'`,
    )
  ).rows[0];
  if (!row?.value?.smtpUrl) return null;
  return { smtpUrl: row.value.smtpUrl, from: row.value.from || ctx.config.mailFrom || 'carhere@localhost' };
}

export async function sendMail(
  settings: MailSettings | null,
  to: string[],
  content: { subject: string; text: string; html?: string; attachments?: { filename: string; path: string }[] },
): Promise<SendResult> {
  if (!settings) return { ok: false, answer: 'no SMTP server configured (SMTP_URL)', permanent: true };
  const transport = nodemailer.createTransport(settings.smtpUrl);
  try {
    const info = await transport.sendMail({ from: settings.from, to, ...content });
    return { ok: true, answer: String(info.response ?? 'sent') };
  } catch (err) {
    const e = err as { responseCode?: number; message?: string };
    // 5xx from the server: the message is refused for good.
    const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
    return { ok: false, answer: e.message ?? String(err), permanent };
  } finally {
    transport.close();
  }
}

export async function sendNotifyMail(settings: MailSettings | null, to: string[], p: NotifyPayload) {
  return sendMail(settings, to, mailOf(p));
}

export function signatureOf(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Sends one webhook. The URL is checked again here (scheme, IP literal) and the connection's DNS answers are
 * checked by the guarded lookup, so a rule saved with a public name cannot be turned to an internal address later;
 * such a delivery fails for good. Redirects are not followed.
 */
export async function sendWebhook(
  url: string,
  secret: string,
  p: NotifyPayload,
  uid: string,
  allowPrivate = false,
): Promise<SendResult> {
  const problem = webhookUrlShapeProblem(url, allowPrivate);
  if (problem) return { ok: false, answer: `refused: ${problem}`, permanent: true };
  const raw = JSON.stringify(webhookBodyOf(p, uid, new Date()));
  try {
    const res = await guardedPost(
      new URL(url),
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Carhere-Webhook/1',
        'X-Carhere-Signature': signatureOf(secret, raw),
      },
      raw,
      allowPrivate,
    );
    const text = res.text.slice(0, 300);
    return { ok: res.status >= 200 && res.status < 300, answer: `HTTP ${res.status} ${text}`.trim() };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, answer: e.message ?? String(err), permanent: e.code === 'EADDRREFUSED' };
  }
}

/**
 * Sends one push message to every browser subscription of the user. An endpoint the SSRF guard refuses (a private
 * address, or a name now resolving to one) gets nothing and is answered `refused: …`.
 */
export async function sendPush(
  ctx: AppContext,
  userId: string,
  keys: VapidKeys,
  p: NotifyPayload,
  uid: string,
  allowPrivate = false,
): Promise<SendResult> {
  const subs = (
    await ctx.dbHandle.pool.query<{ id: string; endpoint: string; p256dh: string; auth: string }>(
      'SELECT id::text AS id, endpoint, p256dh, auth FROM notify_push_subscriptions WHERE user_id = $1',
      [userId],
    )
  ).rows;
  if (subs.length === 0) return { ok: false, answer: 'no browser subscribed', permanent: true };
  const answers: string[] = [];
  let delivered = 0;
  let refused = 0;
  for (const s of subs) {
    try {
      const r = await sendWebPush(s, pushMessageOf(p, uid), keys, {
        subject: 'mailto:notify@carhere.invalid',
        allowPrivate,
      });
      answers.push(r.refused ? r.answer : `${r.status}`);
      if (r.ok) delivered++;
      if (r.refused) refused++;
      if (r.gone) await ctx.dbHandle.pool.query('DELETE FROM notify_push_subscriptions WHERE id = $1', [s.id]);
    } catch (err) {
      answers.push(err instanceof Error ? err.message : String(err));
    }
  }
  // Every endpoint refused: retrying cannot help.
  return {
    ok: delivered > 0,
    answer: `push ${delivered}/${subs.length}: ${answers.join(', ')}`,
    permanent: delivered === 0 && refused === subs.length,
  };
}
