// Which permission each accounts-area endpoint needs (spec §6). Typed against the domain's permission list,
// so a misspelt permission does not compile. Hierarchy checks come on top of these, in every handler.
import type { Permission } from '@carhere/domain';

export const NEEDS = {
  /** The agent screens (route /index/agent needs agent add or edit). */
  accountsView: ['main:agent_add', 'main:agent_edit'],
  agentAdd: ['main:agent_add'],
  agentEdit: ['main:agent_edit'],
  agentUsername: ['main:agent_username'],
  agentTransfer: ['main:agent_transfer'],
  agentResetPassword: ['main:agent_reset_password'],
  agentDelete: ['main:agent_delete'],
  agentExport: ['main:agent_export', 'main:agent_add'],
  importQuota: ['main:agent_import_quota'],
  importQuotaView: ['main:agent_import_quota', 'main:devices_import'],
  /** Device lists are read by monitoring and by device management. */
  devicesView: ['main:monitor', 'main:devices', 'main:devices_management'],
  deviceEdit: ['main:device_edit'],
  devicesBulkInfo: ['main:devices_bulk_info'],
  devicesImport: ['main:devices_import'],
  deviceTransfer: ['main:device_transfer', 'main:devices_bulk_transfer'],
  devicesReset: ['main:devices_reset'],
  devicesExpire: ['main:devices_bulk_expire', 'main:devices_expire_type'],
  devicesIcon: ['main:devices_icon_type'],
  devicesZone: ['main:devices_bulk_zone'],
  devicesHost: ['main:devices_bulk_host'],
  devicesType: ['main:devices_bulk_type'],
  deviceAccountPassword: ['main:device_reset_password'],
  deviceAccountUsername: ['main:device_username'],
  systemConfig: ['main:system_config'],
} as const satisfies Record<string, readonly Permission[]>;

export const needs = (key: keyof typeof NEEDS): string[] => [...NEEDS[key]];
