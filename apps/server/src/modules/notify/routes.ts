// /api/notify/*: notification rules of an account (issue 18), the delivery log, "send test", browser push
// subscriptions and the mail server of the system settings. A rule belongs to the account that made it and
// watches that account's subtree (or chosen devices / device types within it). Needs main:alarms; the mail
// settings need main:system_config.
import { isClockTime, isNotifyEvent } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { type Caller, devicesByTerminalIds } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';
import { deliver, requeueStale } from './deliver.ts';
import { DELIVER_JOB, Notifier, OFFLINE_JOB } from './notifier.ts';
import { type ChannelSpec, type RuleRow, ruleById } from './store.ts';
import { vapidKeys } from './vapid.ts';
import { webhookUrlProblem } from './webhookGuard.ts';

declare module '../../context.ts' {
  interface AppServices {
    notifier: Notifier;
  }
}

const NOTIFY = { permission: ['main:alarms'] };
const SYSTEM = { permission: ['main:system_config'] };
const tags = ['notify'];
const EXPIRY_JOB = 'notify.expiry';
const WORKERS = 4;
const PAGE_SIZE = z.coerce.number().int().min(1).max(1000).default(15);

const channelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inApp') }),
  z.object({ type: z.literal('email'), to: z.array(z.email().max(200)).min(1).max(20) }),
  z.object({
    type: z.literal('webhook'),
    url: z.url({ protocol: /^https?$/ }).max(500),
    secret: z.string().min(8).max(200),
  }),
  z.object({ type: z.literal('push') }),
]);

const clock = z.string().refine(isClockTime, 'HH:mm');
const ruleFields = {
  name: z.string().trim().min(1).max(80),
  events: z.array(z.string().max(40).refine(isNotifyEvent, 'unknown event')).min(1).max(120),
  channels: z.array(channelSchema).min(1).max(10),
  terminalIDs: z.array(terminalIdSchema).max(10_000).optional(),
  deviceTypes: z
    .array(z.string().regex(/^\d{1,5}$/))
    .max(200)
    .optional(),
  quietHours: z.object({ from: clock, to: clock }).nullable().optional(),
  minIntervalSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional(),
  params: z
    .object({
      offlineMinutes: z
        .number()
        .int()
        .min(1)
        .max(30 * 1440)
        .optional(),
      expiryDays: z.number().int().min(1).max(365).optional(),
    })
    .optional(),
  enabled: z.boolean().optional(),
};

const ruleSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  events: z.array(z.string()),
  channels: z.array(channelSchema),
  terminalIDs: z.array(z.string()).nullable(),
  deviceTypes: z.array(z.string()).nullable(),
  quietHours: z.object({ from: z.string(), to: z.string() }).nullable(),
  minIntervalSeconds: z.number().int(),
  params: z.object({ offlineMinutes: z.number().optional(), expiryDays: z.number().optional() }),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const deliverySchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  channel: z.string(),
  event: z.string(),
  terminalID: z.string(),
  deviceName: z.string(),
  time: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  response: z.string(),
  test: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

type RuleWithOwner = RuleRow & { path: string; username: string; terminal_ids: string[] | null };

const RULE_SELECT = `SELECT r.id::text AS id, r.user_id::text AS user_id, r.name, r.events, r.channels,
  r.device_types, r.quiet_from, r.quiet_to, r.min_interval_seconds, r.params, r.enabled, r.created_at, r.updated_at,
  u.path, u.username,
  CASE WHEN r.device_ids IS NULL THEN NULL
       ELSE ARRAY(SELECT d.terminal_id FROM devices d WHERE d.id = ANY(r.device_ids) ORDER BY d.terminal_id) END
    AS terminal_ids
  FROM notify_rules r JOIN users u ON u.id = r.user_id`;

const MASK = '********';

