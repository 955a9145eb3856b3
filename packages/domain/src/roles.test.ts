import { describe, expect, it } from 'vitest';
import {
  CHINESE_ONLY_ROLES,
  forcesChineseInterface,
  isAdmin,
  isAgent,
  isRoleId,
  isRoleName,
  ROLE_NAMES,
  ROLES,
  type RoleId,
  roleName,
  roleRootArea,
  toRoleId,
} from './roles.ts';

const ROLE_IDS = Object.values(ROLES) as RoleId[];

describe('roles', () => {
  it('numbers the 14 roles as spec §3 does', () => {
    expect(ROLES).toEqual({
      admin: 1,
      agent: 2,
      user: 3,
      superUser: 4,
      test: 5,
      testSearch: 6,
      wanweiTest: 7,
      log: 8,
      otaLookPremissionUser: 11,
      originLogSearch: 12,
      superAgent: 13,
      configPlatformUser: 14,
      testStockUser: 15,
      testTransferIpUser: 16,
    });
    expect(ROLE_NAMES).toHaveLength(14);
    expect(new Set(ROLE_IDS).size).toBe(14);
  });

  it('converts between names and numbers', () => {
    for (const name of ROLE_NAMES) {
      expect(roleName(ROLES[name])).toBe(name);
      expect(toRoleId(name)).toBe(ROLES[name]);
      expect(toRoleId(ROLES[name])).toBe(ROLES[name]);
    }
    expect(roleName(9)).toBeUndefined();
    expect(roleName(10)).toBeUndefined();
    expect(roleName(null)).toBeUndefined();
    expect(toRoleId('root')).toBeUndefined();
    expect(toRoleId(0)).toBeUndefined();
    expect(isRoleId(16)).toBe(true);
    expect(isRoleId(17)).toBe(false);
    expect(isRoleId('1')).toBe(false);
    expect(isRoleName('superAgent')).toBe(true);
    expect(isRoleName('toString')).toBe(false);
  });

  it('isAdmin is true for admin and for a missing role only', () => {
    expect(isAdmin(1)).toBe(true);
    expect(isAdmin(undefined)).toBe(true);
    expect(isAdmin(null)).toBe(true);
    for (const id of ROLE_IDS.filter((id) => id !== 1)) expect(isAdmin(id)).toBe(false);
    expect(isAdmin(0)).toBe(false);
  });

  it('isAgent covers agent and superAgent only', () => {
    expect(ROLE_IDS.filter((id) => isAgent(id)).sort((a, b) => a - b)).toEqual([2, 13]);
    expect(isAgent(undefined)).toBe(false);
  });

  it('test-type roles force the Chinese interface', () => {
    expect(CHINESE_ONLY_ROLES).toEqual([7, 5, 6]);
    expect(ROLE_IDS.filter(forcesChineseInterface).sort((a, b) => a - b)).toEqual([5, 6, 7]);
    expect(forcesChineseInterface(undefined)).toBe(false);
  });

  it('root area: customer roles main, factory roles factory', () => {
    const main = ROLE_IDS.filter((id) => roleRootArea(id) === 'main').sort((a, b) => a - b);
    expect(main).toEqual([1, 2, 3, 4, 13]);
    expect(roleRootArea(undefined)).toBe('main');
    expect(roleRootArea(ROLES.testStockUser)).toBe('factory');
  });
});
