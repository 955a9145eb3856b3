// /index/count/countAlarms (main:stat_alarms): alarm counts per device and alarm type with a total, the types as
// a pie, and a link from each row to the alarm list of that device.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '../../app/guard.ts';
import { useAuth } from '../../auth/store.ts';
import { Chart } from '../../charts/Chart.tsx';
import { pieOption } from '../../charts/options.ts';
import { useAlarmLabel } from '../alarms/labels.ts';
import { type AlarmCount, findAlarmCounts } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { alarmsByType } from './figures.ts';
import { DEFAULT_SCOPE, ScopePicker, type ScopeValue, scopeReady, toScope } from './ScopePicker.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

export default function AlarmsCountPage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const auth = useAuth();
  const label = useAlarmLabel();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(7);
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const ready = range !== null && scopeReady(scope);
  const query = useQuery({
    queryKey: ['count', 'alarms', toScope(scope), range],
    queryFn: ({ signal }) => findAlarmCounts(toScope(scope), range as NonNullable<typeof range>, signal),
    enabled: ready,
  });
  const rows = useMemo(
    () =>
      (query.data ?? [])
        .filter((r) => r.count > 0)
        .sort((a, b) => b.count - a.count || a.terminalID.localeCompare(b.terminalID)),
    [query.data],
  );
  const byType = useMemo(() => alarmsByType(rows), [rows]);
  const total = byType.reduce((s, a) => s + a.count, 0);
  const loading = ready && query.isLoading;
  const canList = mayOpen('/index/alarmsAll', auth);

  const columns: ColumnsType<AlarmCount> = [
    {
      title: t('column.device'),
      key: 'device',
      width: 170,
      render: (_, r) => (
        <div>
          <div>{r.displayName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.terminalID}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('column.alarmType'), key: 'type', render: (_, r) => label(r.alarmType) },
    {
      title: t('column.count'),
      key: 'count',
      align: 'right',
      render: (_, r) =>
        canList ? (
          <Link to={`/index/alarmsAll?terminalID=${encodeURIComponent(r.terminalID)}`}>{f.num(r.count)}</Link>
        ) : (
          f.num(r.count)
        ),
    },
  ];

  return (
    <CountShell
      testId="count-alarms"
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
      <Row gutter={12}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('chart.alarmsByType')} style={{ marginBottom: 12 }}>
            <Chart
              option={pieOption(
                byType.map((a) => ({ name: label(a.alarmType), value: a.count })),
                (v) => f.num(v),
              )}
              loading={loading}
              empty={!loading && total === 0}
              emptyText={ready ? t('empty.noAlarms') : t('empty.pick')}
              height={340}
              testId="alarms-chart"
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('table.title')}>
            <Table<AlarmCount>
              size="small"
              rowKey={(r) => `${r.terminalID}/${r.alarmType}`}
              columns={columns}
              scroll={{ x: 'max-content' }}
              dataSource={rows}
              loading={loading}
              locale={{ emptyText: <Empty description={ready ? t('empty.noAlarms') : t('empty.pick')} /> }}
              pagination={{
                defaultPageSize: 15,
                showSizeChanger: true,
                pageSizeOptions: COUNT_PAGE_SIZES,
                showTotal: (n) => t('rows', { total: n }),
              }}
              summary={() =>
                rows.length > 0 && (
                  <Table.Summary fixed>
                    <Table.Summary.Row data-testid="alarms-totals">
                      <Table.Summary.Cell index={0} colSpan={2}>
                        <Typography.Text strong>{t('total.label')}</Typography.Text>
                      </Table.Summary.Cell>
                      <Table.Summary.Cell index={2} align="right">
                        <Typography.Text strong>{f.num(total)}</Typography.Text>
                      </Table.Summary.Cell>
                    </Table.Summary.Row>
                  </Table.Summary>
                )
              }
              data-testid="alarms-table"
            />
          </Card>
        </Col>
      </Row>
    </CountShell>
  );
}
