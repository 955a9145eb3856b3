// /index/count/countFenceVisits (main:stat_alarms): entries into and exits from fences per device over the
// range, with the time inside (/stat/fenceVisits, built from the fence alarms), and the hours inside per fence
// as bars.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../charts/Chart.tsx';
import { barOption } from '../../charts/options.ts';
import { type FenceVisit, findFenceVisits } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { DEFAULT_SCOPE, ScopePicker, type ScopeValue, scopeReady, toScope } from './ScopePicker.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

export default function FenceVisitsPage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(7);
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const ready = range !== null && scopeReady(scope);
  const query = useQuery({
    queryKey: ['count', 'fenceVisits', toScope(scope), range],
    queryFn: ({ signal }) => findFenceVisits(toScope(scope), range as NonNullable<typeof range>, signal),
    enabled: ready,
  });
  const rows = useMemo(() => query.data ?? [], [query.data]);
  const totalSeconds = rows.reduce((s, r) => s + r.seconds, 0);
  const chart = useMemo(() => {
    const byFence = new Map<string, number>();
    for (const r of rows)
      byFence.set(r.fenceName || r.fenceId, (byFence.get(r.fenceName || r.fenceId) ?? 0) + r.seconds);
    const fences = [...byFence.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
    return barOption(
      fences.map(([name]) => name),
      [{ name: t('fence.inside'), values: fences.map(([, s]) => Math.round((s / 3600) * 10) / 10) }],
      (v) => t('fence.hours', { value: f.num(v, 1) }),
    );
  }, [rows, t, f]);

  const columns: ColumnsType<FenceVisit> = [
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
    { title: t('fence.name'), key: 'fence', render: (_, r) => r.fenceName || r.fenceId },
    {
      title: t('fence.enter'),
      key: 'enter',
      render: (_, r) => (r.enterTime ? f.time(r.enterTime) : t('fence.before')),
    },
    { title: t('fence.exit'), key: 'exit', render: (_, r) => (r.exitTime ? f.time(r.exitTime) : t('fence.still')) },
    { title: t('column.duration'), key: 'duration', align: 'right', render: (_, r) => f.duration(r.seconds) },
  ];

  return (
    <CountShell
      testId="count-fence-visits"
      error={query.error}
      filters={
        <>
          <ScopePicker value={scope} onChange={setScope} />
          <DateSearch value={period} onChange={setPeriod} error={periodError} />
          <Button type="primary" icon={<SearchOutlined />} onClick={refresh} data-testid="count-search">
            {t('search')}
          </Button>
        </>
      }
    >
      <Card size="small" title={t('fence.chart')} style={{ marginBottom: 12 }}>
        <Chart
          option={chart}
          loading={ready && query.isLoading}
          empty={rows.length === 0}
          emptyText={t('fence.empty')}
          testId="fence-visits-chart"
        />
      </Card>
      <Card size="small" title={t('fence.title')}>
        <Table<FenceVisit>
          size="small"
          rowKey={(r) => `${r.terminalID}/${r.fenceId}/${r.enterTime ?? ''}/${r.exitTime ?? ''}`}
          columns={columns}
          dataSource={rows}
          loading={ready && query.isLoading}
          locale={{ emptyText: <Empty description={t('fence.empty')} /> }}
          pagination={{ defaultPageSize: 15, showSizeChanger: true, pageSizeOptions: COUNT_PAGE_SIZES }}
          summary={() =>
            rows.length > 0 && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="fence-visits-totals">
                  <Table.Summary.Cell index={0} colSpan={4}>
                    <Typography.Text strong>{t('fence.totals', { count: rows.length })}</Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {f.duration(totalSeconds)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
          data-testid="fence-visits-table"
        />
      </Card>
    </CountShell>
  );
}
