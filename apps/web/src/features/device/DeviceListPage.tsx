// /index/device/deviceList and deviceListV2 (main:devices_management): the ordered device list of an account
// (and its sub-accounts) with tabs online / offline / inactive / expired and their counts, search, expiry filter,
// paging, editing, and batch operations on the selected devices within the configured limits.
import { EditOutlined, MoreOutlined, ReloadOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, hasPermission, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Dropdown, Input, Modal, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { SubNav } from '../agent/SubNav.tsx';
import {
  DEVICE_ACCOUNT_ACTIONS,
  type DeviceAccountAction,
  DeviceAccountDialog,
} from '../deviceAccount/DeviceAccountDialog.tsx';
import { AccountSelect } from './AccountSelect.tsx';
import {
  countDevices,
  type DeviceItem,
  type DeviceListFilter,
  type DeviceTab,
  type ExpiryFilter,
  findDevices,
} from './api.ts';
import { type BatchKind, BatchOperation } from './BatchOperation.tsx';
import { DeviceEditDrawer } from './DeviceEditDrawer.tsx';
import { IconTypeImage } from './IconTypeImage.tsx';
import { DEVICE_PAGES } from './pages.ts';

const TABS: DeviceTab[] = ['all', 'online', 'offline', 'unactivated', 'expired'];
const EXPIRY: ExpiryFilter[] = ['all', 'within7Days', 'within60Days', 'expired'];
const STATE_COLORS: Record<DeviceItem['state'], string> = { zx: 'green', lx: 'default', wjh: 'orange' };

/** Batch operations and the permission each needs (spec §6). */
const BATCHES: { kind: BatchKind; needs: string[] }[] = [
  { kind: 'transfer', needs: ['main:device_transfer', 'main:devices_bulk_transfer'] },
  { kind: 'sale', needs: ['main:device_transfer', 'main:devices_bulk_transfer'] },
  { kind: 'reset', needs: ['main:devices_reset'] },
  { kind: 'icon', needs: ['main:devices_icon_type'] },
  { kind: 'time', needs: ['main:devices_bulk_expire', 'main:devices_expire_type'] },
  { kind: 'term', needs: ['main:devices_bulk_expire', 'main:devices_expire_type'] },
  { kind: 'recalc', needs: ['main:devices_bulk_expire', 'main:devices_expire_type'] },
  { kind: 'host', needs: ['main:devices_bulk_host'] },
  { kind: 'type', needs: ['main:devices_bulk_type'] },
  { kind: 'zone', needs: ['main:devices_bulk_zone'] },
  { kind: 'command', needs: ['main:command_batch', 'main:command'] },
];

const time = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '-');

