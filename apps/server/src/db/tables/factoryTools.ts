// Kysely row types for Factory II: transfer IP (0700_transfer_ip.sql) and OTA (0701_ota.sql).
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TransferIpAppliedTable {
  item_id: string;
  applied_at: DefaultTimestamp;
}

export interface OtaFirmwareTable {
  id: Generated<string>;
  model: number;
  version: string;
  notes: Generated<string>;
  file_name: string;
  size: number;
  sha256: string;
  data: Uint8Array;
  upgrade_type: Generated<number>;
  manufacturer: Generated<string>;
  created_by: Generated<string>;
  created_at: DefaultTimestamp;
}

export interface OtaItemsTable {
  item_id: string;
  task_id: string;
  firmware_id: string;
  device_id: string | null;
  token: string | null;
  packets_total: Generated<number>;
  packets_acked: Generated<number>;
  resent: Generated<number>;
  bytes_sent: Generated<string>;
  downloads: Generated<number>;
  updated_at: DefaultTimestamp;
}

export interface FactoryToolTables {
  transfer_ip_applied: TransferIpAppliedTable;
  ota_firmware: OtaFirmwareTable;
  ota_items: OtaItemsTable;
}
