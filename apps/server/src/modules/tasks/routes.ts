// /api/task/*: tasks for many devices (shared/DESIGN.md) — create a command task, find tasks with their
// progress, page through a task's per-device items, cancel. The customer site's batch command
// (/command/addBatch) and the factory's cmdTask log use the same tasks.
import { hasPermission, roleRootArea } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, noPermission } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { oilOutcomeView } from '../deviceTypes/oil.ts';
import { terminalIdSchema } from '../location/params.ts';
import { presentItem, presentTask, taskItemSchema, taskItemStateSchema, taskSchema } from './presenter.ts';
import { TaskService } from './service.ts';

declare module '../../context.ts' {
  interface AppServices {
    tasks: TaskService;
  }
}

/** Largest task one request creates. */
export const MAX_TASK_DEVICES = 10_000;
const CREATE = ['main:command', 'main:command_batch', 'factory:muti_cmd'];
const READ = ['main:command', 'main:command_batch', 'factory:muti_cmd', 'factory:log_cmd_task'];
const CANCEL = ['main:command', 'main:command_batch', 'factory:muti_cmd'];
const idBody = z.object({ id: z.string().regex(/^\d{1,18}$/) });
const areaSchema = z.enum(['main', 'factory']);

/** IMEIs from a list and/or a text (one per line, or separated by commas, semicolons or spaces). */
export function terminalIdsOf(body: { terminalIDs?: string[]; text?: string }): string[] {
  const fromText = (body.text ?? '').split(/[\s,;]+/).filter((s) => s !== '');
  return [...(body.terminalIDs ?? []), ...fromText];
}

export async function taskRoutes(app: App, ctx: AppContext): Promise<void> {
  const service = new TaskService(ctx, (err, what) => app.log.error({ err }, what));
  ctx.services.tasks = service;
  app.addHook('onClose', async () => service.idle());

  app.post(
    '/task/create',
    {
      config: { permission: CREATE },
      schema: {
        tags: ['tasks'],
        summary:
          'Create a command task for up to 10,000 devices in one request: one offline command per device, sent at once to devices online now and at the next connection to the others, until the task expires',
        body: z
          .object({
            kind: z.literal('command').default('command'),
            content: z.string().trim().min(1).max(512),
            terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
            text: z
              .string()
              .max(MAX_TASK_DEVICES * 24)
              .optional(),
            expiresInHours: z
              .number()
              .int()
              .min(1)
              .max(24 * 90)
              .optional(),
            area: areaSchema.optional().describe('main (customer site) or factory; default: the caller’s area'),
            agentName: z.string().trim().max(64).optional(),
          })
          .refine((b) => terminalIdsOf(b).length > 0, { message: 'no devices', path: ['terminalIDs'] }),
        response: { 200: envelopeOf(taskSchema) },
      },
    },
    async (req) => {
      const user = req.user!;
      const area = req.body.area ?? (user.role === 1 ? 'main' : roleRootArea(user.role));
      const needed = area === 'factory' ? ['factory:muti_cmd'] : ['main:command', 'main:command_batch'];
      if (!hasPermission(req.permissions, needed)) throw noPermission();
      const terminalIds = terminalIdsOf(req.body);
      if (terminalIds.length > MAX_TASK_DEVICES) throw badRequest('invalidParam', { field: 'terminalIDs' });
      for (const t of terminalIds) {
        if (!terminalIdSchema.safeParse(t).success) throw badRequest('invalidParam', { field: 'text' });
      }
      const task = await service.createCommandTask(
        user,
        {
          content: req.body.content,
          terminalIds,
          expiresInHours: req.body.expiresInHours,
          senderName: req.body.agentName,
          area,
        },
        callerLang(req),
      );
      return ok(presentTask(task, await service.progress(task)));
    },
  );

  app.post(
    '/task/find',
    {
      config: { permission: READ },
      schema: {
        tags: ['tasks'],
        summary:
          'Tasks the caller may see (its own and its subtree’s; factory staff: all), newest first, with progress',
        body: z.object({
          kind: z.string().max(32).optional(),
          area: areaSchema.optional(),
          terminalID: terminalIdSchema.optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(taskSchema)) },
      },
    },
    async (req) => {
      const page = await service.find(req.user!, req.permissions, req.body);
      return ok({ total: page.total, list: page.list.map((e) => presentTask(e.task, e.progress)) });
    },
  );

  app.post(
    '/task/get',
    {
      config: { permission: READ },
      schema: {
        tags: ['tasks'],
        summary: 'One task with its progress',
        body: idBody,
        response: { 200: envelopeOf(taskSchema) },
      },
    },
    async (req) => {
      const task = await service.visible(req.user!, req.permissions, req.body.id);
      return ok(presentTask(task, await service.progress(task)));
    },
  );

  app.post(
    '/task/items',
    {
      config: { permission: READ },
      schema: {
        tags: ['tasks'],
        summary: 'A task’s per-device items: state (pending, sent, success, failed, timeout, cancelled), reply, times',
        body: idBody.extend({
          state: taskItemStateSchema.optional(),
          terminalID: z
            .string()
            .trim()
            .regex(/^[0-9A-Za-z-]{1,40}$/)
            .optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(taskItemSchema)) },
      },
    },
    async (req) => {
      const task = await service.visible(req.user!, req.permissions, req.body.id);
      const page = await service.items(task, req.body);
      const content = task.kind === 'command' ? String(task.params.content ?? '') : null;
      const lang = callerLang(req);
      return ok({
        total: page.total,
        list: page.list.map((i) => ({
          ...presentItem(i),
          oil: oilOutcomeView(content, i.reply, lang, i.state === 'timeout'),
        })),
      });
    },
  );

  app.post(
    '/task/cancel',
    {
      config: { permission: CANCEL },
      schema: {
        tags: ['tasks'],
        summary: 'Cancel a task: its items not yet answered become cancelled, and their queued commands too',
        body: idBody,
        response: { 200: envelopeOf(z.object({ cancelled: z.number().int(), task: taskSchema })) },
      },
    },
    async (req) => {
      const task = await service.visible(req.user!, req.permissions, req.body.id);
      const cancelled = await service.store.cancel(task.id, req.user!.username);
      const fresh = (await service.store.get(task.id)) ?? task;
      return ok({ cancelled, task: presentTask(fresh, await service.progress(fresh)) });
    },
  );
}
