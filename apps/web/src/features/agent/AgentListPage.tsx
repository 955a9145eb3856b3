// /index/agent/agentList: the account tree of the caller's subtree (with search) and the sub-accounts of the
// selected account, with add, edit, delete, move, reset password, change username and role, import quota,
// bulk import and export.
import { DeleteOutlined, DownloadOutlined, MoreOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, isAgent, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Dropdown, Flex, Input, Space, Table, Tag, Tree, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resetTwoFactor } from '../deviceAccount/api.ts';
import { PasswordsResult } from '../security/PasswordsResult.tsx';
import { type AccountActionKind, AccountActionModal } from './AccountActionModal.tsx';
import { AccountFormModal } from './AccountFormModal.tsx';
import { type AccountAction, useAccountAccess } from './access.ts';
import {
  type AccountRow,
  clearSessions,
  deleteUsers,
  exportAccounts,
  findAgents,
  findChildren,
  findLike,
  resetPassword,
} from './api.ts';
import { domainText } from './formRules.ts';
import { ImportUsersModal } from './ImportUsersModal.tsx';
import { useRoleLabel } from './roles.ts';
import { AGENT_PAGES, SubNav } from './SubNav.tsx';
import { accountLabel, buildTree, holdsAccounts } from './tree.ts';

type Dialog =
  | { kind: 'create'; parent: AccountRow }
  | { kind: 'edit'; account: AccountRow }
  | { kind: 'import'; parent: AccountRow }
  | { kind: AccountActionKind; account: AccountRow }
  | null;

