import { type RoleId, type RoleName, roleName, toRoleId } from './roles.ts';

/** Deployment environment; each carries its own permission lists (spec §6). */
export type Environment = 'live' | 'test' | 'local';

/** admin's permission: everything. */
export const ALL_PERMISSIONS = '*:*:*';

/**
 * Customer-site permissions (prefix main:). The spec names main:monitor, main:stat, main:stat_*,
 * main:devices, main:devices_management, main:fence, main:command, main:alarms, main:track,
 * main:taiya and main:system_config; the rest name the capabilities of spec §6's role table.
 */
export const MAIN_PERMISSIONS = [
  'main:monitor',
  'main:devices',
  'main:devices_management',
  'main:user_info',
  'main:devices_import',
  'main:devices_bulk_info',
  'main:devices_bulk_transfer',
  'main:devices_bulk_expire',
  'main:devices_bulk_type',
  'main:devices_bulk_host',
  'main:devices_bulk_zone',
  'main:devices_expire_type',
  'main:devices_sim_import',
  'main:devices_sim_check',
  'main:devices_icon_type',
  'main:devices_config',
  'main:devices_reset',
  'main:command_batch',
  'main:data_import',
  'main:device_edit',
  'main:device_transfer',
  'main:device_username',
  'main:device_reset_password',
  'main:stat',
  'main:stat_mileage',
  'main:stat_stay',
  'main:stat_alarms',
  'main:stat_pastdue',
  'main:stat_export',
  'main:alarms',
  'main:track',
  'main:command',
  'main:taiya',
  'main:fence',
  'main:risk_point',
  'main:check_car',
  'main:bus',
  'main:agent_add',
  'main:agent_edit',
  'main:agent_username',
  'main:agent_transfer',
  'main:agent_reset_password',
  'main:agent_delete',
  'main:agent_export',
  'main:agent_import_quota',
  'main:system_config',
] as const;

/** Factory back-office permissions (prefix factory:). */
export const FACTORY_PERMISSIONS = [
  'factory:qc',
  'factory:muti_cmd',
  'factory:cmd_send',
  'factory:log_device',
  'factory:log_system',
  'factory:log_cmd_task',
  'factory:log_device_state',
  'factory:gw005_test',
  'factory:card_search',
  'factory:card_clear',
  'factory:ota',
  'factory:ota_user',
  'factory:config_platform',
  'factory:agps',
  'factory:id_manager',
  'factory:subscribe',
  'factory:tape_download',
  'factory:serial_result',
  'factory:test_config',
  'factory:transfer_ip',
  'factory:transfer_ip_result',
  'factory:transfer_ip_results',
  'factory:stock',
  'factory:stock_import_device',
  'factory:stock_import_imei',
  'factory:stock_in',
  'factory:stock_unused',
  'factory:stock_out',
] as const;

export type MainPermission = (typeof MAIN_PERMISSIONS)[number];
export type FactoryPermission = (typeof FACTORY_PERMISSIONS)[number];
export type Permission = MainPermission | FactoryPermission;
export type PermissionGrant = Permission | typeof ALL_PERMISSIONS;

/** A role's permissions: those held everywhere plus those held only in some environments. */
interface RoleGrant {
  readonly always: readonly PermissionGrant[];
  readonly only?: Partial<Record<Environment, readonly Permission[]>>;
}

const USER: readonly Permission[] = [
  'main:monitor',
  'main:stat',
  'main:stat_mileage',
  'main:stat_stay',
  'main:stat_alarms',
  'main:alarms',
  'main:track',
  'main:fence',
  'main:command',
  'main:taiya',
  'main:agent_edit',
  'main:device_edit',
];

const SUPER_USER: readonly Permission[] = [
  ...USER,
  'main:devices',
  'main:devices_management',
  'main:user_info',
  'main:agent_reset_password',
  'main:device_reset_password',
  'main:device_username',
  'main:devices_bulk_info',
];

