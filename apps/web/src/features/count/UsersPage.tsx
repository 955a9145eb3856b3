// /index/count/countUsers (main:stat_mileage): an agent compares its customers — the sub-accounts of a chosen
// account (the caller's own by default), each with the totals of its whole subtree over the range
// (/stat/findByUserIds), as a table with totals and mileage per account as bars.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { Chart } from '../../charts/Chart.tsx';
import { barOption } from '../../charts/options.ts';
import { AccountSelect, useSubtreeAccounts } from '../device/AccountSelect.tsx';
import { findUserTotals, type UserTotals } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

/** The most accounts one comparison asks for (the server takes up to 1000). */
const MAX_ACCOUNTS = 1000;

const name = (r: UserTotals) => r.nickname || r.username;

export default function UsersPage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const auth = useAuth();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(7);
  const [parent, setParent] = useState<string | undefined>();
  const accounts = useSubtreeAccounts();
  const parentId = parent ?? auth?.userInfo.id ?? '';
  const children = useMemo(
    () =>
      (accounts.data ?? [])
        .filter((a) => a.user_id === parentId && a.id !== parentId)
        .slice(0, MAX_ACCOUNTS)
        .map((a) => a.id),
    [accounts.data, parentId],
  );
  const ready = range !== null && accounts.isSuccess;
  const query = useQuery({
    queryKey: ['count', 'users', children, range],
    queryFn: ({ signal }) => findUserTotals(children, range as NonNullable<typeof range>, signal),
    enabled: ready,
  });
  const rows = useMemo(() => [...(query.data ?? [])].sort((a, b) => b.mileage - a.mileage), [query.data]);
  const totals = useMemo(
    () =>
      rows.reduce(
        (s, r) => ({
          deviceCount: s.deviceCount + r.deviceCount,
          mileage: s.mileage + r.mileage,
          runSeconds: s.runSeconds + r.runSeconds,
          overspeedCount: s.overspeedCount + r.overspeedCount,
          alarmCount: s.alarmCount + r.alarmCount,
        }),
        { deviceCount: 0, mileage: 0, runSeconds: 0, overspeedCount: 0, alarmCount: 0 },
      ),
    [rows],
  );
  const chart = useMemo(
    () =>
      barOption(
        rows.slice(0, 30).map(name),
        [{ name: t('column.mileage'), values: rows.slice(0, 30).map((r) => r.mileage) }],
        (v) => f.kmBare(v),
      ),
    [rows, t, f],
  );

  const columns: ColumnsType<UserTotals> = [
    {
      title: t('column.owner'),
      key: 'account',
      render: (_, r) => (
        <div>
          <div>{name(r)}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.username}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('total.devices'), key: 'devices', align: 'right', render: (_, r) => f.num(r.deviceCount) },
    { title: t('column.mileage'), key: 'mileage', align: 'right', render: (_, r) => f.km(r.mileage) },
    { title: t('column.run'), key: 'run', align: 'right', render: (_, r) => f.duration(r.runSeconds) },
    { title: t('column.engine'), key: 'engine', align: 'right', render: (_, r) => f.duration(r.engineSeconds) },
    { title: t('column.maxSpeed'), key: 'maxSpeed', align: 'right', render: (_, r) => f.speed(r.maxSpeed) },
    { title: t('column.overspeeds'), key: 'overspeeds', align: 'right', render: (_, r) => f.num(r.overspeedCount) },
    { title: t('column.alarms'), key: 'alarms', align: 'right', render: (_, r) => f.num(r.alarmCount) },
  ];

  return (
    <CountShell
      testId="count-users"
      error={query.error}
      filters={
        <>
          <AccountSelect value={parent} onChange={setParent} placeholder={t('users.mine')} testId="users-parent" />
          <DateSearch value={period} onChange={setPeriod} error={periodError} />
          <Button type="primary" icon={<SearchOutlined />} onClick={refresh} data-testid="count-search">
            {t('search')}
          </Button>
        </>
      }
    >
      <Card size="small" title={t('users.chart')} style={{ marginBottom: 12 }}>
        <Chart
          option={chart}
          loading={ready && query.isLoading}
          empty={rows.length === 0}
          emptyText={t('users.empty')}
          testId="users-chart"
        />
      </Card>
      <Card size="small" title={t('users.title')}>
        <Table<UserTotals>
          size="small"
          rowKey="userId"
          columns={columns}
          dataSource={rows}
          loading={ready && query.isLoading}
          locale={{ emptyText: <Empty description={t('users.empty')} /> }}
          pagination={{ defaultPageSize: 15, showSizeChanger: true, pageSizeOptions: COUNT_PAGE_SIZES }}
          summary={() =>
            rows.length > 0 && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="users-totals">
                  <Table.Summary.Cell index={0}>
                    <Typography.Text strong>{t('total.label')}</Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {f.num(totals.deviceCount)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    {f.km(totals.mileage)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {f.duration(totals.runSeconds)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} colSpan={2} />
                  <Table.Summary.Cell index={6} align="right">
                    {f.num(totals.overspeedCount)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={7} align="right">
                    {f.num(totals.alarmCount)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
          data-testid="users-table"
        />
      </Card>
    </CountShell>
  );
}
