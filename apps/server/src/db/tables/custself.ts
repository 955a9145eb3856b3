// Kysely row types of the customer self-service tables (migrations/0840_customer_self.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface DriversTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  phone: Generated<string>;
  licence: Generated<string>;
  ic_card: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface DriverLogTable {
  id: Generated<string>;
  device_id: string;
  time: Timestamp;
  action: 'in' | 'out';
  driver_id: string | null;
  name: Generated<string>;
  ic_card: Generated<string>;
  source: Generated<'card' | 'manual'>;
}

export interface BrandsTable {
  id: Generated<string>;
  key: string;
  host: Generated<string>;
  name: string;
  title: Generated<string>;
  logo: Generated<string>;
  primary_color: Generated<string>;
  header_color: Generated<string>;
  app_url: Generated<string>;
  default_lang: Generated<string>;
  default_map: Generated<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CustselfTables {
  drivers: DriversTable;
  driver_log: DriverLogTable;
  brands: BrandsTable;
}
