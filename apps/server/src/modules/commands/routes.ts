// /api/tracker_cmd, /api/command/*, /api/order/* — commands live and offline, their records and log, and each
// device's command configuration (spec §4, §7).
import { COMMAND_RESULT, classifyCommandReply } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { CommandStatus } from '../../db/tables/gateway.ts';
import type { Envelope } from '../../http/envelope.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { oilOutcomeView } from '../deviceTypes/oil.ts';
import { orderItemsProblem } from '../deviceTypes/settings.ts';
import { deviceByRef } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';
import { recordingsOfCommands } from '../recordings/store.ts';
import { type CommandResult, commandResultSchema, commandSchema, presentCommand } from './presenter.ts';
import { type CommandOutcome, CommandService, type Sender } from './service.ts';
import { OPEN_STATUSES } from './store.ts';

declare module '../../context.ts' {
  interface AppServices {
    commands: CommandService;
  }
}

const COMMAND = ['main:command'];
const BATCH = ['main:command', 'main:command_batch'];
const contentSchema = z.string().trim().min(1).max(512);
const agentNameSchema = z.string().trim().max(64).optional();

function senderOf(req: { user: { id: string; username: string } | null }, agentName: string | undefined): Sender {
  return { id: req.user!.id, name: agentName || req.user!.username };
}

function resultOf(outcome: CommandOutcome, lang: string): CommandResult {
  const { row } = outcome;
  const params = { reply: row.reply ?? '' };
  return {
    commandId: String(row.id),
    terminalID: row.terminal_id,
    status: row.status,
    result: row.result,
    reply: row.reply,
    message: translate(outcome.message, lang, params),
    oil: oilOutcomeView(row.content, row.reply, lang, row.status === 'timeout'),
  };
}

/** meta.success is what the web reads for commands: a success reply, or a command safely queued. */
function commandEnvelope(result: CommandResult): Envelope<CommandResult> {
  const success = result.result === COMMAND_RESULT.success || (result.status === 'pending' && result.result === null);
  const code = success ? 200 : result.result === COMMAND_RESULT.timeout || result.status === 'timeout' ? 408 : 422;
  return { meta: { success, message: result.message, code }, data: result };
}