export default function DeviceListPage() {
  const { t } = useTranslation('device');
  const auth = useAuth();
  const queryClient = useQueryClient();
  const held = auth?.permissions ?? [];
  const [filter, setFilter] = useState<DeviceListFilter>({
    userId: auth?.userInfo.id ?? '',
    includeChildren: true,
    tab: 'all',
    expiry: 'all',
    keyword: '',
  });
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<DeviceItem[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [batch, setBatch] = useState<{ kind: BatchKind; ids: string[] } | null>(null);
  const [accountAction, setAccountAction] = useState<{ kind: DeviceAccountAction; ids: string[] } | null>(null);

  const change = (patch: Partial<DeviceListFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage((p) => ({ ...p, pageNum: 1 }));
    setSelected([]);
  };

  // A newer filter cancels the request in flight (TanStack Query aborts the superseded query's signal).
  const list = useQuery({
    queryKey: ['devices', filter, page],
    queryFn: ({ signal }) => findDevices(filter, page.pageNum, page.pageSize, signal),
    placeholderData: keepPreviousData,
  });
  const counts = useQuery({
    queryKey: ['deviceCounts', { ...filter, tab: 'all' }],
    queryFn: ({ signal }) => countDevices(filter, signal),
    placeholderData: keepPreviousData,
  });
  // Spec §4: a cancelled request rejects quietly (TanStack Query reverts it, no error); any other failure
  // empties the list rather than leaving the previous rows on screen.
  const rows = list.isError ? [] : (list.data?.list ?? []);
  const total = counts.data
    ? counts.data[filter.tab]
    : (page.pageNum - 1) * page.pageSize + rows.length + (!list.isError && list.data?.hasMore ? 1 : 0);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['deviceCounts'] });
  };

  const batches = BATCHES.filter((b) => hasPermission(held, b.needs));
  const canEdit = hasPermission(held, ['main:device_edit']);
  // Device accounts (password reset, username change): their own dialog, not a batch of BatchOperation.
  const accountActions = DEVICE_ACCOUNT_ACTIONS.filter((a) => hasPermission(held, a.needs));
  const { t: th } = useTranslation(['harden', 'custself']);

  const columns: ColumnsType<DeviceItem> = useMemo(
    () => [
      {
        title: t('column.name'),
        key: 'name',
        // Wide enough for a 15-digit IMEI on one line: a squeezed column broke names and IMEIs mid-number.
        width: 240,
        render: (_, d) => (
          <Space>
            <IconTypeImage type={d.device.iconType} size={28} />
            <div>
              <div data-testid="device-name">{d.displayName}</div>
              <Typography.Text
                type="secondary"
                style={{ fontSize: 12, whiteSpace: 'nowrap' }}
                data-testid="device-imei"
              >
                {d.terminalID}
              </Typography.Text>
            </div>
          </Space>
        ),
      },
      {
        title: t('column.state'),
        key: 'state',
        width: 100,
        render: (_, d) => <Tag color={STATE_COLORS[d.state]}>{t(`state.${d.state}`)}</Tag>,
      },
      { title: t('column.owner'), key: 'owner', width: 140, render: (_, d) => d.realname || d.username || '-' },
      { title: t('field.sim'), dataIndex: 'telephone', width: 130 },
      { title: t('field.carNumber'), dataIndex: 'carNumber', width: 110 },
      { title: t('column.activated'), key: 'activated', width: 150, render: (_, d) => time(d.activatedAt) },
      {
        title: t('column.expire'),
        key: 'expire',
        width: 160,
        render: (_, d) =>
          d.expire ? (
            <span style={{ color: dayjs(d.expire).isBefore(dayjs()) ? '#cf1322' : undefined }}>
              {time(d.expire)}
              {d.expireManual && <Tag style={{ marginLeft: 4 }}>{t('manual')}</Tag>}
            </span>
          ) : (
            '-'
          ),
      },
      {
        title: t('column.lastReport'),
        key: 'report',
        width: 150,
        render: (_, d) => time(d.location?.stateTime ?? d.location?.utcTime),
      },
      {
        title: t('column.actions'),
        key: 'actions',
        width: 90,
        // Stays in view when the table scrolls sideways (1280 px screens).
        fixed: 'right',
        render: (_, d) => (
          <Space size={0}>
            {canEdit && (
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing(d.id)}
                data-testid="device-edit"
              />
            )}
            {batches.length + accountActions.length > 0 && (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    ...batches.map((b) => ({
                      key: b.kind,
                      label: t(`batch.title.${b.kind}`),
                      danger: b.kind === 'reset',
                    })),
                    ...accountActions.map((a) => ({
                      key: a.kind,
                      label: <span data-testid={`device-action-${a.kind}`}>{th(a.label)}</span>,
                    })),
                  ],
                  onClick: ({ key }) =>
                    accountActions.some((a) => a.kind === key)
                      ? setAccountAction({ kind: key as DeviceAccountAction, ids: [d.terminalID] })
                      : setBatch({ kind: key as BatchKind, ids: [d.terminalID] }),
                }}
              >
                <Button type="link" size="small" icon={<MoreOutlined />} data-testid="device-row-actions" />
              </Dropdown>
            )}
          </Space>
        ),
      },
    ],
    [t, th, canEdit, batches, accountActions],
  );

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Card size="small">
        <Space wrap style={{ marginBottom: 8 }}>
          <AccountSelect value={filter.userId} onChange={(userId) => change({ userId })} testId="device-owner" />
          <Space>
            <Switch checked={filter.includeChildren} onChange={(includeChildren) => change({ includeChildren })} />
            {t('filter.includeChildren')}
          </Space>
          <Input.Search
            allowClear
            placeholder={t('filter.search')}
            onSearch={(keyword) => change({ keyword })}
            style={{ width: 240 }}
            data-testid="device-search"
          />
          <Select
            value={filter.expiry}
            onChange={(expiry) => change({ expiry })}
            style={{ width: 180 }}
            options={EXPIRY.map((e) => ({ value: e, label: t(`expiry.${e}`) }))}
          />
          <Button icon={<ReloadOutlined />} onClick={refresh} />
        </Space>
        <Tabs
          activeKey={filter.tab}
          onChange={(tab) => change({ tab: tab as DeviceTab })}
          items={TABS.map((tab) => ({
            key: tab,
            label: (
              <span data-testid={`device-tab-${tab}`}>
                {t(`tab.${tab}`)} ({counts.data ? counts.data[tab] : '…'})
              </span>
            ),
          }))}
        />
        {selected.length > 0 && batches.length + accountActions.length > 0 && (
          <Space wrap style={{ marginBottom: 8 }}>
            <Typography.Text>{t('selected', { count: selected.length })}</Typography.Text>
            {batches.map((b) => (
              <Button
                key={b.kind}
                size="small"
                danger={b.kind === 'reset'}
                onClick={() => setBatch({ kind: b.kind, ids: selected.map((d) => d.terminalID) })}
                data-testid={`device-batch-${b.kind}`}
              >
                {t(`batch.title.${b.kind}`)}
              </Button>
            ))}
            {accountActions.some((a) => a.kind === 'devicePassword') && (
              <Button
                size="small"
                onClick={() => setAccountAction({ kind: 'devicePassword', ids: selected.map((d) => d.terminalID) })}
                data-testid="device-batch-devicePassword"
              >
                {th('devicePassword.batch')}
              </Button>
            )}
          </Space>
        )}
        <Table
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={rows}
          columns={columns}
          scroll={{ x: 1330 }}
          rowSelection={
            batches.length + accountActions.length > 0
              ? { selectedRowKeys: selected.map((d) => d.id), onChange: (_keys, rows) => setSelected(rows) }
              : undefined
          }
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total,
            pageSizeOptions: [...PAGE_SIZE_OPTIONS],
            showSizeChanger: true,
            showTotal: (n) => t('total', { count: n }),
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
        />
      </Card>
      {editing && (
        <DeviceEditDrawer
          id={editing}
          onClose={(changed) => {
            setEditing(null);
            if (changed) refresh();
          }}
        />
      )}
      {accountAction && (
        <DeviceAccountDialog
          kind={accountAction.kind}
          terminalIDs={accountAction.ids}
          onClose={() => {
            setAccountAction(null);
            refresh();
          }}
        />
      )}
      {batch && (
        <Modal
          open
          footer={null}
          title={t(`batch.title.${batch.kind}`)}
          onCancel={() => {
            setBatch(null);
            setSelected([]);
            refresh();
          }}
          destroyOnHidden
        >
          <BatchOperation kind={batch.kind} terminalIDs={batch.ids} />
        </Modal>
      )}
    </div>
  );
}
