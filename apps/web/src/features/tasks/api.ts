// /api/task/* as the web uses it (shapes mirror apps/server/src/modules/tasks/presenter.ts).
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import type { OilOutcomeView } from '../deviceTypes/OilOutcome.tsx';

export type TaskItemState = 'pending' | 'sent' | 'success' | 'failed' | 'timeout' | 'cancelled';

export interface TaskView {
  id: string;
  kind: string;
  title: string;
  area: 'main' | 'factory';
  creatorName: string;
  createdAt: string;
  expiresAt: string;
  cancelledAt: string | null;
  total: number;
  counts: Record<TaskItemState | 'total', number>;
  done: number;
  finished: boolean;
}

export interface TaskItemView {
  id: string;
  terminalID: string;
  state: TaskItemState;
  reply: string | null;
  detail: string;
  sentAt: string | null;
  doneAt: string | null;
  /** The oil / electricity control reading of the reply (spec §4), for RELAY commands. */
  oil?: OilOutcomeView | null;
}

export const findTasks = (body: {
  kind?: string;
  area?: 'main' | 'factory';
  terminalID?: string;
  pageNum: number;
  pageSize: number;
}) => api<Page<TaskView>>('/task/find', body);
export const getTask = (id: string) => api<TaskView>('/task/get', { id });
export const taskItems = (body: { id: string; state?: TaskItemState; pageNum: number; pageSize: number }) =>
  api<Page<TaskItemView>>('/task/items', body);
export const cancelTask = (id: string) => api<{ cancelled: number; task: TaskView }>('/task/cancel', { id });
