// Kysely row types of the recordings table (migrations/0950_recordings.sql).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface RecordingsTable {
  id: Generated<string>;
  device_id: string;
  terminal_id: string;
  media_id: string | number;
  media_type: number;
  format: number;
  event: number;
  channel: number;
  size: number;
  duration_ms: number | null;
  command_id: string | null;
  lat: number | null;
  lon: number | null;
  data: Buffer | Uint8Array;
  received_at: DefaultTimestamp;
}

export interface RecordingTables {
  recordings: RecordingsTable;
}