const AGENT: readonly Permission[] = [
  ...SUPER_USER,
  'main:devices_import',
  'main:devices_bulk_transfer',
  'main:devices_bulk_expire',
  'main:devices_sim_import',
  'main:devices_sim_check',
  'main:devices_icon_type',
  'main:stat_export',
  'main:agent_add',
  'main:agent_username',
  'main:agent_transfer',
  'main:agent_delete',
  'main:agent_import_quota',
  'main:device_transfer',
  'main:data_import',
];

const TEST: readonly Permission[] = [
  'factory:qc',
  'factory:muti_cmd',
  'factory:cmd_send',
  'factory:log_device',
  'factory:log_system',
  'factory:log_cmd_task',
  'factory:log_device_state',
  'factory:gw005_test',
  'factory:card_search',
  'factory:card_clear',
  'factory:ota',
  'factory:config_platform',
  'factory:agps',
  'factory:id_manager',
  'factory:subscribe',
  'factory:tape_download',
];

const TRANSFER_IP: readonly Permission[] = [
  'factory:transfer_ip',
  'factory:transfer_ip_result',
  'factory:transfer_ip_results',
];

/** Spec §6's role table. */
const ROLE_GRANTS: Record<RoleName, RoleGrant> = {
  admin: { always: [ALL_PERMISSIONS] },
  agent: { always: AGENT, only: { live: ['main:devices_reset'] } },
  superUser: { always: SUPER_USER },
  user: { always: USER },
  superAgent: { always: [] },
  test: { always: TEST, only: { test: ['factory:serial_result', 'factory:test_config', ...TRANSFER_IP] } },
  testSearch: { always: ['factory:transfer_ip_result'] },
  wanweiTest: { always: ['factory:transfer_ip_result', 'factory:agps', 'factory:log_device'] },
  log: { always: ['factory:log_device', 'factory:log_system'] },
  otaLookPremissionUser: { always: ['factory:ota_user'] },
  originLogSearch: { always: ['factory:log_device'] },
  configPlatformUser: { always: ['factory:config_platform'] },
  testStockUser: {
    always: [
      'factory:stock',
      'factory:stock_import_device',
      'factory:stock_import_imei',
      'factory:stock_in',
      'factory:stock_unused',
      'factory:stock_out',
    ],
  },
  testTransferIpUser: { always: TRANSFER_IP },
};

/** The permissions a role holds in an environment. Unknown roles hold nothing. */
export function permissionsFor(role: RoleId | RoleName | number, env: Environment): readonly PermissionGrant[] {
  const name = roleName(toRoleId(role));
  if (name === undefined) return [];
  const grant = ROLE_GRANTS[name];
  const extra = grant.only?.[env] ?? [];
  return extra.length === 0 ? grant.always : [...grant.always, ...extra];
}

/**
 * Element visibility by permission (spec §6): true when '*:*:*' or any listed permission is held.
 * Throws when no list is given, as the spec's permission directive does.
 */
export function hasPermission(held: readonly string[] | null | undefined, required: readonly string[]): boolean {
  if (!Array.isArray(required) || required.length === 0) {
    throw new TypeError('hasPermission needs a non-empty list of permissions, e.g. ["main:monitor"]');
  }
  if (!held || held.length === 0) return false;
  if (held.includes(ALL_PERMISSIONS)) return true;
  return required.some((permission) => held.includes(permission));
}

/**
 * Permissions an administrator may grant to one agent beyond its role's (spec §6: riskPoint, checkCar and bus are
 * the administrator's by default; an administrator can grant them to agents).
 */
export const GRANTABLE_PERMISSIONS = ['main:risk_point', 'main:check_car', 'main:bus'] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];
/** Roles that may receive grants: agent (2). */
export const GRANTEE_ROLES: readonly number[] = [2];

/** A role's permissions plus the grants it may hold (others ignored). */
export function withGrants(
  base: readonly PermissionGrant[],
  role: number,
  grants: readonly string[] | null | undefined,
): PermissionGrant[] {
  if (!grants || grants.length === 0 || !GRANTEE_ROLES.includes(role)) return [...base];
  const extra = grants.filter(
    (g): g is GrantablePermission =>
      (GRANTABLE_PERMISSIONS as readonly string[]).includes(g) && !base.includes(g as PermissionGrant),
  );
  return [...base, ...extra];
}
