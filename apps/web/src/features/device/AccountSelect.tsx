// Picks an account of the caller's subtree (owner filter, transfer and sale targets), searchable by name.
import { useQuery } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useAuth } from '../../auth/store.ts';
import { type AccountRow, findSubtree } from '../agent/api.ts';
import { type AccountNode, buildTree } from '../agent/tree.ts';

interface TreeOption {
  value: string;
  title: string;
  disabled?: boolean;
  children: TreeOption[];
}

function toOptions(nodes: AccountNode[], allow: (row: AccountRow) => boolean): TreeOption[] {
  return nodes.map((n) => ({
    value: n.key,
    title: n.title,
    disabled: !allow(n.row),
    children: toOptions(n.children, allow),
  }));
}

export function useSubtreeAccounts() {
  const auth = useAuth();
  const myId = auth?.userInfo.id ?? '';
  return useQuery({
    queryKey: ['accounts', 'subtree', myId],
    queryFn: ({ signal }) => findSubtree(myId, signal),
    enabled: myId !== '',
    staleTime: 60_000,
  });
}

export function AccountSelect(props: {
  value?: string;
  onChange?: (id: string) => void;
  /** Accounts that may be picked (others are shown, greyed). */
  allow?: (row: AccountRow) => boolean;
  placeholder?: string;
  style?: React.CSSProperties;
  testId?: string;
}) {
  const auth = useAuth();
  const accounts = useSubtreeAccounts();
  const allow = props.allow ?? (() => true);
  const treeData = useMemo(
    () => toOptions(buildTree(accounts.data ?? [], auth?.userInfo.id ?? ''), allow),
    [accounts.data, auth, allow],
  );
  return (
    <TreeSelect
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll={(accounts.data?.length ?? 0) < 200}
      value={props.value}
      onChange={(v) => props.onChange?.(String(v))}
      treeData={treeData}
      placeholder={props.placeholder}
      style={props.style ?? { minWidth: 240 }}
      loading={accounts.isLoading}
      data-testid={props.testId}
      popupMatchSelectWidth={false}
    />
  );
}
