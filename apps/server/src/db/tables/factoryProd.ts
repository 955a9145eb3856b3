// Kysely row types for the factory production tables (migrations/0620_factory_prod.sql).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface StockRecordsTable {
  imei: string;
  model: Generated<string>;
  batch: Generated<string>;
  iccid: Generated<string>;
  preset: Generated<boolean>;
  in_at: Date | null;
  out_at: Date | null;
  agent_id: string | null;
  created_at: DefaultTimestamp;
}

export type CardState = 'inactive' | 'active' | 'suspended' | 'cancelled';

export interface SimCardsTable {
  iccid: string;
  imsi: Generated<string>;
  msisdn: Generated<string>;
  operator: Generated<string>;
  plan: Generated<string>;
  /** 'YYYY-MM-DD' */
  activated_on: ColumnType<string | null, string | null | undefined, string | null>;
  expires_on: ColumnType<string | null, string | null | undefined, string | null>;
  state: Generated<CardState>;
  imei: string | null;
  bound_at: Date | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface QcCriteriaTable {
  model: string;
  min_satellites: number | null;
  min_cn0: number | null;
  min_gsm: number | null;
  firmware: string | null;
  updated_at: DefaultTimestamp;
}

export type QcKind = 'v1' | 'v2' | 'gps';

export interface QcResultsTable {
  id: Generated<string>;
  kind: QcKind;
  imei: string;
  model: Generated<string>;
  batch: Generated<string>;
  station: Generated<string>;
  firmware: string | null;
  gsm: number | null;
  satellites: number | null;
  cn0: number | null;
  ttff: number | null;
  station_pass: boolean | null;
  pass: boolean;
  failures: ColumnType<string[], string | string[] | undefined, string | string[]>;
  tested_at: DefaultTimestamp;
  created_at: DefaultTimestamp;
}

export interface FactoryProdTables {
  stock_records: StockRecordsTable;
  sim_cards: SimCardsTable;
  qc_criteria: QcCriteriaTable;
  qc_results: QcResultsTable;
}
