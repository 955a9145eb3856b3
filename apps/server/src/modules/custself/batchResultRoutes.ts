// POST /task/findResults: the per-device results of the customer site's batch commands (device/
// multipleCmdSearch, issue 16) searched across batches by batch, IMEI, state and time; the screen exports them.
// Who sees what is the tasks area's rule: the caller's own batches and its subtree's (admin: all).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { instantSchema } from '../location/params.ts';
import { seesAllTasks } from '../tasks/service.ts';

const STATES = ['pending', 'sent', 'success', 'failed', 'timeout', 'cancelled'] as const;

const resultSchema = z.object({
  taskId: z.string(),
  title: z.string(),
  creatorName: z.string(),
  taskCreatedAt: z.string(),
  terminalID: z.string(),
  state: z.enum(STATES),
  reply: z.string().nullable(),
  sentAt: z.string().nullable(),
  doneAt: z.string().nullable(),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function batchResultRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/task/findResults',
    {
      config: { permission: ['main:command', 'main:command_batch'] },
      schema: {
        tags: ['tasks'],
        summary:
          'Per-device results of batch commands made on the customer site, by batch (taskId), IMEI, state and batch time (at most 5000 per page, for export)',
        body: z.object({
          taskId: z
            .string()
            .regex(/^\d{1,18}$/)
            .optional(),
          terminalID: z
            .string()
            .trim()
            .regex(/^[0-9A-Za-z-]{1,40}$/)
            .optional(),
          state: z.enum(STATES).optional(),
          startTime: instantSchema.optional(),
          endTime: instantSchema.optional(),
          pageNum: z.number().int().min(1).max(1_000_000).default(1),
          pageSize: z.number().int().min(1).max(5000).default(15),
        }),
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      const caller = req.user!;
      let q = ctx.db
        .selectFrom('task_items as i')
        .innerJoin('tasks as t', 't.id', 'i.task_id')
        .where('t.kind', '=', 'command')
        .where('t.area', '=', 'main');
      if (!seesAllTasks(caller, req.permissions)) q = q.where('t.creator_path', 'like', `${caller.path}%`);
      if (b.taskId) q = q.where('t.id', '=', b.taskId);
      if (b.terminalID) q = q.where('i.terminal_id', '=', b.terminalID);
      if (b.startTime !== undefined) q = q.where('t.created_at', '>=', new Date(b.startTime));
      if (b.endTime !== undefined) q = q.where('t.created_at', '<=', new Date(b.endTime));
      // Items still open take their state from their command first, as the task view does.
      const taskIds = await q.select('t.id').distinct().limit(500).execute();
      await ctx.services.tasks?.store.settle(taskIds.map((r) => String(r.id)));
      if (b.state) q = q.where('i.state', '=', b.state);
      const total = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .select([
          'i.task_id',
          't.title',
          't.creator_name',
          't.created_at',
          'i.terminal_id',
          'i.state',
          'i.reply',
          'i.sent_at',
          'i.done_at',
        ])
        .orderBy('i.task_id', 'desc')
        .orderBy('i.id')
        .limit(b.pageSize)
        .offset((b.pageNum - 1) * b.pageSize)
        .execute();
      return ok({
        total: Number(total.n),
        list: rows.map((r) => ({
          taskId: String(r.task_id),
          title: r.title,
          creatorName: r.creator_name,
          taskCreatedAt: r.created_at.toISOString(),
          terminalID: r.terminal_id,
          state: r.state,
          reply: r.reply,
          sentAt: iso(r.sent_at),
          doneAt: iso(r.done_at),
        })),
      });
    },
  );
}
