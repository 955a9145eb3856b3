// Kysely row types for the gateway's tables (migrations/0200_gateway.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface PositionsTable {
  device_id: string;
  time: Timestamp;
  lat: number;
  lon: number;
  altitude: Generated<number>;
  speed: Generated<number>;
  course: Generated<number>;
  valid: boolean;
  satellites: number | null;
  location_type: string | null;
  acc: boolean | null;
  mileage: number | null;
}

export type AlarmSource = 'device' | 'derived' | 'manual';

export interface AlarmsTable {
  id: Generated<string>;
  device_id: string;
  type: number;
  time: Timestamp;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  source: ColumnType<AlarmSource, AlarmSource | undefined, AlarmSource>;
  name: Generated<string>;
  read: Generated<boolean>;
  read_at: Timestamp | null;
  read_by: string | null;
  address: string | null;
  created_at: DefaultTimestamp;
}

export type CommandMode = 'live' | 'offline' | 'manual';
export type CommandStatus = 'pending' | 'sent' | 'answered' | 'timeout' | 'failed' | 'expired' | 'cancelled';

export interface CommandsTable {
  id: Generated<string>;
  device_id: string;
  terminal_id: string;
  protocol: Generated<number>;
  content: string;
  mode: CommandMode;
  status: CommandStatus;
  result: number | null;
  reply: string | null;
  sender_id: string | null;
  sender_name: Generated<string>;
  attempts: Generated<number>;
  created_at: DefaultTimestamp;
  sent_at: Timestamp | null;
  answered_at: Timestamp | null;
  expires_at: Timestamp | null;
  /** NB-IoT: the platform's id of this command (its status notifications name it). */
  platform_command_id: Generated<string | null>;
  /** NB-IoT JT/T 808: the serial of the frame sent (the device's general response names it). */
  reply_serial: Generated<number | null>;
}

export interface CommandLogTable {
  id: Generated<string>;
  command_id: string;
  time: DefaultTimestamp;
  status: string;
  detail: Generated<string>;
}

export type DeviceLogEvent =
  | 'login'
  | 'register'
  | 'authFailed'
  | 'unauthenticated'
  | 'badChecksum'
  | 'otherProtocol'
  | 'logout'
  | 'refused'
  | 'garbage'
  | 'idle'
  | 'replaced'
  | 'invalidPosition'
  | 'push'
  | 'recording';

export interface DeviceLogTable {
  id: Generated<string>;
  time: DefaultTimestamp;
  terminal_id: string;
  device_id: string | null;
  protocol: string;
  event: DeviceLogEvent;
  remote: Generated<string>;
  detail: Generated<string>;
}

export interface CommandOrdersTable {
  device_id: string;
  items: Json<Record<string, unknown>>;
  updated_by: string | null;
  updated_at: DefaultTimestamp;
}

export interface TrackSegmentsTable {
  device_id: string;
  /** UTC day, 'YYYY-MM-DD' */
  day: ColumnType<string, string, string>;
  version: Generated<number>;
  data: Json<unknown> | null;
}

/** Gateway settings per device model (0430_gateway_hardening.sql). */
export interface DeviceModelSettingsTable {
  device_type: number;
  accept_bad_checksums: Generated<boolean>;
  offline_alarm_minutes: number | null;
  updated_at: DefaultTimestamp;
}

export interface GatewayTables {
  device_model_settings: DeviceModelSettingsTable;
  positions: PositionsTable;
  alarms: AlarmsTable;
  commands: CommandsTable;
  command_log: CommandLogTable;
  device_log: DeviceLogTable;
  command_orders: CommandOrdersTable;
  track_segments: TrackSegmentsTable;
}

declare module './core.ts' {
  interface DeviceStateTable {
    /** The gateway session that last brought the device online (0200_gateway.sql). */
    session_key: string | null;
    /** The last_seen of the outage the offline alarm was raised for (0430_gateway_hardening.sql). */
    offline_alarm_for: Timestamp | null;
  }
  interface DevicesTable {
    /** JT/T 808 authentication code issued in 0x8100 (0430_gateway_hardening.sql). */
    jt808_auth_code: string | null;
  }
}
