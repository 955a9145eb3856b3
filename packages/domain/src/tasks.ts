// Tasks (shared/DESIGN.md: one way to do work for many devices): one state set for every per-device item,
// and how a command's status and spec result code (§4: 1 success, 2 timeout, 3 error) map onto it.
import { COMMAND_RESULT } from './commands.ts';

export const TASK_ITEM_STATES = ['pending', 'sent', 'success', 'failed', 'timeout', 'cancelled'] as const;
export type TaskItemState = (typeof TASK_ITEM_STATES)[number];

/** States an item can still leave (it may yet reach its device). */
export const OPEN_TASK_ITEM_STATES: readonly TaskItemState[] = ['pending', 'sent'];

/**
 * One row of the command-status → item-state table: a command in `status` (and, for an answered command, with
 * `result`) puts its task item in `state`. An answered command without a result code counts as success (the
 * device answered); an offline command that expired unanswered counts as a timeout.
 */
export interface CommandStateRule {
  readonly status: string;
  readonly result?: number | null;
  readonly state: TaskItemState;
}

export const COMMAND_TO_TASK_STATE: readonly CommandStateRule[] = [
  { status: 'pending', state: 'pending' },
  { status: 'sent', state: 'sent' },
  { status: 'answered', result: COMMAND_RESULT.success, state: 'success' },
  { status: 'answered', result: COMMAND_RESULT.timeout, state: 'timeout' },
  { status: 'answered', result: COMMAND_RESULT.error, state: 'failed' },
  { status: 'answered', result: null, state: 'success' },
  { status: 'timeout', state: 'timeout' },
  { status: 'expired', state: 'timeout' },
  { status: 'failed', state: 'failed' },
  { status: 'cancelled', state: 'cancelled' },
];

export type TaskCounts = Record<TaskItemState, number> & { total: number };

/** Counts per state and the share of items finished (0..1). */
export function taskProgress(counts: Partial<Record<TaskItemState, number>>): {
  counts: TaskCounts;
  done: number;
  finished: boolean;
} {
  const full = Object.fromEntries(TASK_ITEM_STATES.map((s) => [s, counts[s] ?? 0])) as Record<TaskItemState, number>;
  const total = TASK_ITEM_STATES.reduce((n, s) => n + full[s], 0);
  const open = full.pending + full.sent;
  return { counts: { ...full, total }, done: total === 0 ? 1 : (total - open) / total, finished: open === 0 };
}
