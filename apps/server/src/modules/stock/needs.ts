// Which factory permission each production endpoint needs (spec §6), typed against the domain's list.
import type { Permission } from '@carhere/domain';

export const FACTORY_NEEDS = {
  stockView: ['factory:stock', 'factory:stock_in', 'factory:stock_unused', 'factory:stock_out'],
  stockImportImei: ['factory:stock_import_imei'],
  stockImportDevice: ['factory:stock_import_device', 'factory:stock_in'],
  stockJobs: ['factory:stock_import_imei', 'factory:stock_import_device', 'factory:stock_in'],
  stockOut: ['factory:stock_out'],
  factoryChecksView: ['main:system_config', 'factory:stock', 'factory:stock_import_device'],
  factoryChecksSet: ['main:system_config'],
  cardSearch: ['factory:card_search'],
  cardClear: ['factory:card_clear'],
  /** Card numbers by IMEI: the factory's card search, or a customer's SIM check (hierarchy-limited). */
  cardNumbers: ['factory:card_search', 'main:devices_sim_check'],
  qc: ['factory:qc'],
  serialResults: ['factory:serial_result'],
  /** Uploading results by hand (the v1/v2 screens) or by API key: serial results or QC. */
  serialUpload: ['factory:serial_result', 'factory:qc'],
  testConfig: ['factory:test_config'],
  testConfigView: ['factory:test_config', 'factory:serial_result', 'factory:qc'],
  deviceIccidUpdate: ['main:devices_sim_import'],
  deviceIccidExport: ['main:devices_sim_check'],
} as const satisfies Record<string, readonly Permission[]>;

export const factoryNeeds = (key: keyof typeof FACTORY_NEEDS): string[] => [...FACTORY_NEEDS[key]];
