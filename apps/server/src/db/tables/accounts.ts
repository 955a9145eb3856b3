// Kysely row types for the accounts area's tables (migrations/0100_accounts.sql).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export type QuotaRecordKind = 'grant' | 'give' | 'revoke' | 'reclaim' | 'import' | 'set';

export interface ImportQuotaRecordsTable {
  id: Generated<string>;
  user_id: string;
  kind: QuotaRecordKind;
  /** Signed change of the user's remaining imports. */
  amount: number;
  /** Remaining imports after the change. */
  balance: number;
  counterpart_id: string | null;
  operator_id: string | null;
  note: Generated<string>;
  created_at: DefaultTimestamp;
}

export type OwnershipAction = 'import' | 'transfer' | 'sale' | 'reset';

export interface DeviceOwnershipLogTable {
  id: Generated<string>;
  device_id: string;
  action: OwnershipAction;
  from_user_id: string | null;
  to_user_id: string | null;
  operator_id: string | null;
  created_at: DefaultTimestamp;
}

export type ImportJobKind = 'devices' | 'users' | 'stockImei' | 'stockDevice' | 'cards' | 'nbIds';
export type ImportJobStatus = 'running' | 'done' | 'failed';

export interface ImportJobsTable {
  id: string;
  kind: ImportJobKind;
  user_id: string;
  status: Generated<ImportJobStatus>;
  total: number;
  processed: Generated<number>;
  result: Json<unknown> | null;
  error: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface ServiceTermsTable {
  code: number;
  /** null: lifelong */
  months: number | null;
}

export interface AccountsTables {
  import_quota_records: ImportQuotaRecordsTable;
  device_ownership_log: DeviceOwnershipLogTable;
  import_jobs: ImportJobsTable;
  service_terms: ServiceTermsTable;
}
