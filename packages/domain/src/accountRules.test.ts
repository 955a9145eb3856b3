import { describe, expect, it } from 'vitest';
import {
  belongsToGroup,
  canAddSubUser,
  canDeleteAccount,
  canDeleteFence,
  canMoveUnder,
  canSell,
  canTransferDevice,
  hasQuotaFor,
  isPlateAvailable,
  isSuperiorOf,
  isUsernameAvailable,
  parseAncestors,
  passwordsMatch,
} from './accountRules.ts';
import { ROLES, type RoleId } from './roles.ts';

const refused = (message: string) => ({ ok: false, message });

describe('hierarchy', () => {
  it('parses ancestors', () => {
    expect(parseAncestors('0,1,5')).toEqual([0, 1, 5]);
    expect(parseAncestors(' 0, 1 ,,x,5 ')).toEqual([0, 1, 5]);
    expect(parseAncestors([0, 1])).toEqual([0, 1]);
    expect(parseAncestors(null)).toEqual([]);
    expect(parseAncestors('')).toEqual([]);
  });

  it('superiors and subtrees', () => {
    const leaf = { id: 9, ancestors: '0,1,5' };
    expect(isSuperiorOf(5, leaf)).toBe(true);
    expect(isSuperiorOf(9, leaf)).toBe(false);
    expect(isSuperiorOf(51, leaf)).toBe(false);
  });

  it('group membership by id or ancestor', () => {
    expect(belongsToGroup({ id: 3, ancestors: '0,1' }, [3])).toBe(true);
    expect(belongsToGroup({ id: 3, ancestors: '0,1,77' }, [77])).toBe(true);
    expect(belongsToGroup({ id: 3, ancestors: '0,1' }, [77])).toBe(false);
  });
});

describe('account rules', () => {
  it('no transfer to yourself or to the current owner', () => {
    expect(canTransferDevice({ actorId: 1, targetUserId: 1, currentOwnerId: 2 })).toEqual(
      refused('account.transferToSelf'),
    );
    expect(canTransferDevice({ actorId: 1, targetUserId: 2, currentOwnerId: 2 })).toEqual(
      refused('account.transferToOwner'),
    );
    expect(canTransferDevice({ actorId: 1, targetUserId: 3, currentOwnerId: 2 })).toEqual({ ok: true });
    expect(canTransferDevice({ actorId: 1, targetUserId: 3, currentOwnerId: null }).ok).toBe(true);
  });

  it('no moving a superior under a subordinate (or itself)', () => {
    expect(canMoveUnder({ id: 5 }, { id: 9, ancestors: '0,1,5' })).toEqual(refused('account.moveUnderSubordinate'));
    expect(canMoveUnder({ id: 5 }, { id: 5, ancestors: '0,1' })).toEqual(refused('account.moveUnderSubordinate'));
    expect(canMoveUnder({ id: 5 }, { id: 8, ancestors: '0,1' })).toEqual({ ok: true });
    expect(canMoveUnder({ id: 5 }, { id: 8, ancestors: [0, 1, 50] }).ok).toBe(true);
  });

  it('no selling to oneself', () => {
    expect(canSell(4, 4)).toEqual(refused('account.sellToSelf'));
    expect(canSell(4, 5).ok).toBe(true);
  });

  it('unique, non-blank username', () => {
    expect(isUsernameAvailable('alice', ['bob', ' alice '])).toEqual(refused('account.usernameTaken'));
    expect(isUsernameAvailable(' carol ', ['bob', 'alice']).ok).toBe(true);
    expect(isUsernameAvailable('Alice', ['alice']).ok).toBe(true);
    expect(isUsernameAvailable('  ', [])).toEqual(refused('account.usernameInvalid'));
  });

  it('no deleting an account with sub-agents or devices', () => {
    expect(canDeleteAccount({ subAgentCount: 1, deviceCount: 0 })).toEqual(refused('account.hasSubAgents'));
    expect(canDeleteAccount({ subAgentCount: 0, deviceCount: 1 })).toEqual(refused('account.hasDevices'));
    expect(canDeleteAccount({ subAgentCount: 2, deviceCount: 3 })).toEqual(refused('account.hasSubAgents'));
    expect(canDeleteAccount({ subAgentCount: 0, deviceCount: 0 }).ok).toBe(true);
  });

  it('only agents (and admin) get sub-users', () => {
    const allowed = (Object.values(ROLES) as RoleId[]).filter((role) => canAddSubUser(role).ok).sort((a, b) => a - b);
    expect(allowed).toEqual([ROLES.admin, ROLES.agent, ROLES.superAgent]);
    expect(canAddSubUser(ROLES.user)).toEqual(refused('account.noSubUsers'));
    expect(canAddSubUser(undefined).ok).toBe(false);
  });

  it('password confirmation', () => {
    expect(passwordsMatch('a1', 'a1').ok).toBe(true);
    expect(passwordsMatch('a1', 'a2')).toEqual(refused('account.passwordMismatch'));
  });

  it('quota: enough imports left for the count, exactly enough included', () => {
    expect(hasQuotaFor(10, 10).ok).toBe(true);
    expect(hasQuotaFor(10, 0).ok).toBe(true);
    expect(hasQuotaFor(10, 11)).toEqual(refused('quota.importInsufficient'));
    expect(hasQuotaFor(0, 1).ok).toBe(false);
    expect(hasQuotaFor(10, -1).ok).toBe(false);
    expect(hasQuotaFor(10, 1.5).ok).toBe(false);
    expect(hasQuotaFor(Number.NaN, 1).ok).toBe(false);
  });

  it('a fence with devices cannot be deleted', () => {
    expect(canDeleteFence(1)).toEqual(refused('fence.hasDevices'));
    expect(canDeleteFence(0).ok).toBe(true);
  });

  it('a plate used by another device is refused, case-insensitively', () => {
    const others = [
      { terminalID: 'A', carNumber: '粤B12345' },
      { terminalID: 'B', carNumber: null },
    ];
    expect(isPlateAvailable('粤b12345', 'C', others)).toEqual(refused('device.plateConflict'));
    expect(isPlateAvailable('粤B12345', 'A', others).ok).toBe(true);
    expect(isPlateAvailable('粤B54321', 'C', others).ok).toBe(true);
    expect(isPlateAvailable('', 'C', others).ok).toBe(true);
  });
});
