// /index/count/countBattery (main:stat): battery status (spec §1, §2 "battery status"; issue 21) — per device the
// last battery level, pack voltage and charging state, the devices at or under a threshold, and battery alarms
// per day (low battery and the battery-pack alarms 50–80) as stacked bars; a row opens its battery pack detail.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Col, Empty, InputNumber, Row, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../charts/Chart.tsx';
import { barOption } from '../../charts/options.ts';
import { useAlarmLabel } from '../alarms/labels.ts';
import { type BatteryRow, findBattery, findBatteryAlarms } from './api.ts';
import { BatteryPackDrawer } from './BatteryPackDrawer.tsx';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { DEFAULT_SCOPE, ScopePicker, type ScopeValue, scopeReady, toScope } from './ScopePicker.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

const STATE_COLOR: Record<string, string> = { charging: 'green', discharging: 'blue', idle: 'default' };
/** Default threshold (%): the ingest's low-battery level. */
const DEFAULT_THRESHOLD = 10;

export default function BatteryPage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const label = useAlarmLabel();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(7);
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const [threshold, setThreshold] = useState(DEFAULT_THRESHOLD);
  const [lowOnly, setLowOnly] = useState(false);
  const [pack, setPack] = useState<BatteryRow | null>(null);
  const ready = scopeReady(scope);
  const states = useQuery({
    queryKey: ['count', 'battery', toScope(scope), threshold, range],
    queryFn: ({ signal }) => findBattery(toScope(scope), threshold, signal),
    enabled: ready,
  });
  const alarms = useQuery({
    queryKey: ['count', 'batteryAlarms', toScope(scope), range],
    queryFn: ({ signal }) => findBatteryAlarms(toScope(scope), range as NonNullable<typeof range>, signal),
    enabled: ready && range !== null,
  });
  const all = useMemo(() => states.data?.list ?? [], [states.data]);
  const rows = useMemo(() => (lowOnly ? all.filter((r) => r.low) : all), [all, lowOnly]);
  const charging = all.filter((r) => r.state === 'charging').length;
  const chart = useMemo(() => {
    const list = alarms.data ?? [];
    const days = [...new Set(list.map((r) => r.statsticDate))].sort();
    const types = [...new Set(list.map((r) => r.type))].sort((a, b) => a - b);
    return barOption(
      days,
      types.map((type) => ({
        name: label(type),
        values: days.map((d) => list.find((r) => r.statsticDate === d && r.type === type)?.count ?? 0),
      })),
      (v) => f.num(v),
    );
  }, [alarms.data, label, f]);

  const columns: ColumnsType<BatteryRow> = [
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
    {
      title: t('battery.level'),
      key: 'level',
      align: 'right',
      render: (_, r) =>
        r.battery === null ? '-' : <Tag color={r.low ? 'red' : 'default'}>{`${f.num(r.battery)} %`}</Tag>,
    },
    {
      title: t('battery.voltage'),
      key: 'voltage',
      align: 'right',
      render: (_, r) => (r.voltage === null ? '-' : `${f.fixed(r.voltage, 2)} V`),
    },
    {
      title: t('battery.state'),
      key: 'state',
      render: (_, r) =>
        r.state === null ? '-' : <Tag color={STATE_COLOR[r.state]}>{t(`battery.states.${r.state}`)}</Tag>,
    },
    { title: t('battery.time'), key: 'time', render: (_, r) => (r.time ? f.time(r.time) : '-') },
    {
      title: t('column.actions'),
      key: 'pack',
      render: (_, r) =>
        r.hasPack ? (
          <Button size="small" type="link" onClick={() => setPack(r)} data-testid="battery-pack-open">
            {t('battery.packDetail')}
          </Button>
        ) : null,
    },
  ];

  return (
    <CountShell
      testId="count-battery"
      error={states.error ?? alarms.error}
      filters={
        <>
          <ScopePicker value={scope} onChange={setScope} />
          <span>
            {t('battery.threshold')}{' '}
            <InputNumber
              min={0}
              max={100}
              value={threshold}
              onChange={(v) => setThreshold(typeof v === 'number' ? v : DEFAULT_THRESHOLD)}
              addonAfter="%"
              style={{ width: 120 }}
              data-testid="battery-threshold"
            />
          </span>
          <Checkbox checked={lowOnly} onChange={(e) => setLowOnly(e.target.checked)} data-testid="battery-low-only">
            {t('battery.lowOnly')}
          </Checkbox>
          <DateSearch value={period} onChange={setPeriod} error={periodError} />
          <Button
            type="primary"
            icon={<SearchOutlined />}
            onClick={() => {
              refresh();
              void states.refetch();
            }}
            data-testid="count-search"
          >
            {t('search')}
          </Button>
        </>
      }
    >
      <Row gutter={12} style={{ marginBottom: 12 }}>
        {(
          [
            ['devices', t('total.devices'), all.length],
            ['low', t('battery.lowCount', { threshold }), states.data?.lowCount ?? 0],
            ['charging', t('battery.states.charging'), charging],
          ] as const
        ).map(([key, title, value]) => (
          <Col key={key} xs={8}>
            <Card size="small" loading={ready && states.isLoading}>
              <Statistic title={title} value={value} valueStyle={{ fontSize: 20 }} data-testid={`battery-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card size="small" title={t('battery.alarmsPerDay')} style={{ marginBottom: 12 }}>
        <Chart
          option={chart}
          loading={ready && alarms.isLoading}
          empty={(alarms.data ?? []).length === 0}
          emptyText={t('battery.noAlarms')}
          testId="battery-alarms-chart"
        />
      </Card>
      <Card size="small" title={t('battery.title')}>
        <Table<BatteryRow>
          size="small"
          rowKey="terminalID"
          columns={columns}
          dataSource={rows}
          loading={ready && states.isLoading}
          locale={{ emptyText: <Empty description={t('battery.empty')} /> }}
          pagination={{ defaultPageSize: 15, showSizeChanger: true, pageSizeOptions: COUNT_PAGE_SIZES }}
          data-testid="battery-table"
        />
      </Card>
      {pack && (
        <BatteryPackDrawer terminalID={pack.terminalID} title={pack.displayName} onClose={() => setPack(null)} />
      )}
    </CountShell>
  );
}
