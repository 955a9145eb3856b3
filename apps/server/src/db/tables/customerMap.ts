// Kysely row types for the customer map features (migrations/0820_customer_map.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface RiskPointsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  kind: ColumnType<string, string | undefined, string>;
  lat: number;
  lon: number;
  radius: number;
  note: ColumnType<string, string | undefined, string>;
  dwell_minutes: ColumnType<number, number | undefined, number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface RiskVisitsTable {
  id: Generated<string>;
  risk_point_id: string;
  device_id: string;
  entered_at: Timestamp;
  last_at: Timestamp;
  left_at: Timestamp | null;
  alarm_id: string | null;
}

export interface BusStop {
  name: string;
  lat: number;
  lon: number;
  radius: number;
}

export interface BusRoutesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  stops: Json<BusStop[]>;
  polyline: Json<[number, number][]>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BusRouteDevicesTable {
  route_id: string;
  device_id: string;
}

export interface PermissionGrantsTable {
  user_id: string;
  permission: string;
  granted_by: string | null;
  granted_at: DefaultTimestamp;
}

export interface CustomerMapTables {
  risk_points: RiskPointsTable;
  risk_visits: RiskVisitsTable;
  bus_routes: BusRoutesTable;
  bus_route_devices: BusRouteDevicesTable;
  permission_grants: PermissionGrantsTable;
}
