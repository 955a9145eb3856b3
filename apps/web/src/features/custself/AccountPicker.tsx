// The monitor's account picker (spec client state selectUser / session key selectAgentId): the caller's
// agent and customer tree beside the device list; choosing an account narrows the list and the map to its
// subtree; the search box searches the whole tree. The choice survives a reload of the page.
import { TreeSelect } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { type AccountRow, findSubtree } from '../agent/api.ts';
import { type AccountNode, buildTree, holdsAccounts } from '../agent/tree.ts';
import { clientState } from './clientState.ts';

interface Option {
  value: string;
  title: string;
  children: Option[];
}

const toOptions = (nodes: AccountNode[]): Option[] =>
  nodes.map((n) => ({ value: n.key, title: n.title, children: toOptions(n.children) }));

/** Whether the signed-in account has accounts below it to pick from. */
export function usePicksAccounts(): boolean {
  const auth = useAuth();
  const perms = auth?.permissions ?? [];
  return (
    holdsAccounts(auth?.userInfo.role) &&
    perms.some((p) => p === '*:*:*' || p === 'main:agent_add' || p === 'main:agent_edit')
  );
}

export function AccountPicker({ onChange }: { onChange: (userId: string | null) => void }) {
  const { t } = useTranslation('custself');
  const auth = useAuth();
  const [rows, setRows] = useState<AccountRow[]>([]);
  const [value, setValue] = useState<string | null>(() => clientState.selectAgentId());
  const rootId = auth?.userInfo.id ?? '';

  useEffect(() => {
    if (!rootId) return;
    const abort = new AbortController();
    findSubtree(rootId, abort.signal).then(setRows, () => setRows([]));
    return () => abort.abort();
  }, [rootId]);
  const treeData = useMemo(() => toOptions(buildTree(rows, rootId)), [rows, rootId]);

  return (
    <div style={{ padding: '10px 12px 0' }}>
      <TreeSelect
        data-testid="account-picker"
        style={{ width: '100%' }}
        showSearch
        allowClear
        treeDefaultExpandAll={rows.length < 200}
        treeNodeFilterProp="title"
        placeholder={t('monitor.allAccounts')}
        value={value ?? undefined}
        treeData={treeData}
        onChange={(v: string | undefined) => {
          const next = v ?? null;
          setValue(next);
          clientState.setSelectAgentId(next);
          onChange(next);
        }}
      />
    </div>
  );
}
