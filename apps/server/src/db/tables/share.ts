// Kysely row types of share links (migrations/1150_share_links.sql) and maintenance (1160_maintenance.sql).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ShareLinksTable {
  id: Generated<string>;
  device_id: string;
  token_hash: string;
  owner_id: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_by_name: string | null;
  last_viewed_at: Timestamp | null;
}

export interface ShareTables {
  share_links: ShareLinksTable;
}

export interface MaintenanceMetersTable {
  device_id: string;
  odometer_offset_km: Generated<number>;
  engine_hours_offset: Generated<number>;
  updated_at: DefaultTimestamp;
  updated_by_name: Generated<string>;
}

export interface MaintenanceItemsTable {
  id: Generated<string>;
  device_id: string;
  name: string;
  kind: Generated<string>;
  due_by: 'km' | 'hours' | 'date';
  due_km: number | null;
  due_hours: number | null;
  /** 'YYYY-MM-DD' (read as text, see maintenance/store.ts) */
  due_date: ColumnType<string | null, string | null, string | null>;
  remind_before: Generated<number>;
  interval_km: number | null;
  interval_hours: number | null;
  interval_months: number | null;
  note: Generated<string>;
  notified_at: Timestamp | null;
  completed_at: Timestamp | null;
  last_done_at: Timestamp | null;
  created_by_name: string;
  created_at: DefaultTimestamp;
}

export interface MaintenanceTables {
  maintenance_meters: MaintenanceMetersTable;
  maintenance_items: MaintenanceItemsTable;
}