/** A webhook secret as `find` shows it: its last 4 characters behind the mask. */
function maskSecret(secret: string): string {
  return `${MASK}${secret.slice(-4)}`;
}

/** The channels as the API shows them: webhook secrets masked. */
function maskedChannels(channels: ChannelSpec[]): ChannelSpec[] {
  return channels.map((c) => (c.type === 'webhook' ? { ...c, secret: maskSecret(c.secret) } : c));
}

/**
 * The channels of an update with the stored secret back in place of a mask sent unchanged (the editor shows the
 * mask): the stored webhook at the same place first, else any stored webhook of that mask. A mask matching no
 * stored secret is refused, so a mask is never stored as a secret.
 */
function unmaskSecrets<C extends { type: string; secret?: string }>(sent: C[], stored: ChannelSpec[]): C[] {
  return sent.map((c, i) => {
    if (c.type !== 'webhook' || !c.secret?.startsWith(MASK)) return c;
    const same = stored[i];
    const match =
      same?.type === 'webhook' && maskSecret(same.secret) === c.secret
        ? same
        : stored.find((s) => s.type === 'webhook' && maskSecret(s.secret) === c.secret);
    if (match?.type !== 'webhook') throw badRequest('invalidParam', { field: 'secret' });
    return { ...c, secret: match.secret };
  });
}

