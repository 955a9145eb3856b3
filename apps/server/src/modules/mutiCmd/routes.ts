// The factory's batch tools (spec §2 /test/mutiCmd/*, /test/cmdSend): a command to up to 10,000 IMEIs as one
// task and its per-device results; batch actions on an IMEI list (move to an account, reset, clear data, change
// model); and the one-device console (text or hex content, the device's recent commands with their replies as
// they arrive). Factory staff work on the factory's whole fleet (devices often have no owner yet).
import { ROLES, TASK_ITEM_STATES } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { deviceChanged } from '../device/events.ts';
import { resetDevices, transferDevices } from '../device/service.ts';
import { devicesQuery, type ReachableDevice } from '../location/devices.ts';
import { terminalIdSchema } from '../location/params.ts';
import { MAX_TASK_DEVICES, terminalIdsOf } from '../tasks/routes.ts';

const MUTI = ['factory:muti_cmd'];
const CONSOLE = ['factory:cmd_send'];
const TO_HEX = ['factory:cmd_send', 'factory:config_platform', 'factory:muti_cmd'];
const imeiList = {
  terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
  text: z
    .string()
    .max(MAX_TASK_DEVICES * 24)
    .optional(),
};

function imeisOf(body: { terminalIDs?: string[]; text?: string }): string[] {
  const ids = [...new Set(terminalIdsOf(body))];
  if (ids.length === 0 || ids.length > MAX_TASK_DEVICES) throw badRequest('invalidParam', { field: 'terminalIDs' });
  for (const t of ids) if (!terminalIdSchema.safeParse(t).success) throw badRequest('invalidParam', { field: 'text' });
  return ids;
}

const itemSchema = z.object({
  taskId: z.string(),
  terminalID: z.string(),
  content: z.string(),
  status: z.enum(TASK_ITEM_STATES),
  reply: z.string().nullable(),
  detail: z.string(),
  sentTime: z.string().nullable(),
  replyTime: z.string().nullable(),
});

