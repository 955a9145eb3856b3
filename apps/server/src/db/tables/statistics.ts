// Kysely row types for the statistics tables (migrations/0500_statistics.sql, 0510_stat_daily_row_json.sql,
// 1300_stat_daily_running.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface StatDailyTable {
  device_id: string;
  /** 'YYYY-MM-DD' (read as text, see stat/daily.ts) */
  day: ColumnType<string, string, string>;
  mileage: Generated<number>;
  mileage_source: Generated<string>;
  run_seconds: Generated<number>;
  stop_count: Generated<number>;
  stop_seconds: Generated<number>;
  engine_seconds: Generated<number>;
  idle_seconds: Generated<number>;
  max_speed: Generated<number>;
  overspeed_count: Generated<number>;
  alarm_count: Generated<number>;
  alarms: Json<Record<string, number>>;
  fix_count: Generated<number>;
  computed_at: DefaultTimestamp;
  /** /stat/find's text of the row after the device's name (migrations/0510_stat_daily_row_json.sql) */
  row_json: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The running state of a device-day (packages/domain DayState; migrations/1300_stat_daily_running.sql). */
export interface StatRunningTable {
  device_id: string;
  day: ColumnType<string, string, string>;
  state: Json<Record<string, unknown>>;
}

export interface StatDirtyTable {
  device_id: string;
  from_time: Timestamp;
  to_time: Timestamp;
  marked_at: DefaultTimestamp;
}

export interface JobProgressTable {
  job_id: string;
  name: string;
  progress: Generated<number>;
  detail: Json<Record<string, unknown>>;
  updated_at: DefaultTimestamp;
}

export interface StatExportsTable {
  id: Generated<string>;
  job_id: string | null;
  user_id: string;
  kind: string;
  params: Json<Record<string, unknown>>;
  state: Generated<string>;
  rows: Generated<number>;
  file: string | null;
  error: string | null;
  created_at: DefaultTimestamp;
  finished_at: Timestamp | null;
}

export interface StatisticsTables {
  stat_daily: StatDailyTable;
  stat_dirty: StatDirtyTable;
  stat_running: StatRunningTable;
  stat_exports: StatExportsTable;
  job_progress: JobProgressTable;
}