function present(r: RuleWithOwner): z.infer<typeof ruleSchema> {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    name: r.name,
    events: r.events,
    channels: maskedChannels(r.channels as ChannelSpec[]),
    terminalIDs: r.terminal_ids,
    deviceTypes: r.device_types?.map(String) ?? null,
    quietHours: r.quiet_from && r.quiet_to ? { from: r.quiet_from, to: r.quiet_to } : null,
    minIntervalSeconds: r.min_interval_seconds,
    params: r.params,
    enabled: r.enabled,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export async function notifyRoutes(app: App, ctx: AppContext): Promise<void> {
  const pool = ctx.dbHandle.pool;
  const jobs = ctx.services.jobs;
  if (!jobs) throw new Error('notify: the job queue is not started');
  const notifier = new Notifier(ctx, jobs, (err, what) => app.log.error({ err }, what));
  ctx.services.notifier = notifier;
  // The VAPID key pair exists from the first start on (browsers subscribe with its public half).
  await vapidKeys(ctx);
  await notifier.start();
  for (let i = 0; i < WORKERS; i++) {
    await jobs.work<{ ids: string[] }>(DELIVER_JOB, (job) => deliver(ctx, jobs, notifier, job.data.ids), {
      pollingIntervalSeconds: 0.5,
    });
  }
  await jobs.work<{ ruleId: string; deviceId: string; stateTime: string }>(OFFLINE_JOB, (job) =>
    notifier.checkOffline(job.data),
  );
  await jobs.work(EXPIRY_JOB, async () => {
    await notifier.checkExpiry();
    await requeueStale(ctx, jobs);
  });
  // Expiry within N days (and stale deliveries queued again): every process asks hourly, the queue keeps one job
  // an hour.
  const requestExpiry = () =>
    void jobs
      .enqueue(EXPIRY_JOB, {}, { singletonKey: EXPIRY_JOB, singletonSeconds: 3600 })
      .catch((err) => app.log.error({ err }, 'notify expiry request failed'));
  const first = setTimeout(requestExpiry, 60_000);
  const timer = setInterval(requestExpiry, 3_600_000);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
    await notifier.stop();
  });

  const load = async (caller: Caller, id: string): Promise<RuleWithOwner> => {
    const row = (await pool.query<RuleWithOwner>(`${RULE_SELECT} WHERE r.id = $1`, [id])).rows[0];
    if (!row) throw notFound();
    if (!reachesPath(caller, row.path)) throw noPermission();
    return row;
  };

  /** Every webhook of the channels must reach a public http(s) address (see webhookGuard.ts): else a 400. */
  const checkWebhooks = async (channels: readonly { type: string; url?: string }[]) => {
    for (const c of channels) {
      if (c.type !== 'webhook' || c.url === undefined) continue;
      if (await webhookUrlProblem(c.url, ctx.config.allowPrivateWebhooks)) {
        throw badRequest('notify.webhookRefused', { url: c.url });
      }
    }
  };

  /** Device ids of the terminal IDs, all within the owner's subtree. */
  const deviceIdsOf = async (owner: Caller, terminalIDs: string[] | undefined) =>
    terminalIDs && terminalIDs.length > 0
      ? (await devicesByTerminalIds(ctx, owner, terminalIDs)).map((d) => d.id)
      : null;

  app.post(
    '/notify/rules/find',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Notification rules of the caller and the accounts below it, newest first',
        body: z.object({ name: z.string().trim().max(80).optional(), pageNum: pageQuery.pageNum, pageSize: PAGE_SIZE }),
        response: { 200: envelopeOf(pageOf(ruleSchema)) },
      },
    },
    async (req) => {
      const me = req.user!;
      const b = req.body;
      const where = ['($1 OR u.path LIKE $2)'];
      const args: unknown[] = [me.role === 1, `${me.path}%`];
      if (b.name) {
        args.push(`%${b.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`r.name ILIKE $${args.length}`);
      }
      const filter = `WHERE ${where.join(' AND ')}`;
      const total = (
        await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM notify_rules r JOIN users u ON u.id = r.user_id ${filter}`,
          args,
        )
      ).rows[0].n;
      const rows = (
        await pool.query<RuleWithOwner>(
          `${RULE_SELECT} ${filter} ORDER BY r.id DESC LIMIT ${b.pageSize} OFFSET ${(b.pageNum - 1) * b.pageSize}`,
          args,
        )
      ).rows;
      return ok({ total: Number(total), list: rows.map(present) });
    },
  );

  app.post(
    '/notify/rules/add',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Add a notification rule for the caller (no device list: every device of its subtree)',
        body: z.object(ruleFields),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const me = req.user!;
      const b = req.body;
      await checkWebhooks(b.channels);
      const deviceIds = await deviceIdsOf(me, b.terminalIDs);
      const row = (
        await pool.query<{ id: string }>(
          `INSERT INTO notify_rules (user_id, name, events, channels, device_ids, device_types, quiet_from, quiet_to,
             min_interval_seconds, params, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text AS id`,
          [
            me.id,
            b.name,
            [...new Set(b.events)],
            JSON.stringify(b.channels),
            deviceIds,
            b.deviceTypes && b.deviceTypes.length > 0 ? b.deviceTypes.map(Number) : null,
            b.quietHours?.from ?? null,
            b.quietHours?.to ?? null,
            b.minIntervalSeconds ?? 0,
            JSON.stringify(b.params ?? {}),
            b.enabled ?? true,
          ],
        )
      ).rows[0];
      await notifier.reload();
      notifier.changed();
      return ok({ id: row.id });
    },
  );

  app.post(
    '/notify/rules/update',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Change a notification rule (fields left out stay as they are)',
        body: z.object({ id: idSchema, ...z.object(ruleFields).partial().shape }),
        response: { 200: envelopeOf(ruleSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const rule = await load(req.user!, b.id);
      const owner = await pool.query<{ id: string; role: number; path: string }>(
        'SELECT id::text AS id, role, path FROM users WHERE id = $1',
        [rule.user_id],
      );
      const sets: string[] = [];
      const args: unknown[] = [b.id];
      const set = (column: string, value: unknown) => {
        args.push(value);
        sets.push(`${column} = $${args.length}`);
      };
      if (b.name !== undefined) set('name', b.name);
      if (b.events !== undefined) set('events', [...new Set(b.events)]);
      if (b.channels !== undefined) {
        const channels = unmaskSecrets(b.channels, rule.channels as ChannelSpec[]);
        await checkWebhooks(channels);
        set('channels', JSON.stringify(channels));
      }
      if (b.terminalIDs !== undefined) set('device_ids', await deviceIdsOf(owner.rows[0], b.terminalIDs));
      if (b.deviceTypes !== undefined) set('device_types', b.deviceTypes.length > 0 ? b.deviceTypes.map(Number) : null);
      if (b.quietHours !== undefined) {
        set('quiet_from', b.quietHours?.from ?? null);
        set('quiet_to', b.quietHours?.to ?? null);
      }
      if (b.minIntervalSeconds !== undefined) set('min_interval_seconds', b.minIntervalSeconds);
      if (b.params !== undefined) set('params', JSON.stringify(b.params));
      if (b.enabled !== undefined) set('enabled', b.enabled);
      if (sets.length > 0) {
        await pool.query(`UPDATE notify_rules SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, args);
        await notifier.reload();
        notifier.changed();
      }
      return ok(present(await load(req.user!, b.id)));
    },
  );

  app.post(
    '/notify/rules/delete',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Delete a notification rule and its delivery log',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await load(req.user!, req.body.id);
      await pool.query('DELETE FROM notify_rules WHERE id = $1', [req.body.id]);
      await notifier.reload();
      notifier.changed();
      return ok(null);
    },
  );

  app.post(
    '/notify/rules/test',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Send a test notification through every channel of a rule (listed in the delivery log)',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ queued: z.number().int() })) },
      },
    },
    async (req) => {
      const rule = await load(req.user!, req.body.id);
      const full = await ruleById(pool, rule.id);
      if (!full) throw notFound();
      const now = new Date().toISOString();
      const queued = await notifier.queueDeliveries(
        rule.id,
        rule.user_id,
        rule.channels as ChannelSpec[],
        `test:${now}`,
        null,
        {
          event: 'test',
          terminalID: '000000000000000',
          deviceName: rule.name,
          time: now,
          lat: 39.908692,
          lon: 116.397477,
          speed: 0,
          lang: full.lang,
          timeZone: full.time_zone,
        },
        true,
      );
      await notifier.flush();
      return ok({ queued });
    },
  );

  app.post(
    '/notify/deliveries',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'The delivery log (status and the receiver answer) of the rules the caller reaches, newest first',
        body: z.object({ ruleId: idSchema.optional(), pageNum: pageQuery.pageNum, pageSize: PAGE_SIZE }),
        response: { 200: envelopeOf(pageOf(deliverySchema)) },
      },
    },
    async (req) => {
      const me = req.user!;
      const b = req.body;
      if (b.ruleId) await load(me, b.ruleId);
      const args: unknown[] = [me.role === 1, `${me.path}%`];
      let filter = 'WHERE ($1 OR u.path LIKE $2)';
      if (b.ruleId) {
        args.push(b.ruleId);
        filter += ` AND d.rule_id = $${args.length}`;
      }
      const from = 'FROM notify_deliveries d JOIN notify_rules r ON r.id = d.rule_id JOIN users u ON u.id = r.user_id';
      const total = (await pool.query<{ n: string }>(`SELECT count(*) AS n ${from} ${filter}`, args)).rows[0].n;
      const rows = (
        await pool.query<{
          id: string;
          rule_id: string;
          rule_name: string;
          channel: string;
          event: string;
          payload: { terminalID: string; deviceName: string; time: string };
          status: string;
          attempts: number;
          response: string;
          test: boolean;
          created_at: Date;
          updated_at: Date;
        }>(
          `SELECT d.id::text AS id, d.rule_id::text AS rule_id, r.name AS rule_name, d.channel, d.event, d.payload,
                  d.status, d.attempts, d.response, d.test, d.created_at, d.updated_at
           ${from} ${filter} ORDER BY d.id DESC LIMIT ${b.pageSize} OFFSET ${(b.pageNum - 1) * b.pageSize}`,
          args,
        )
      ).rows;
      return ok({
        total: Number(total),
        list: rows.map((d) => ({
          id: d.id,
          ruleId: d.rule_id,
          ruleName: d.rule_name,
          channel: d.channel,
          event: d.event,
          terminalID: d.payload.terminalID,
          deviceName: d.payload.deviceName,
          time: d.payload.time,
          status: d.status,
          attempts: d.attempts,
          response: d.response,
          test: d.test,
          createdAt: d.created_at.toISOString(),
          updatedAt: d.updated_at.toISOString(),
        })),
      });
    },
  );

  app.post(
    '/notify/push/key',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'The server VAPID public key (applicationServerKey of a browser push subscription)',
        response: { 200: envelopeOf(z.object({ publicKey: z.string() })) },
      },
    },
    async () => ok({ publicKey: (await vapidKeys(ctx)).publicKey }),
  );

  app.post(
    '/notify/push/subscribe',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary:
          'Keep this browser push subscription for the caller (its push rules reach it); the endpoint must be a public http(s) address',
        body: z.object({
          endpoint: z.url({ protocol: /^https?$/ }).max(2000),
          keys: z.object({
            p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}$/),
            auth: z.string().regex(/^[A-Za-z0-9_-]{16,30}$/),
          }),
        }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const b = req.body;
      // The server POSTs to this address later: only a public http(s) push service (see webhookGuard.ts).
      if (await webhookUrlProblem(b.endpoint, ctx.config.allowPrivatePush)) {
        throw badRequest('notify.pushRefused', { url: b.endpoint });
      }
      await pool.query(
        `INSERT INTO notify_push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth`,
        [req.user!.id, b.endpoint, b.keys.p256dh, b.keys.auth],
      );
      return ok(null);
    },
  );

  app.post(
    '/notify/push/unsubscribe',
    {
      config: NOTIFY,
      schema: {
        tags,
        summary: 'Forget a browser push subscription of the caller',
        body: z.object({ endpoint: z.string().max(2000) }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await pool.query('DELETE FROM notify_push_subscriptions WHERE endpoint = $1 AND user_id = $2', [
        req.body.endpoint,
        req.user!.id,
      ]);
      return ok(null);
    },
  );

  const mailShape = z.object({ smtpUrl: z.string().max(500), from: z.string().max(200) });

  app.post(
    '/notify/mail/get',
    {
      config: SYSTEM,
      schema: {
        tags,
        summary: 'The mail server of notifications and scheduled reports (SMTP_URL wins when set)',
        response: { 200: envelopeOf(mailShape.extend({ fromEnvironment: z.boolean() })) },
      },
    },
    async () => {
      const row = (
        await pool.query<{ value: { smtpUrl?: string; from?: string } }>(
          `SELECT value FROM settings WHERE key = 'notify.mail'`,
        )
      ).rows[0];
      const masked = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
      return ok({
        smtpUrl: masked(ctx.config.smtpUrl ?? row?.value.smtpUrl ?? ''),
        from: ctx.config.mailFrom ?? row?.value.from ?? '',
        fromEnvironment: Boolean(ctx.config.smtpUrl),
      });
    },
  );

  app.post(
    '/notify/mail/set',
    {
      config: SYSTEM,
      schema: {
        tags,
        summary: 'Set the mail server (smtp:// or smtps:// URL) and sender address in the system settings',
        body: z.object({
          smtpUrl: z.url({ protocol: /^smtps?$/ }).max(500),
          from: z.email().max(200),
        }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      if (req.user!.role !== 1) throw noPermission();
      if (!req.body.smtpUrl) throw badRequest('invalidParam', { field: 'smtpUrl' });
      await pool.query(
        `INSERT INTO settings (key, value, updated_at) VALUES ('notify.mail', $1, now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [JSON.stringify(req.body)],
      );
      return ok(null);
    },
  );
}