const historySchema = z.object({
  commandId: z.string(),
  content: z.string(),
  status: z.string(),
  result: z.number().int().nullable(),
  reply: z.string().nullable(),
  senderName: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Text → hex (UTF-8 bytes, upper case) and back. */
export function textToHex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase();
}

export function hexToText(hex: string): string {
  return Buffer.from(hex.replace(/\s+/g, ''), 'hex').toString('utf8');
}

/** One device anywhere in the fleet (factory staff), 404 when it is not registered. */
async function fleetDevice(ctx: AppContext, terminalId: string): Promise<ReachableDevice> {
  const r = await devicesQuery(ctx).where('d.terminal_id', '=', terminalId).executeTakeFirst();
  if (!r) throw notFound('factory.imeiUnknown');
  return {
    id: String(r.id),
    terminalId: r.terminal_id,
    userId: r.user_id === null ? null : String(r.user_id),
    path: r.path ?? '',
    protocol: r.protocol,
    deviceType: r.device_type,
    nbDeviceId: r.nb_device_id,
    nickname: r.nickname,
    carNumber: r.car_number,
  };
}

function service<K extends keyof AppContext['services']>(
  ctx: AppContext,
  name: K,
): NonNullable<AppContext['services'][K]> {
  const s = ctx.services[name];
  if (!s) throw new ApiError(500, 'serverBusy', 500);
  return s as NonNullable<AppContext['services'][K]>;
}

export async function mutiCmdRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/mutiCmd/send',
    {
      config: { permission: MUTI },
      schema: {
        tags: ['mutiCmd'],
        summary:
          'One command to up to 10,000 IMEIs (pasted or read from xlsx): one task, sent at once to devices online, at their next connection to the others',
        body: z
          .object({ ...imeiList, content: z.string().trim().min(1).max(512) })
          .refine((b) => terminalIdsOf(b).length > 0, { message: 'no devices', path: ['terminalIDs'] }),
        response: { 200: envelopeOf(z.object({ taskId: z.string(), total: z.number().int() })) },
      },
    },
    async (req) => {
      const task = await service(ctx, 'tasks').createCommandTask(
        req.user!,
        { content: req.body.content, terminalIds: imeisOf(req.body), area: 'factory' },
        callerLang(req),
      );
      return ok({ taskId: String(task.id), total: task.total });
    },
  );

  app.post(
    '/mutiCmd/results',
    {
      config: { permission: MUTI },
      schema: {
        tags: ['mutiCmd'],
        summary: 'Per-device results of one batch-command task, or of every factory batch command, newest first',
        body: z.object({
          taskId: z
            .string()
            .regex(/^\d{1,18}$/)
            .optional(),
          terminalID: z
            .string()
            .trim()
            .regex(/^[0-9A-Za-z]{1,32}$/)
            .optional(),
          status: z.enum(TASK_ITEM_STATES).optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(itemSchema)) },
      },
    },
    async (req) => {
      const q = req.body;
      const open = await sql<{ task_id: string }>`
        SELECT DISTINCT ti.task_id FROM task_items ti JOIN tasks t ON t.id = ti.task_id
         WHERE t.kind = 'command' AND t.area = 'factory' AND ti.state IN ('pending', 'sent')
           ${q.taskId ? sql`AND ti.task_id = ${q.taskId}::bigint` : sql``}`.execute(ctx.db);
      if (open.rows.length > 0) await service(ctx, 'tasks').store.settle(open.rows.map((r) => String(r.task_id)));
      const conds = [sql`t.kind = 'command'`, sql`t.area = 'factory'`];
      if (q.taskId) conds.push(sql`ti.task_id = ${q.taskId}::bigint`);
      if (q.terminalID) conds.push(sql`ti.terminal_id LIKE ${`${q.terminalID}%`}`);
      if (q.status) conds.push(sql`ti.state = ${q.status}`);
      const where = sql.join(conds, sql` AND `);
      const total = await sql<{ n: string }>`
        SELECT count(*) AS n FROM task_items ti JOIN tasks t ON t.id = ti.task_id WHERE ${where}`.execute(ctx.db);
      const rows = await sql<{
        task_id: string;
        terminal_id: string;
        content: string | null;
        title: string;
        state: (typeof TASK_ITEM_STATES)[number];
        reply: string | null;
        detail: string;
        sent_at: Date | null;
        done_at: Date | null;
      }>`
        SELECT ti.task_id, ti.terminal_id, c.content, t.title, ti.state, ti.reply, ti.detail, ti.sent_at, ti.done_at
          FROM task_items ti JOIN tasks t ON t.id = ti.task_id LEFT JOIN commands c ON c.id = ti.command_id
         WHERE ${where} ORDER BY ti.id DESC LIMIT ${q.pageSize} OFFSET ${(q.pageNum - 1) * q.pageSize}`.execute(ctx.db);
      return ok({
        total: Number(total.rows[0]?.n ?? 0),
        list: rows.rows.map((r) => ({
          taskId: String(r.task_id),
          terminalID: r.terminal_id,
          content: r.content ?? r.title,
          status: r.state,
          reply: r.reply,
          detail: r.detail,
          sentTime: iso(r.sent_at),
          replyTime: r.state === 'success' || r.state === 'failed' ? iso(r.done_at) : null,
        })),
      });
    },
  );

  app.post(
    '/mutiCmd/deviceBatchManage',
    {
      config: { permission: MUTI },
      schema: {
        tags: ['mutiCmd'],
        summary:
          'Batch actions on an IMEI list for factory staff: move to an account (username), reset (tracks, alarms, commands, names and expiry cleared), clear data (tracks, alarms and commands only), change model',
        body: z
          .object({
            ...imeiList,
            action: z.enum(['move', 'reset', 'clearData', 'changeModel']),
            username: z.string().trim().min(1).max(64).optional(),
            deviceType: z.number().int().min(0).max(32767).optional(),
          })
          .refine((b) => terminalIdsOf(b).length > 0, { message: 'no devices', path: ['terminalIDs'] }),
        response: {
          200: envelopeOf(
            z.object({
              success: z.number().int(),
              failed: z.array(z.object({ terminalID: z.string(), message: z.string() })),
            }),
          ),
        },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const ids = imeisOf(req.body);
      const user = req.user!;
      // Factory staff act on the whole fleet: the device rules run with the fleet as their scope.
      const fleet = { id: user.id, username: user.username, role: ROLES.admin, path: '' };
      const { action } = req.body;
      if (action === 'move') {
        if (!req.body.username) throw badRequest('invalidParam', { field: 'username' });
        const target = await ctx.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', req.body.username)
          .executeTakeFirst();
        if (!target) throw badRequest('invalidParam', { field: 'username' });
        return ok(await transferDevices(ctx, fleet, ids, String(target.id), lang));
      }
      if (action === 'reset') return ok(await resetDevices(ctx, fleet, ids, lang));
      const found = await ctx.db
        .selectFrom('devices')
        .select(['id', 'terminal_id'])
        .where('terminal_id', 'in', ids)
        .execute();
      const known = new Set(found.map((d) => d.terminal_id));
      const failed = ids
        .filter((t) => !known.has(t))
        .map((t) => ({ terminalID: t, message: translate('factory.imeiUnknown', lang) }));
      const deviceIds = found.map((d) => String(d.id));
      if (deviceIds.length > 0) {
        if (action === 'changeModel') {
          if (req.body.deviceType === undefined) throw badRequest('invalidParam', { field: 'deviceType' });
          await ctx.db
            .updateTable('devices')
            .set({ device_type: req.body.deviceType, updated_at: new Date() })
            .where('id', 'in', deviceIds)
            .execute();
        } else {
          await ctx.db.transaction().execute(async (trx) => {
            await sql`DELETE FROM positions WHERE device_id = ANY(${deviceIds}::bigint[])`.execute(trx);
            await trx.deleteFrom('alarms').where('device_id', 'in', deviceIds).execute();
            await trx.deleteFrom('commands').where('device_id', 'in', deviceIds).execute();
          });
        }
        deviceChanged(ctx, { terminalIDs: found.map((d) => d.terminal_id) });
      }
      return ok({ success: deviceIds.length, failed });
    },
  );

  app.post(
    '/cmdSend/send',
    {
      config: { permission: CONSOLE },
      schema: {
        tags: ['cmdSend'],
        summary:
          'The command console: one command (text, or hex bytes when hex is set) to one device, sent now when it is online, else at its next connection; the reply arrives in the history',
        body: z.object({
          terminalID: terminalIdSchema,
          content: z.string().trim().min(1).max(1024),
          hex: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(historySchema) },
      },
    },
    async (req) => {
      const device = await fleetDevice(ctx, req.body.terminalID);
      let content = req.body.content;
      if (req.body.hex) {
        if (!/^([0-9A-Fa-f]{2}\s*)+$/.test(content)) throw badRequest('invalidParam', { field: 'content' });
        content = hexToText(content);
      }
      if (content.length > 512) throw badRequest('invalidParam', { field: 'content' });
      const outcome = await service(ctx, 'commands').queueOffline(device, content, {
        id: req.user!.id,
        name: req.user!.username,
      });
      const r = outcome.row;
      return ok({
        commandId: String(r.id),
        content: r.content,
        status: r.status,
        result: r.result,
        reply: r.reply,
        senderName: r.sender_name,
        createdAt: iso(r.created_at) as string,
        sentAt: iso(r.sent_at),
        answeredAt: iso(r.answered_at),
      });
    },
  );

  app.post(
    '/cmdSend/history',
    {
      config: { permission: CONSOLE },
      schema: {
        tags: ['cmdSend'],
        summary: 'A device’s recent commands, newest first, with their status and reply',
        body: z.object({ terminalID: terminalIdSchema, pageSize: z.number().int().min(1).max(100).default(20) }),
        response: { 200: envelopeOf(z.array(historySchema)) },
      },
    },
    async (req) => {
      const device = await fleetDevice(ctx, req.body.terminalID);
      const rows = await ctx.db
        .selectFrom('commands')
        .selectAll()
        .where('device_id', '=', device.id)
        .orderBy('id', 'desc')
        .limit(req.body.pageSize)
        .execute();
      return ok(
        rows.map((r) => ({
          commandId: String(r.id),
          content: r.content,
          status: r.status,
          result: r.result,
          reply: r.reply,
          senderName: r.sender_name,
          createdAt: iso(r.created_at) as string,
          sentAt: iso(r.sent_at),
          answeredAt: iso(r.answered_at),
        })),
      );
    },
  );

  app.post(
    '/config/toHex',
    {
      config: { permission: TO_HEX },
      schema: {
        tags: ['cmdSend'],
        summary: 'Text as hex (UTF-8 bytes), or hex back as text with reverse',
        body: z.object({ text: z.string().max(4096), reverse: z.boolean().optional() }),
        response: { 200: envelopeOf(z.object({ hex: z.string(), text: z.string() })) },
      },
    },
    async (req) => {
      if (req.body.reverse) {
        if (!/^([0-9A-Fa-f]{2}\s*)*$/.test(req.body.text)) throw badRequest('invalidParam', { field: 'text' });
        return ok({ hex: req.body.text.replace(/\s+/g, '').toUpperCase(), text: hexToText(req.body.text) });
      }
      return ok({ hex: textToHex(req.body.text), text: req.body.text });
    },
  );
}
