// /index/count/countMileage (main:stat_mileage): mileage, running, stops, engine and idle time, top speed,
// overspeeds and alarms per device and day, with totals, per-device totals and mileage per day as bars.
import { SearchOutlined } from '@ant-design/icons';
import { daysOverlapping } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Segmented, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../charts/Chart.tsx';
import { barOption } from '../../charts/options.ts';
import { type DayRow, findDays } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { mergeDays, mileageSeries, perDevice, totalsOf } from './figures.ts';
import { DEFAULT_SCOPE, ScopePicker, type ScopeValue, scopeReady, toScope } from './ScopePicker.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

type TableRow = DayRow & { key: string };
type View = 'days' | 'devices';

const CHART_DEVICES = 8;

export default function MileagePage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const { period, setPeriod, range, zone, error: periodError, refresh } = usePeriod(7);
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const [view, setView] = useState<View>('days');
  const ready = range !== null && scopeReady(scope);

  const query = useQuery({
    queryKey: ['count', 'days', toScope(scope), range],
    queryFn: ({ signal }) => findDays(toScope(scope), range as NonNullable<typeof range>, signal),
    enabled: ready,
  });
  const rows = useMemo(() => mergeDays(query.data ?? []), [query.data]);
  const totals = useMemo(() => totalsOf(rows), [rows]);
  const chart = useMemo(
    () =>
      mileageSeries(
        rows,
        CHART_DEVICES,
        t('chart.others'),
        range && rows.length > 0 ? daysOverlapping(range.begin, range.end, zone) : [],
      ),
    [rows, t, range, zone],
  );
  const tableRows: TableRow[] = useMemo(
    () =>
      view === 'days'
        ? rows.map((r) => ({ ...r, key: `${r.statsticDate}/${r.terminalID}` }))
        : perDevice(rows).map((d) => ({ ...d, statsticDate: '', key: d.terminalID })),
    [rows, view],
  );
  const loading = ready && query.isLoading;

  const columns: ColumnsType<TableRow> = [
    {
      title: t('column.device'),
      key: 'device',
      fixed: 'left',
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
    ...(view === 'days'
      ? [{ title: t('column.date'), dataIndex: 'statsticDate', key: 'date', width: 120 } as const]
      : []),
    { title: t('column.mileage'), key: 'mileage', align: 'right', render: (_, r) => f.km(r.mileage) },
    { title: t('column.run'), key: 'run', align: 'right', render: (_, r) => f.duration(r.runSeconds) },
    { title: t('column.stops'), key: 'stops', align: 'right', render: (_, r) => f.num(r.stopCount) },
    { title: t('column.stopTime'), key: 'stopTime', align: 'right', render: (_, r) => f.duration(r.stopSeconds) },
    { title: t('column.engine'), key: 'engine', align: 'right', render: (_, r) => f.duration(r.engineSeconds) },
    { title: t('column.idle'), key: 'idle', align: 'right', render: (_, r) => f.duration(r.idleSeconds) },
    { title: t('column.maxSpeed'), key: 'maxSpeed', align: 'right', render: (_, r) => f.speed(r.maxSpeed) },
    { title: t('column.overspeeds'), key: 'overspeeds', align: 'right', render: (_, r) => f.num(r.overspeedCount) },
    { title: t('column.alarms'), key: 'alarms', align: 'right', render: (_, r) => f.num(r.alarmCount) },
  ];

  const summaryCells = [
    f.km(totals.mileage),
    f.duration(totals.runSeconds),
    f.num(totals.stopCount),
    f.duration(totals.stopSeconds),
    f.duration(totals.engineSeconds),
    f.duration(totals.idleSeconds),
    f.speed(totals.maxSpeed),
    f.num(totals.overspeedCount),
    f.num(totals.alarmCount),
  ];
  const labelSpan = view === 'days' ? 2 : 1;

  return (
    <CountShell
      testId="count-mileage"
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
      <Row gutter={12} style={{ marginBottom: 12 }}>
        {(
          [
            ['mileage', t('total.mileage'), f.km(totals.mileage)],
            ['devices', t('total.devices'), f.num(totals.devices)],
            ['run', t('total.run'), f.duration(totals.runSeconds)],
            ['alarms', t('total.alarms'), f.num(totals.alarmCount)],
          ] as const
        ).map(([key, title, value]) => (
          <Col key={key} xs={12} md={6}>
            <Card size="small" loading={loading}>
              <Statistic title={title} value={value} valueStyle={{ fontSize: 20 }} data-testid={`total-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card size="small" title={t('chart.mileagePerDay')} style={{ marginBottom: 12 }}>
        <Chart
          option={barOption(chart.days, chart.series, (v) => f.num(v / 1000, 2))}
          loading={loading}
          empty={!loading && (rows.length === 0 || totals.mileage === 0)}
          emptyText={ready ? t('empty.noMileage') : t('empty.pick')}
          testId="mileage-chart"
        />
      </Card>
      <Card
        size="small"
        title={t('table.title')}
        extra={
          <Segmented<View>
            value={view}
            onChange={setView}
            options={[
              { value: 'days', label: t('table.perDay') },
              { value: 'devices', label: t('table.perDevice') },
            ]}
            data-testid="mileage-view"
          />
        }
      >
        <Table<TableRow>
          size="small"
          rowKey="key"
          columns={columns}
          dataSource={tableRows}
          loading={loading}
          scroll={{ x: 1100 }}
          locale={{
            emptyText: <Empty description={ready ? t('empty.noRows') : t('empty.pick')} />,
          }}
          pagination={{
            defaultPageSize: 15,
            showSizeChanger: true,
            pageSizeOptions: COUNT_PAGE_SIZES,
            showTotal: (total) => t('rows', { total }),
          }}
          summary={() =>
            rows.length > 0 && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="mileage-totals">
                  <Table.Summary.Cell index={0} colSpan={labelSpan}>
                    <Typography.Text strong>{t('total.label')}</Typography.Text>
                  </Table.Summary.Cell>
                  {summaryCells.map((text, i) => (
                    <Table.Summary.Cell key={columns[i + labelSpan].key} index={i + labelSpan} align="right">
                      <Typography.Text strong>{text}</Typography.Text>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
          data-testid="mileage-table"
        />
      </Card>
    </CountShell>
  );
}
