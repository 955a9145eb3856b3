// The account tree from flat list rows (parents before children, linked by user_id), for antd's Tree.
import type { AccountRow } from './api.ts';

export interface AccountNode {
  key: string;
  title: string;
  row: AccountRow;
  children: AccountNode[];
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
