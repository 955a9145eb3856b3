// Kysely row types for the web features' tables (migrations/0300_web.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export type FenceShapeColumn = 'circle' | 'rectangle' | 'polygon';
export type FenceAlarmTypeColumn = 'in' | 'out' | 'inOut';
export type FenceStateColumn = 'opened' | 'closed';

export interface FencesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  shape: FenceShapeColumn;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  min_lat: number | null;
  min_lon: number | null;
  max_lat: number | null;
  max_lon: number | null;
  /** polygon vertices [[lat, lon], …] (0820_customer_map.sql) */
  points: ColumnType<[number, number][] | null, string | null | undefined, string | null>;
  alarm_type: FenceAlarmTypeColumn;
  state: ColumnType<FenceStateColumn, FenceStateColumn | undefined, FenceStateColumn>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface FenceDevicesTable {
  fence_id: string;
  device_id: string;
  inside: boolean | null;
  changed_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface FenceAlarmsTable {
  alarm_id: string;
  fence_id: string;
  fence_name: string;
}

export interface GeocodeCacheTable {
  kind: 'address' | 'suggestion';
  provider: string;
  lang: string;
  cache_key: string;
  value: Json<unknown>;
  created_at: DefaultTimestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_by: string | null;
  created_at: DefaultTimestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface WebTables {
  fences: FencesTable;
  fence_devices: FenceDevicesTable;
  fence_alarms: FenceAlarmsTable;
  geocode_cache: GeocodeCacheTable;
  api_keys: ApiKeysTable;
}
