// /index/count/countTrips (main:stat_stay, trips are the movement between stays): one device's trips with start,
// end, duration, distance, average and top speed and their totals; the chosen trip's speed as a line, from its
// recorded fixes.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../charts/Chart.tsx';
import { timeLineOption } from '../../charts/options.ts';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { findTracks } from '../track/api.ts';
import { trackFromAnswer } from '../track/data/trackData.ts';
import { findTrips, type Trip } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { Place } from './Place.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

type TripRow = Trip & { index: number };

/** At most this many points go to the chart (ECharts samples further with LTTB). */
const MAX_POINTS = 5000;

export function speedPoints(times: Float64Array, speeds: Float32Array, length: number): [number, number][] {
  const step = Math.max(1, Math.ceil(length / MAX_POINTS));
  const out: [number, number][] = [];
  for (let i = 0; i < length; i += step) out.push([times[i], Math.round(speeds[i] * 10) / 10]);
  return out;
}

export default function TripsPage() {
  const { t } = useTranslation('count');
  const { t: tc } = useTranslation('custself');
  const f = useFormat();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(1);
  const [terminalID, setTerminalID] = useState<string | undefined>();
  const [chosen, setChosen] = useState(0);
  const ready = range !== null && terminalID !== undefined;
  const query = useQuery({
    queryKey: ['count', 'trips', terminalID, range],
    queryFn: ({ signal }) => findTrips(terminalID as string, range as NonNullable<typeof range>, signal),
    enabled: ready,
  });
  const trips = useMemo(() => query.data ?? [], [query.data]);
  const trip = trips[chosen] ?? trips[0];
  const speed = useQuery({
    queryKey: ['count', 'tripSpeed', trip?.terminalID, trip?.startTime, trip?.endTime],
    queryFn: async ({ signal }) => {
      const t0 = Date.parse((trip as Trip).startTime);
      const t1 = Date.parse((trip as Trip).endTime);
      const answers = await findTracks([(trip as Trip).terminalID], t0, t1, signal);
      const track = answers[0] ? trackFromAnswer(answers[0]) : null;
      return track ? speedPoints(track.times, track.speeds, track.length) : [];
    },
    enabled: trip !== undefined,
  });
  const totals = useMemo(
    () => ({
      distance: trips.reduce((s, x) => s + x.distance, 0),
      seconds: trips.reduce((s, x) => s + x.seconds, 0),
      maxSpeed: trips.reduce((m, x) => Math.max(m, x.maxSpeed), 0),
    }),
    [trips],
  );
  const loading = ready && query.isLoading;

  const columns: ColumnsType<TripRow> = [
    { title: '#', key: 'n', width: 50, render: (_, r) => r.index + 1 },
    { title: t('column.start'), key: 'start', render: (_, r) => f.time(r.startTime) },
    { title: t('column.end'), key: 'end', render: (_, r) => f.time(r.endTime) },
    {
      title: t('column.from'),
      key: 'from',
      render: (_, r) => <Place address={r.startAddress} lat={r.startLat} lon={r.startLon} testId="trip-from" />,
    },
    {
      title: t('column.to'),
      key: 'to',
      render: (_, r) => <Place address={r.endAddress} lat={r.endLat} lon={r.endLon} testId="trip-to" />,
    },
    { title: t('column.duration'), key: 'duration', align: 'right', render: (_, r) => f.duration(r.seconds) },
    { title: t('column.distance'), key: 'distance', align: 'right', render: (_, r) => f.km(r.distance) },
    { title: t('column.avgSpeed'), key: 'avg', align: 'right', render: (_, r) => f.speed(r.avgSpeed) },
    { title: t('column.maxSpeed'), key: 'max', align: 'right', render: (_, r) => f.speed(r.maxSpeed) },
    { title: tc('drivers.driver'), key: 'driver', render: (_, r) => r.driver || '-' },
  ];

  return (
    <CountShell
      testId="count-trips"
      error={query.error}
      filters={
        <>
          <DeviceSelect
            value={terminalID}
            onChange={(v) => {
              setTerminalID(v);
              setChosen(0);
            }}
            placeholder={t('scope.pickDevice')}
          />
          <DateSearch value={period} onChange={setPeriod} error={periodError} />
          <Button type="primary" icon={<SearchOutlined />} onClick={refresh} data-testid="count-search">
            {t('search')}
          </Button>
        </>
      }
    >
      <Card
        size="small"
        title={trip ? t('chart.speedOfTrip', { n: trips.indexOf(trip) + 1 }) : t('chart.speed')}
        style={{ marginBottom: 12 }}
      >
        {speed.error && <Typography.Text type="danger">{(speed.error as Error).message}</Typography.Text>}
        <Chart
          option={timeLineOption(
            t('column.speed'),
            speed.data ?? [],
            (v) => f.speed(v),
            (ms) => f.hm(ms),
          )}
          loading={loading || (trip !== undefined && speed.isLoading)}
          empty={!trip || (speed.data?.length ?? 0) === 0}
          emptyText={!ready ? t('empty.pickDevice') : trip ? t('empty.noFixes') : t('empty.noTrips')}
          height={260}
          testId="speed-chart"
        />
      </Card>
      <Card size="small" title={t('table.trips')}>
        <Table<TripRow>
          size="small"
          rowKey={(r) => `${r.startTime}/${r.index}`}
          columns={columns}
          dataSource={trips.map((x, index) => ({ ...x, index }))}
          loading={loading}
          onRow={(r) => ({
            onClick: () => setChosen(r.index),
            style: { cursor: 'pointer', background: trip && r.index === trips.indexOf(trip) ? '#e6f4ff' : undefined },
            'data-testid': 'trip-row',
          })}
          locale={{ emptyText: <Empty description={ready ? t('empty.noTrips') : t('empty.pickDevice')} /> }}
          pagination={{
            defaultPageSize: 15,
            showSizeChanger: true,
            pageSizeOptions: COUNT_PAGE_SIZES,
            showTotal: (n) => t('rows', { total: n }),
          }}
          summary={() =>
            trips.length > 0 && (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="trips-totals">
                  <Table.Summary.Cell index={0} colSpan={3}>
                    <Typography.Text strong>{t('total.trips', { count: trips.length })}</Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} colSpan={2} />
                  <Table.Summary.Cell index={5} align="right">
                    <Typography.Text strong>{f.duration(totals.seconds)}</Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">
                    <Typography.Text strong>{f.km(totals.distance)}</Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={7} align="right">
                    <Typography.Text strong>
                      {f.speed(totals.seconds > 0 ? totals.distance / 1000 / (totals.seconds / 3600) : 0)}
                    </Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={8} align="right">
                    <Typography.Text strong>{f.speed(totals.maxSpeed)}</Typography.Text>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )
          }
          data-testid="trips-table"
        />
      </Card>
    </CountShell>
  );
}
