// Kysely row types for tasks (migrations/0600_tasks.sql) and the factory logs (0601_logs.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export type TaskItemState = 'pending' | 'sent' | 'success' | 'failed' | 'timeout' | 'cancelled';
export type TaskArea = 'main' | 'factory';

export interface TasksTable {
  id: Generated<string>;
  kind: string;
  title: Generated<string>;
  params: Json<Record<string, unknown>>;
  created_by: string | null;
  creator_name: Generated<string>;
  creator_path: Generated<string>;
  area: ColumnType<TaskArea, TaskArea | undefined, TaskArea>;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  cancelled_at: Timestamp | null;
  total: Generated<number>;
}

export interface TaskItemsTable {
  id: Generated<string>;
  task_id: string;
  device_id: string | null;
  terminal_id: string;
  state: ColumnType<TaskItemState, TaskItemState | undefined, TaskItemState>;
  command_id: string | null;
  reply: string | null;
  detail: Generated<string>;
  created_at: DefaultTimestamp;
  sent_at: Timestamp | null;
  done_at: Timestamp | null;
}

export interface FrameCaptureTable {
  terminal_id: string;
  until: Timestamp;
  created_by: string | null;
  created_at: DefaultTimestamp;
}

export interface FrameLogTable {
  id: Generated<string>;
  time: DefaultTimestamp;
  terminal_id: string;
  protocol: string;
  direction: 'in' | 'out';
  hex: string;
  decoded: Json<unknown> | null;
  remote: Generated<string>;
}

export interface SystemLogTable {
  id: Generated<string>;
  time: DefaultTimestamp;
  level: string;
  message: string;
  detail: Generated<string>;
}

export interface LogRetentionTable {
  kind: string;
  days: number;
  updated_by: string | null;
  updated_at: DefaultTimestamp;
}

export interface FactoryLogTables {
  tasks: TasksTable;
  task_items: TaskItemsTable;
  frame_capture: FrameCaptureTable;
  frame_log: FrameLogTable;
  system_log: SystemLogTable;
  log_retention: LogRetentionTable;
}
