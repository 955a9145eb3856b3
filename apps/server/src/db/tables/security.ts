// Kysely row types for login security (migrations/0420_login_security.sql).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface LoginThrottleTable {
  account: string;
  address: string;
  failures: Generated<number>;
  last_failure_at: DefaultTimestamp;
  locked_until: Timestamp | null;
}

export type LockScope = 'address' | 'account' | 'sprayer';

export interface LoginLocksTable {
  id: Generated<string>;
  account: string;
  address: string;
  scope: LockScope;
  failures: number;
  locked_until: Timestamp;
  created_at: DefaultTimestamp;
}

export interface LoginTicketsTable {
  id: string;
  user_id: string;
  remember: Generated<boolean>;
  attempts: Generated<number>;
  expires_at: Timestamp;
}

export interface RequestCountersTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

/** One-time two-factor recovery codes (migrations/0441_totp_recovery.sql). */
export interface TotpRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface SecurityTables {
  totp_recovery_codes: TotpRecoveryCodesTable;
  request_counters: RequestCountersTable;
  login_throttle: LoginThrottleTable;
  login_locks: LoginLocksTable;
  login_tickets: LoginTicketsTable;
}
