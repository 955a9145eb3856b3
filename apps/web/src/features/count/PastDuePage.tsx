// /index/count/countPastDue (main:stat_pastdue): devices by platform and user expiry with the spec's filters
// (all, within 7 days, within 60 days, expired); each row links to the expiry screen with its IMEI filled in.
import { ClockCircleOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Segmented, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '../../app/guard.ts';
import { useAuth } from '../../auth/store.ts';
import { AccountSelect } from '../device/AccountSelect.tsx';
import { findPastDue, type PastDueFilter, type PastDueRow } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { daysLeft, expiryLink, firstExpiry } from './expiry.ts';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';

const FILTERS: PastDueFilter[] = ['all', '7d', '60d', 'expired'];
/** The most IMEIs one "renew" link carries (the expiry screen takes a pasted list). */
const LINK_MAX = 500;

export default function PastDuePage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const auth = useAuth();
  const [filter, setFilter] = useState<PastDueFilter>('60d');
  const [userId, setUserId] = useState<string | undefined>();
  const [now, setNow] = useState(() => Date.now());
  const query = useQuery({
    queryKey: ['count', 'pastDue', userId, filter, now],
    queryFn: ({ signal }) => findPastDue(userId, filter, signal),
  });
  const rows = useMemo(() => query.data ?? [], [query.data]);
  const canRenew = mayOpen('/index/device/deviceUpdateTime', auth);
  const expired = rows.filter((r) => (daysLeft(firstExpiry(r.platformExpire, r.userExpire), now) ?? 1) <= 0).length;

  const left = (iso: string | null) => {
    const d = daysLeft(iso, now);
    if (d === null) return <Tag>{t('pastDue.never')}</Tag>;
    if (d <= 0) return <Tag color="red">{t('pastDue.expired')}</Tag>;
    return <Tag color={d <= 7 ? 'orange' : d <= 60 ? 'gold' : 'green'}>{t('pastDue.daysLeft', { count: d })}</Tag>;
  };

  const columns: ColumnsType<PastDueRow> = [
    {
      title: t('column.device'),
      key: 'device',
      render: (_, r) => (
        <div>
          <div>{r.displayName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.terminalID}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('column.owner'), dataIndex: 'userName', key: 'owner' },
    {
      title: t('column.platformExpire'),
      key: 'platform',
      render: (_, r) => (
        <span>
          {f.date(r.platformExpire)} {left(r.platformExpire)}
        </span>
      ),
    },
    {
      title: t('column.userExpire'),
      key: 'user',
      render: (_, r) => (
        <span>
          {f.date(r.userExpire)} {left(r.userExpire)}
        </span>
      ),
    },
    {
      title: t('column.actions'),
      key: 'renew',
      render: (_, r) =>
        canRenew ? (
          <Link to={expiryLink([r.terminalID])} data-testid="pastdue-renew">
            <ClockCircleOutlined /> {t('pastDue.renew')}
          </Link>
        ) : null,
    },
  ];

  return (
    <CountShell
      testId="count-pastdue"
      error={query.error}
      filters={
        <>
          <AccountSelect value={userId} onChange={setUserId} placeholder={t('scope.allMine')} testId="scope-account" />
          <Segmented<PastDueFilter>
            value={filter}
            onChange={setFilter}
            options={FILTERS.map((x) => ({ value: x, label: t(`pastDue.filter.${x}`) }))}
            data-testid="pastdue-filter"
          />
          <Button
            type="primary"
            icon={<SearchOutlined />}
            onClick={() => setNow(Date.now())}
            data-testid="count-search"
          >
            {t('search')}
          </Button>
        </>
      }
    >
      <Card
        size="small"
        title={t('table.pastDue')}
        extra={
          canRenew &&
          rows.length > 0 && (
            <Link to={expiryLink(rows.slice(0, LINK_MAX).map((r) => r.terminalID))} data-testid="pastdue-renew-all">
              {t('pastDue.renewAll', { count: Math.min(rows.length, LINK_MAX) })}
            </Link>
          )
        }
      >
        <Table<PastDueRow>
          size="small"
          rowKey="terminalID"
          columns={columns}
          dataSource={rows}
          loading={query.isLoading}
          locale={{ emptyText: <Empty description={t('empty.noPastDue')} /> }}
          pagination={{
            defaultPageSize: 15,
            showSizeChanger: true,
            pageSizeOptions: COUNT_PAGE_SIZES,
            showTotal: (n) => t('rows', { total: n }),
          }}
          summary={() =>
            rows.length > 0 && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="pastdue-totals">
                  <Table.Summary.Cell index={0} colSpan={5}>
                    <Typography.Text strong>{t('pastDue.totals', { count: rows.length, expired })}</Typography.Text>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
          data-testid="pastdue-table"
        />
      </Card>
    </CountShell>
  );
}
