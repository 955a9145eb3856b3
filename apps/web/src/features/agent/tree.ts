// The account tree from flat list rows (parents before children, linked by user_id), for antd's Tree.
import { canAddSubUser } from '@carhere/domain';
import type { AccountRow } from './api.ts';

export interface AccountNode {
  key: string;
  title: string;
  row: AccountRow;
  children: AccountNode[];
}

/**
 * Whether an account can have accounts below it (admin, agent, superAgent: the domain's rule the server
 * applies), so the screen offers add and import on it. An end user cannot.
 */
export function holdsAccounts(role: number | null | undefined): boolean {
  return canAddSubUser(role).ok;
}

export function accountLabel(row: Pick<AccountRow, 'username' | 'nickname'>): string {
  return row.nickname ? `${row.nickname} (${row.username})` : row.username;
}

/** Nodes under the given root id; rows whose parent is not in the list hang under the root. */
export function buildTree(rows: AccountRow[], rootId: string): AccountNode[] {
  const nodes = new Map<string, AccountNode>();
  for (const row of rows) nodes.set(row.id, { key: row.id, title: accountLabel(row), row, children: [] });
  const top: AccountNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.row.id === rootId ? undefined : nodes.get(node.row.user_id);
    if (parent) parent.children.push(node);
    else top.push(node);
  }
  return top;
}
