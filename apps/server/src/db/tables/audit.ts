// Kysely row types for the audit log (migrations/0410_audit_log.sql, where each column is described).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** Before/after of one changed row (a user or a device). */
export interface AuditChange {
  kind: 'user' | 'device';
  id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: DefaultTimestamp;
  user_id: string | null;
  username: Generated<string>;
  role: number | null;
  ip: Generated<string>;
  operation: string;
  status: number;
  targets: Json<Record<string, string[]>>;
  target_keys: ColumnType<string[], string[] | undefined, string[]>;
  changes: Json<AuditChange[] | null> | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
