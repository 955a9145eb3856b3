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
