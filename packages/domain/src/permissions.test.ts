import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  type Environment,
  FACTORY_PERMISSIONS,
  hasPermission,
  MAIN_PERMISSIONS,
  permissionsFor,
} from './permissions.ts';
import { ROLE_NAMES, ROLES } from './roles.ts';

const ENVIRONMENTS: readonly Environment[] = ['live', 'test', 'local'];
const PERMISSIONS: readonly string[] = [...MAIN_PERMISSIONS, ...FACTORY_PERMISSIONS];
const isPermission = (value: string) => PERMISSIONS.includes(value);

const holds = (role: number, env: 'live' | 'test' | 'local', permission: string) =>
  hasPermission(permissionsFor(role, env), [permission]);

describe('permission strings', () => {
  it('carry a main: or factory: prefix and are unique', () => {
    expect(MAIN_PERMISSIONS.every((p) => p.startsWith('main:'))).toBe(true);
    expect(FACTORY_PERMISSIONS.every((p) => p.startsWith('factory:'))).toBe(true);
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
    expect(isPermission('main:monitor')).toBe(true);
    expect(isPermission('main:nothing')).toBe(false);
  });

  it('include the names the spec gives', () => {
    for (const p of [
      'main:monitor',
      'main:stat',
      'main:devices',
      'main:devices_management',
      'main:fence',
      'main:command',
      'main:alarms',
      'main:track',
      'main:taiya',
      'main:system_config',
    ]) {
      expect(isPermission(p)).toBe(true);
    }
  });

  it('every role grants only known permissions (or admin *:*:*)', () => {
    for (const env of ENVIRONMENTS) {
      for (const name of ROLE_NAMES) {
        for (const p of permissionsFor(name, env)) expect(p === ALL_PERMISSIONS || isPermission(p)).toBe(true);
      }
    }
  });
});

describe('permissionsFor', () => {
  it('admin holds *:*:* in every environment', () => {
    for (const env of ENVIRONMENTS) expect(permissionsFor(ROLES.admin, env)).toEqual(['*:*:*']);
  });

  it('superAgent holds nothing', () => {
    for (const env of ENVIRONMENTS) expect(permissionsFor('superAgent', env)).toEqual([]);
  });

  it('unknown roles hold nothing', () => {
    expect(permissionsFor(9, 'live')).toEqual([]);
    expect(permissionsFor(99, 'test')).toEqual([]);
  });

  it('agent: initialise device (devices_reset) in the live environment only', () => {
    expect(holds(ROLES.agent, 'live', 'main:devices_reset')).toBe(true);
    expect(holds(ROLES.agent, 'test', 'main:devices_reset')).toBe(false);
    expect(holds(ROLES.agent, 'local', 'main:devices_reset')).toBe(false);
  });

  it("agent holds spec §6's capabilities", () => {
    for (const p of [
      'main:monitor',
      'main:devices',
      'main:devices_management',
      'main:user_info',
      'main:devices_bulk_info',
      'main:devices_bulk_transfer',
      'main:devices_bulk_expire',
      'main:devices_sim_import',
      'main:devices_sim_check',
      'main:devices_icon_type',
      'main:stat_mileage',
      'main:stat_stay',
      'main:stat_alarms',
      'main:stat_export',
      'main:alarms',
      'main:track',
      'main:command',
      'main:taiya',
      'main:fence',
      'main:agent_add',
      'main:agent_edit',
      'main:agent_username',
      'main:agent_transfer',
      'main:agent_reset_password',
      'main:agent_delete',
      'main:device_reset_password',
      'main:device_edit',
      'main:device_transfer',
      'main:device_username',
      'main:data_import',
    ]) {
      expect(holds(ROLES.agent, 'test', p), p).toBe(true);
    }
    expect(holds(ROLES.agent, 'live', 'main:system_config')).toBe(false);
  });

  it('superUser: no agent add/delete, no device transfer; bulk info yes', () => {
    expect(holds(ROLES.superUser, 'live', 'main:agent_edit')).toBe(true);
    expect(holds(ROLES.superUser, 'live', 'main:agent_reset_password')).toBe(true);
    expect(holds(ROLES.superUser, 'live', 'main:devices_bulk_info')).toBe(true);
    expect(holds(ROLES.superUser, 'live', 'main:agent_add')).toBe(false);
    expect(holds(ROLES.superUser, 'live', 'main:agent_delete')).toBe(false);
    expect(holds(ROLES.superUser, 'live', 'main:device_transfer')).toBe(false);
  });

  it('user: monitor, stats, alarms, track, fence, command, tire, agent edit, device edit — and no devices menu', () => {
    const user = permissionsFor(ROLES.user, 'live');
    for (const p of ['main:monitor', 'main:stat', 'main:alarms', 'main:track', 'main:fence', 'main:command']) {
      expect(user).toContain(p);
    }
    expect(user).toContain('main:taiya');
    expect(user).toContain('main:agent_edit');
    expect(user).toContain('main:device_edit');
    expect(user).not.toContain('main:devices');
    expect(user).not.toContain('main:device_reset_password');
  });

  it('test: serial results, transfer IP and test config in the test environment only', () => {
    for (const p of ['factory:serial_result', 'factory:transfer_ip', 'factory:test_config']) {
      expect(holds(ROLES.test, 'test', p)).toBe(true);
      expect(holds(ROLES.test, 'live', p)).toBe(false);
      expect(holds(ROLES.test, 'local', p)).toBe(false);
    }
    expect(holds(ROLES.test, 'live', 'factory:qc')).toBe(true);
    expect(holds(ROLES.test, 'live', 'main:monitor')).toBe(false);
  });

  it('factory roles hold what the role table lists', () => {
    expect(permissionsFor('testSearch', 'live')).toEqual(['factory:transfer_ip_result']);
    expect(permissionsFor('wanweiTest', 'live')).toEqual([
      'factory:transfer_ip_result',
      'factory:agps',
      'factory:log_device',
    ]);
    expect(permissionsFor('log', 'live')).toEqual(['factory:log_device', 'factory:log_system']);
    expect(permissionsFor('otaLookPremissionUser', 'live')).toEqual(['factory:ota_user']);
    expect(permissionsFor('originLogSearch', 'live')).toEqual(['factory:log_device']);
    expect(permissionsFor('configPlatformUser', 'live')).toEqual(['factory:config_platform']);
    expect(permissionsFor('testStockUser', 'live')).toHaveLength(6);
    expect(permissionsFor('testTransferIpUser', 'live')).toEqual([
      'factory:transfer_ip',
      'factory:transfer_ip_result',
      'factory:transfer_ip_results',
    ]);
  });
});

describe('hasPermission', () => {
  it('is true for *:*:* or any one listed permission', () => {
    expect(hasPermission(['*:*:*'], ['main:anything'])).toBe(true);
    expect(hasPermission(['main:track'], ['main:fence', 'main:track'])).toBe(true);
    expect(hasPermission(['main:track'], ['main:fence'])).toBe(false);
    expect(hasPermission([], ['main:fence'])).toBe(false);
    expect(hasPermission(null, ['main:fence'])).toBe(false);
  });

  it('matches exactly: no prefix or wildcard tricks', () => {
    expect(hasPermission(['main:stat'], ['main:stat_mileage'])).toBe(false);
    expect(hasPermission(['main:*'], ['main:stat'])).toBe(false);
  });

  it('throws when no permission list is given', () => {
    expect(() => hasPermission(['*:*:*'], [])).toThrow(TypeError);
    expect(() => hasPermission(['*:*:*'], undefined as never)).toThrow(/non-empty list/);
  });
});