export default function AgentListPage() {
  const { t } = useTranslation('agent');
  const { t: th } = useTranslation('harden');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const roleLabel = useRoleLabel();
  const { can, myId } = useAccountAccess();
  const [selectedId, setSelectedId] = useState(myId);
  const [search, setSearch] = useState('');
  const [checked, setChecked] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const agents = useQuery({
    queryKey: ['accounts', 'agents', myId],
    queryFn: ({ signal }) => findAgents(myId, signal),
  });
  const found = useQuery({
    queryKey: ['accounts', 'like', search],
    queryFn: ({ signal }) => findLike(search, myId, signal),
    enabled: search.trim() !== '',
  });
  const children = useQuery({
    queryKey: ['accounts', 'children', selectedId],
    queryFn: ({ signal }) => findChildren(selectedId, signal),
    placeholderData: (previous) => previous,
  });
  const tree = useMemo(() => buildTree(agents.data ?? [], myId), [agents.data, myId]);
  const selected = (agents.data ?? []).find((a) => a.id === selectedId) ?? found.data?.find((a) => a.id === selectedId);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['accounts'] });
  const close = (changed: boolean) => {
    setDialog(null);
    if (changed) refresh();
  };

  const confirmDelete = (ids: string[]) =>
    modal.confirm({
      title: t('confirmDelete', { count: ids.length }),
      okText: t('ok'),
      cancelText: t('cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const r = await deleteUsers(ids);
          if (r.deleted.length > 0) message.success(t('deleted', { count: r.deleted.length }));
          for (const refusal of r.refused) message.error(refusal.message);
          setChecked([]);
          refresh();
        } catch (err) {
          message.error((err as Error).message);
        }
      },
    });

  const confirmReset = (row: AccountRow) =>
    modal.confirm({
      title: t('confirmResetPassword', { name: row.username }),
      okText: t('ok'),
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          const { password } = await resetPassword(row.id);
          message.success(t('passwordReset'));
          // The new password is shown once, to the person who reset it.
          modal.info({
            width: 520,
            title: t('passwordReset'),
            content: <PasswordsResult rows={[{ account: row.username, password }]} />,
          });
        } catch (err) {
          message.error((err as Error).message);
        }
      },
    });

  const confirmClearSessions = (row: AccountRow) =>
    modal.confirm({
      title: t('confirmClearSessions', { name: row.username }),
      okText: t('ok'),
      cancelText: t('cancel'),
      okButtonProps: { 'data-testid': 'clear-sessions-ok' } as Record<string, string>,
      onOk: async () => {
        try {
          const r = await clearSessions(row.id);
          message.success(t('sessionsCleared', { count: r.sessions }));
        } catch (err) {
          message.error((err as Error).message);
        }
      },
    });

  const confirmResetTwoFactor = (row: AccountRow) =>
    modal.confirm({
      title: th('resetTwoFactor.confirm', { name: row.username }),
      okText: t('ok'),
      cancelText: t('cancel'),
      okButtonProps: { 'data-testid': 'reset-two-factor-ok' } as Record<string, string>,
      onOk: async () => {
        try {
          const r = await resetTwoFactor(row.id);
          message.success(th(r.wasEnabled ? 'resetTwoFactor.done' : 'resetTwoFactor.wasOff', { name: row.username }));
        } catch (err) {
          message.error((err as Error).message);
        }
      },
    });

  const doExport = async () => {
    try {
      await exportAccounts(selectedId, true, `${t('exportFile')}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      message.success(domainText('action.export.success'));
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  const rowActions = (row: AccountRow) => {
    const items: { key: AccountAction | AccountActionKind; label: string; danger?: boolean }[] = [];
    const add = (action: AccountAction, key: AccountAction | AccountActionKind, label: string, danger = false) => {
      if (can(action)) items.push({ key, label, danger });
    };
    add('edit', 'edit', t('action.edit'));
    add('username', 'username', t('action.username'));
    add('edit', 'role', t('action.role'));
    add('transfer', 'move', t('action.move'));
    add('resetPassword', 'resetPassword', t('action.resetPassword'));
    add('clearSessions', 'clearSessions', t('action.clearSessions'));
    add('resetTwoFactor', 'resetTwoFactor', th('resetTwoFactor.action'));
    if (isAgent(row.role)) add('quota', 'quota', t('action.quota'));
    add('delete', 'delete', t('action.delete'), true);
    return items;
  };

  const onRowAction = (row: AccountRow, key: string) => {
    if (key === 'edit') setDialog({ kind: 'edit', account: row });
    else if (key === 'resetPassword') confirmReset(row);
    else if (key === 'clearSessions') confirmClearSessions(row);
    else if (key === 'resetTwoFactor') confirmResetTwoFactor(row);
    else if (key === 'delete') confirmDelete([row.id]);
    else setDialog({ kind: key as AccountActionKind, account: row });
  };

  const columns: ColumnsType<AccountRow> = [
    {
      title: t('field.username'),
      key: 'username',
      // Room for the user name and its header in every language; narrower screens scroll the table instead.
      width: 170,
      render: (_, r) => (
        <div>
          <Typography.Link onClick={() => isAgent(r.role) && setSelectedId(r.id)} data-testid="account-name">
            {r.username}
          </Typography.Link>
          {r.nickname && <div style={{ fontSize: 12, color: '#888' }}>{r.nickname}</div>}
        </div>
      ),
    },
    { title: t('field.role'), key: 'role', width: 110, render: (_, r) => <Tag>{roleLabel(r.role)}</Tag> },
    {
      title: t('column.devices'),
      key: 'devices',
      width: 120,
      render: (_, r) => `${r.deviceNum} / ${r.totalDeviceNum}`,
    },
    { title: t('column.sold'), dataIndex: 'saleNum', width: 80 },
    { title: t('column.quota'), key: 'quota', width: 100, render: (_, r) => (isAgent(r.role) ? r.importQuota : '-') },
    { title: t('field.telephone'), dataIndex: 'telephone', width: 130 },
    {
      title: t('column.created'),
      key: 'created',
      width: 160,
      render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: t('column.actions'),
      key: 'actions',
      width: 80,
      render: (_, r) => {
        const items = rowActions(r);
        return items.length === 0 ? null : (
          <Dropdown menu={{ items, onClick: ({ key }) => onRowAction(r, key) }} trigger={['click']}>
            <Button size="small" icon={<MoreOutlined />} data-testid={`account-actions-${r.username}`} />
          </Dropdown>
        );
      },
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={AGENT_PAGES} />
      <Flex gap={16} align="start">
        <Card size="small" title={t('tree.title')} style={{ width: 280, flex: 'none' }}>
          <Input.Search
            allowClear
            placeholder={t('tree.search')}
            onSearch={setSearch}
            onChange={(e) => e.target.value === '' && setSearch('')}
            style={{ marginBottom: 8 }}
            data-testid="account-search"
          />
          {search.trim() !== '' ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              {(found.data ?? []).map((a) => (
                <Typography.Link key={a.id} onClick={() => setSelectedId(a.id)}>
                  {accountLabel(a)}
                </Typography.Link>
              ))}
              {found.data?.length === 0 && <Typography.Text type="secondary">{t('noMatch')}</Typography.Text>}
            </Space>
          ) : (
            <Tree
              blockNode
              defaultExpandAll
              selectedKeys={[selectedId]}
              treeData={tree}
              onSelect={(keys) => keys[0] && setSelectedId(String(keys[0]))}
              style={{ maxHeight: 'calc(100vh - 260px)', overflow: 'auto' }}
            />
          )}
        </Card>
        <Card
          size="small"
          style={{ flex: 1, minWidth: 0 }}
          title={
            // A long account name is cut on a narrow screen: the whole title shows on hover.
            <span title={selected ? t('childrenOf', { name: accountLabel(selected) }) : t('children')}>
              {selected ? t('childrenOf', { name: accountLabel(selected) }) : t('children')}
            </span>
          }
          extra={
            <Space wrap>
              {can('add') && selected && holdsAccounts(selected.role) && (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setDialog({ kind: 'create', parent: selected })}
                  data-testid="account-add"
                >
                  {t('action.add')}
                </Button>
              )}
              {can('add') && selected && holdsAccounts(selected.role) && (
                <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'import', parent: selected })}>
                  {t('action.import')}
                </Button>
              )}
              {can('export') && (
                <Button icon={<DownloadOutlined />} onClick={() => void doExport()}>
                  {t('action.export')}
                </Button>
              )}
              {can('delete') && (
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={checked.length === 0}
                  onClick={() => confirmDelete(checked)}
                >
                  {t('action.deleteSelected')}
                </Button>
              )}
            </Space>
          }
        >
          <Table
            size="small"
            rowKey="id"
            loading={children.isFetching}
            dataSource={children.data ?? []}
            columns={columns}
            scroll={{ x: 1000 }}
            rowSelection={
              can('delete') ? { selectedRowKeys: checked, onChange: (keys) => setChecked(keys.map(String)) } : undefined
            }
            pagination={{
              defaultPageSize: DEFAULT_PAGE_SIZE,
              pageSizeOptions: [...PAGE_SIZE_OPTIONS],
              showSizeChanger: true,
            }}
          />
        </Card>
      </Flex>
      {dialog?.kind === 'create' && <AccountFormModal mode={dialog} canSetExpiry onClose={close} />}
      {dialog?.kind === 'edit' && (
        <AccountFormModal mode={dialog} canSetExpiry={dialog.account.id !== myId} onClose={close} />
      )}
      {dialog?.kind === 'import' && <ImportUsersModal parent={dialog.parent} onClose={close} />}
      {dialog &&
        (dialog.kind === 'username' || dialog.kind === 'role' || dialog.kind === 'move' || dialog.kind === 'quota') && (
          <AccountActionModal
            kind={dialog.kind}
            account={dialog.account}
            agents={agents.data ?? []}
            myId={myId}
            onClose={close}
          />
        )}
    </div>
  );
}
