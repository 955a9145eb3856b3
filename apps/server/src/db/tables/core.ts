// Kysely row types for the core tables (migrations/0001_core.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string;
  nickname: Generated<string>;
  role: number;
  parent_id: string | null;
  path: Generated<string>;
  telephone: Generated<string>;
  email: Generated<string>;
  address: Generated<string>;
  mark: Generated<string>;
  provider_name: Generated<string>;
  provider_linkman: Generated<string>;
  provider_telephone: Generated<string>;
  lang: Generated<string>;
  time_zone: Generated<string>;
  expire_at: Timestamp | null;
  import_quota: Generated<number>;
  device_num: Generated<number>;
  sale_num: Generated<number>;
  password_changed_at: DefaultTimestamp;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** Set by someone else (reset, import, sale): changed at first sign-in (0420_login_security.sql). */
  must_change_password: Generated<boolean>;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  totp_last_step: Generated<string>;
  totp_pending_secret: string | null;
  /** My account (0840_customer_self.sql): default map type ('' = the site's default) and alarm sound. */
  map_type: Generated<string>;
  alarm_sound: Generated<boolean>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  remember: Generated<boolean>;
  ip: Generated<string>;
  user_agent: Generated<string>;
  /** Opened by "try it out" (POST /api/login/demo): read-only (migrations/0411_demo_sessions.sql). */
  demo: Generated<boolean>;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: DefaultTimestamp;
}

export interface DevicesTable {
  id: Generated<string>;
  terminal_id: string;
  user_id: string | null;
  nickname: Generated<string>;
  sim: Generated<string>;
  iccid: Generated<string>;
  car_number: Generated<string>;
  icon_type: Generated<number>;
  device_type: Generated<number>;
  protocol: Generated<number>;
  time_zone: Generated<number>;
  /** km/h above which the device overspeeds (0500_statistics.sql; default 120) */
  speed_limit: Generated<number>;
  host: Generated<string>;
  nb_device_id: string | null;
  picture: string | null;
  service_term: number | null;
  activated_at: Timestamp | null;
  platform_expire_at: Timestamp | null;
  user_expire_at: Timestamp | null;
  expire_manual: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The current driver (0840_customer_self.sql). */
  driver_name: Generated<string>;
  driver_phone: Generated<string>;
  driver_id: string | null;
}

export interface DeviceStateTable {
  device_id: string;
  online: Generated<boolean>;
  state_time: Timestamp | null;
  last_seen: Timestamp | null;
  pos_time: Timestamp | null;
  lat: number | null;
  lon: number | null;
  altitude: number | null;
  speed: number | null;
  course: number | null;
  valid: boolean | null;
  satellites: number | null;
  location_type: string | null;
  acc: boolean | null;
  battery: number | null;
  mileage: number | null;
  tyres: Json<unknown> | null;
  battery_pack: Json<unknown> | null;
  attributes: Json<Record<string, unknown>>;
}

export interface CoreTables {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  devices: DevicesTable;
  device_state: DeviceStateTable;
}
