// Tasks and their items as the API shows them (zod schemas for validation and the OpenAPI document).
import { TASK_ITEM_STATES, type taskProgress } from '@carhere/domain';
import { z } from 'zod';
import { oilOutcomeSchema } from '../deviceTypes/oil.ts';
import type { TaskItemRow, TaskRow } from './store.ts';

export const taskItemStateSchema = z.enum(TASK_ITEM_STATES);

const countsSchema = z.object({
  pending: z.number().int(),
  sent: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  timeout: z.number().int(),
  cancelled: z.number().int(),
  total: z.number().int(),
});

export const taskSchema = z.object({
  id: z.string(),
  kind: z.string().describe('command | ota | transferIp | config | import …'),
  title: z.string(),
  params: z.record(z.string(), z.unknown()),
  area: z.enum(['main', 'factory']),
  creatorName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  cancelledAt: z.string().nullable(),
  total: z.number().int(),
  counts: countsSchema,
  /** Share of items finished, 0..1. */
  done: z.number(),
  finished: z.boolean(),
});
export type TaskView = z.infer<typeof taskSchema>;

export const taskItemSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  state: taskItemStateSchema,
  reply: z.string().nullable(),
  detail: z.string(),
  commandId: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  doneAt: z.string().nullable(),
  oil: oilOutcomeSchema.optional(),
});
export type TaskItemView = z.infer<typeof taskItemSchema>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentTask(task: TaskRow, progress: ReturnType<typeof taskProgress>): TaskView {
  return {
    id: String(task.id),
    kind: task.kind,
    title: task.title,
    params: task.params,
    area: task.area,
    creatorName: task.creator_name,
    createdAt: iso(task.created_at) as string,
    expiresAt: iso(task.expires_at) as string,
    cancelledAt: iso(task.cancelled_at),
    total: task.total,
    counts: progress.counts,
    done: progress.done,
    finished: progress.finished,
  };
}

export function presentItem(item: TaskItemRow): TaskItemView {
  return {
    id: String(item.id),
    terminalID: item.terminal_id,
    state: item.state,
    reply: item.reply,
    detail: item.detail,
    commandId: item.command_id === null ? null : String(item.command_id),
    createdAt: iso(item.created_at) as string,
    sentAt: iso(item.sent_at),
    doneAt: iso(item.done_at),
  };
}
