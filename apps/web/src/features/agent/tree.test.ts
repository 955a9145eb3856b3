import { ROLES } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import type { AccountRow } from './api.ts';
import { buildTree, holdsAccounts } from './tree.ts';

const row = (id: string, parent: string, username = `u${id}`): AccountRow => ({
  id,
  user_id: parent,
  ancestors: '',
  username,
  nickname: '',
  role: 2,
  telephone: '',
  email: '',
  address: '',
  mark: '',
  providerName: '',
  providerLinkman: '',
  providerTelephone: '',
  expireAt: null,
  createdAt: '',
  deviceNum: 0,
  totalDeviceNum: 0,
  saleNum: 0,
  importQuota: 0,
  childCount: 0,
});

describe('buildTree', () => {
  it('nests rows under their parents with the root on top', () => {
    const tree = buildTree([row('5', '1'), row('6', '5'), row('7', '5'), row('8', '6')], '5');
    expect(tree.map((n) => n.key)).toEqual(['5']);
    expect(tree[0].children.map((n) => n.key)).toEqual(['6', '7']);
    expect(tree[0].children[0].children.map((n) => n.key)).toEqual(['8']);
  });

  it('keeps rows whose parent is missing at the top level', () => {
    const tree = buildTree([row('6', '5'), row('9', '3')], '1');
    expect(tree.map((n) => n.key)).toEqual(['6', '9']);
  });
});

describe('holdsAccounts', () => {
  it('offers sub-accounts under admin, agent and superAgent, not under end users', () => {
    expect(holdsAccounts(ROLES.admin)).toBe(true);
    expect(holdsAccounts(ROLES.agent)).toBe(true);
    expect(holdsAccounts(ROLES.superAgent)).toBe(true);
    expect(holdsAccounts(ROLES.user)).toBe(false);
    expect(holdsAccounts(ROLES.superUser)).toBe(false);
  });
});