export async function commandRoutes(app: App, ctx: AppContext): Promise<void> {
  const service = new CommandService(ctx);
  ctx.services.commands = service;
  app.addHook('onClose', async () => service.close());

  const resultResponse = { 200: envelopeOf(commandResultSchema) };

  app.post(
    '/tracker_cmd',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: 'Send a command to an online device and wait for its reply (result 1 success, 2 timeout, 3 error)',
        body: z.object({ terminalID: terminalIdSchema, content: contentSchema, agentName: agentNameSchema }),
        response: resultResponse,
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const outcome = await service.send(device, req.body.content, senderOf(req, req.body.agentName), {
        offlineAllowed: false,
      });
      return commandEnvelope(resultOf(outcome, callerLang(req)));
    },
  );

  app.post(
    '/command/add',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary:
          'The spec §4 flow in one call: refuse, queue for an offline device (or when offline is set), else send live',
        body: z.object({
          terminalID: terminalIdSchema,
          content: contentSchema,
          agentName: agentNameSchema,
          deviceProtocol: z.number().int().optional(),
          offline: z.boolean().optional(),
          /** Record a command sent another way (with its reply) instead of sending it. */
          reply: z.string().max(1000).optional(),
        }),
        response: resultResponse,
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const sender = senderOf(req, req.body.agentName);
      const lang = callerLang(req);
      if (req.body.reply !== undefined) {
        const result = classifyCommandReply({ content: req.body.content, reply: req.body.reply });
        const row = await service.record(device, req.body.content, sender, req.body.reply, result);
        return commandEnvelope(resultOf({ row, message: `command.result.${result}` }, lang));
      }
      const outcome = await service.send(device, req.body.content, sender, { offline: req.body.offline });
      return commandEnvelope(resultOf(outcome, lang));
    },
  );

  app.post(
    '/command/addBatch',
    {
      config: { permission: BATCH },
      schema: {
        tags: ['commands'],
        summary:
          'One command to many devices, as a task (/task/*): queued for every device, sent at once to those online (this call waits up to the command timeout for their replies), at the next connection to the others',
        body: z.object({
          terminalIDs: z.array(terminalIdSchema).min(1).max(500),
          content: contentSchema,
          agentName: agentNameSchema,
          offline: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(z.array(commandResultSchema.extend({ taskId: z.string() }))) },
      },
    },
    async (req) => {
      const tasks = ctx.services.tasks;
      if (!tasks) throw new ApiError(500, 'serverBusy', 500);
      const lang = callerLang(req);
      const task = await tasks.createCommandTask(
        req.user!,
        { content: req.body.content, terminalIds: req.body.terminalIDs, senderName: req.body.agentName, area: 'main' },
        lang,
      );
      const rows = req.body.offline
        ? await batchRows(ctx, task.id)
        : await waitForOnlineReplies(ctx, task.id, ctx.config.commandTimeoutMs);
      return ok(
        rows.map((r) => {
          const base = { commandId: r.command_id ?? '', terminalID: r.terminal_id, taskId: String(task.id) };
          if (r.status === null)
            return {
              ...base,
              status: 'refused' as const,
              result: COMMAND_RESULT.error,
              reply: null,
              message: r.detail,
            };
          const message =
            r.status === 'answered'
              ? translate(`command.result.${r.result ?? COMMAND_RESULT.success}`, lang, { reply: r.reply ?? '' })
              : translate('command.savedOffline', lang);
          const oil = oilOutcomeView(req.body.content, r.reply, lang, r.status === 'timeout');
          return { ...base, status: r.status, result: r.result, reply: r.reply, message, oil };
        }),
      );
    },
  );

  app.post(
    '/command/insertOffline',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: 'Queue an offline command, or turn a timed-out live command (commandId) into one',
        body: z.union([
          z.object({ commandId: idSchema, agentName: agentNameSchema }),
          z.object({ terminalID: terminalIdSchema, content: contentSchema, agentName: agentNameSchema }),
        ]),
        response: { 200: envelopeOf(commandSchema) },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const sender = senderOf(req, req.body.agentName);
      if ('commandId' in req.body) {
        const { device } = await commandWithDevice(ctx, req.user!, req.body.commandId);
        const outcome = await service.convertToOffline(device, req.body.commandId, sender);
        if (!outcome) throw badRequest('common.repeatOperation');
        return ok(presentCommand(outcome.row, lang), translate(outcome.message, lang));
      }
      const device = await deviceByRef(ctx, req.user!, req.body);
      const outcome = await service.send(device, req.body.content, sender, { offline: true });
      return ok(presentCommand(outcome.row, lang), translate(outcome.message, lang));
    },
  );

  app.post(
    '/command/cancelOffline',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: 'Cancel an offline command that has not been answered',
        body: z.object({ commandId: idSchema, agentName: agentNameSchema }),
        response: { 200: envelopeOf(commandSchema) },
      },
    },
    async (req) => {
      const { device } = await commandWithDevice(ctx, req.user!, req.body.commandId);
      const row = await service.cancelOffline(device, req.body.commandId, senderOf(req, req.body.agentName));
      if (!row) throw badRequest('common.repeatOperation');
      return ok(presentCommand(row, callerLang(req)));
    },
  );

  app.post(
    '/command/find',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: 'Command records of a device, newest first',
        body: z.object({ terminalID: terminalIdSchema, ...pageQuery }),
        response: { 200: envelopeOf(pageOf(commandSchema)) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const { pageNum, pageSize } = req.body;
      const q = ctx.db.selectFrom('commands').where('device_id', '=', device.id);
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      const lang = callerLang(req);
      const recordings = await recordingsOfCommands(
        ctx,
        rows.map((r) => String(r.id)),
      );
      const list = rows.map((r) => {
        const record = presentCommand(r, lang);
        const ids = recordings.get(record.id);
        return ids ? { ...record, recordings: ids } : record;
      });
      return ok({ total: Number(total.n), list });
    },
  );

  app.post(
    '/command/findLog',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: 'Every status change of a command or of all commands of a device, newest first',
        body: z
          .object({ terminalID: terminalIdSchema.optional(), commandId: idSchema.optional(), ...pageQuery })
          .refine((b) => b.terminalID || b.commandId, 'terminalID or commandId is required'),
        response: {
          200: envelopeOf(
            pageOf(
              z.object({
                id: z.string(),
                commandId: z.string(),
                terminalID: z.string(),
                content: z.string(),
                time: z.string(),
                status: z.string(),
                detail: z.string(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => {
      const { terminalID, commandId, pageNum, pageSize } = req.body;
      let q = ctx.db.selectFrom('command_log as l').innerJoin('commands as c', 'c.id', 'l.command_id');
      if (commandId) {
        const { device } = await commandWithDevice(ctx, req.user!, commandId);
        q = q.where('c.id', '=', commandId).where('c.device_id', '=', device.id);
      }
      if (terminalID) {
        const device = await deviceByRef(ctx, req.user!, { terminalID });
        q = q.where('c.device_id', '=', device.id);
      }
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['l.id', 'l.command_id', 'c.terminal_id', 'c.content', 'l.time', 'l.status', 'l.detail'])
        .orderBy('l.id', 'desc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          id: String(r.id),
          commandId: String(r.command_id),
          terminalID: r.terminal_id,
          content: r.content,
          time: r.time.toISOString(),
          status: r.status,
          detail: r.detail,
        })),
      });
    },
  );

  app.post(
    '/command/findAndOffline',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: "A device's open offline commands (queued or sent, not yet answered), oldest first",
        body: z.object({ terminalID: terminalIdSchema }),
        response: { 200: envelopeOf(z.array(commandSchema)) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const rows = await ctx.db
        .selectFrom('commands')
        .selectAll()
        .where('device_id', '=', device.id)
        .where('mode', '=', 'offline')
        .where('status', 'in', OPEN_STATUSES)
        .orderBy('id')
        .execute();
      const lang = callerLang(req);
      return ok(rows.map((r) => presentCommand(r, lang)));
    },
  );

  const orderSchema = z.object({
    terminalID: z.string(),
    items: z.record(z.string(), z.unknown()),
    updatedAt: z.string().nullable(),
  });

  app.post(
    '/order/find',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: "A device's command configuration (the last values set per command)",
        body: z.object({ terminalID: terminalIdSchema }),
        response: { 200: envelopeOf(orderSchema) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const row = await ctx.db
        .selectFrom('command_orders')
        .selectAll()
        .where('device_id', '=', device.id)
        .executeTakeFirst();
      return ok({
        terminalID: device.terminalId,
        items: row?.items ?? {},
        updatedAt: row ? row.updated_at.toISOString() : null,
      });
    },
  );

  app.post(
    '/order/save',
    {
      config: { permission: COMMAND },
      schema: {
        tags: ['commands'],
        summary: "Merge values into a device's command configuration",
        body: z.object({
          terminalID: terminalIdSchema,
          items: z
            .record(z.string().min(1).max(64), z.union([z.string().max(512), z.number(), z.boolean(), z.null()]))
            .refine((o) => Object.keys(o).length <= 200, 'at most 200 items'),
        }),
        response: { 200: envelopeOf(orderSchema) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const problem = orderItemsProblem(req.body.items);
      if (problem) throw badRequest(problem);
      const items = JSON.stringify(req.body.items);
      const row = await ctx.db
        .insertInto('command_orders')
        .values({ device_id: device.id, items, updated_by: req.user!.id })
        .onConflict((oc) =>
          oc.column('device_id').doUpdateSet((eb) => ({
            items: eb.fn<Record<string, unknown>>('jsonb_strip_nulls', [
              eb('command_orders.items', '||', eb.ref('excluded.items')),
            ]),
            updated_by: req.user!.id,
            updated_at: new Date(),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok({ terminalID: device.terminalId, items: row.items, updatedAt: row.updated_at.toISOString() });
    },
  );
}

/** A command and its device, both within the caller's reach. */
async function commandWithDevice(
  ctx: AppContext,
  caller: { id: string; role: number; path: string },
  commandId: string,
) {
  const row = await ctx.db
    .selectFrom('commands')
    .select(['id', 'device_id'])
    .where('id', '=', commandId)
    .executeTakeFirst();
  if (!row) throw caller.role === 1 ? notFound() : new ApiError(403, 'noPermissionAccount', 403);
  const device = await deviceByRef(ctx, caller, { deviceId: String(row.device_id) });
  return { row, device };
}

interface BatchRow {
  terminal_id: string;
  command_id: string | null;
  status: CommandStatus | null;
  result: number | null;
  reply: string | null;
  detail: string;
  online: boolean | null;
}

/** The items of a batch task with their commands, in the order they were created. */
async function batchRows(ctx: AppContext, taskId: string): Promise<BatchRow[]> {
  const res = await sql<BatchRow>`
    SELECT ti.terminal_id, ti.command_id::text AS command_id, c.status, c.result, c.reply, ti.detail, s.online
      FROM task_items ti LEFT JOIN commands c ON c.id = ti.command_id
      LEFT JOIN device_state s ON s.device_id = ti.device_id
     WHERE ti.task_id = ${taskId} ORDER BY ti.id`.execute(ctx.db);
  return res.rows;
}

/** Waits (polling the database, so replies handled by any process count) until online devices have answered. */
async function waitForOnlineReplies(ctx: AppContext, taskId: string, timeoutMs: number): Promise<BatchRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await batchRows(ctx, taskId);
    const waiting = rows.some((r) => r.online === true && r.status !== null && OPEN_STATUSES.includes(r.status));
    if (!waiting || Date.now() >= deadline) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}
