// /index/count/countStayDetail (main:stat_stay): where one device stopped for at least the chosen time, with
// totals, ACC-on share (idling vs parked) and every stay on the map; a click on a row shows it there.
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Empty, InputNumber, Row, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { findStays, type Stay } from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { Place } from './Place.tsx';
import { StayMap } from './StayMap.tsx';
import { COUNT_PAGE_SIZES, useFormat } from './useFormat.ts';
import { usePeriod } from './usePeriod.ts';

const DEFAULT_MIN_MINUTES = 3;

export default function StayPage() {
  const { t } = useTranslation('count');
  const f = useFormat();
  const { period, setPeriod, range, error: periodError, refresh } = usePeriod(1);
  const [terminalID, setTerminalID] = useState<string | undefined>();
  const [minMinutes, setMinMinutes] = useState(DEFAULT_MIN_MINUTES);
  const [chosen, setChosen] = useState<number | null>(null);
  const ready = range !== null && terminalID !== undefined;
  const query = useQuery({
    queryKey: ['count', 'stays', terminalID, range, minMinutes],
    queryFn: ({ signal }) =>
      findStays(terminalID as string, range as NonNullable<typeof range>, minMinutes * 60, signal),
    enabled: ready,
  });
  const stays = useMemo(() => query.data ?? [], [query.data]);
  const totalSeconds = stays.reduce((s, x) => s + x.seconds, 0);
  const accSeconds = stays.reduce((s, x) => s + x.accOnSeconds, 0);
  const loading = ready && query.isLoading;
  const picked = chosen !== null ? stays[chosen] : undefined;

  const columns: ColumnsType<Stay & { index: number }> = [
    { title: '#', key: 'n', width: 50, render: (_, s) => s.index + 1 },
    { title: t('column.start'), key: 'start', render: (_, s) => f.time(s.startTime) },
    { title: t('column.end'), key: 'end', render: (_, s) => f.time(s.endTime) },
    { title: t('column.duration'), key: 'duration', align: 'right', render: (_, s) => f.duration(s.seconds) },
    {
      title: t('column.accOn'),
      key: 'acc',
      align: 'right',
      render: (_, s) =>
        s.accOnSeconds > 0 ? <Tag color="orange">{f.duration(s.accOnSeconds)}</Tag> : <Tag>{t('parked')}</Tag>,
    },
    {
      title: t('column.position'),
      key: 'pos',
      render: (_, s) => <Place address={s.address} lat={s.lat} lon={s.lon} testId="stay-place" />,
    },
  ];

  return (
    <CountShell
      testId="count-stays"
      error={query.error}
      filters={
        <>
          <DeviceSelect value={terminalID} onChange={setTerminalID} placeholder={t('scope.pickDevice')} />
          <Space size={4}>
            <Typography.Text>{t('minStay')}</Typography.Text>
            <InputNumber
              min={1}
              max={1440}
              value={minMinutes}
              onChange={(v) => setMinMinutes(v ?? DEFAULT_MIN_MINUTES)}
              addonAfter={t('unit.min')}
              style={{ width: 130 }}
              data-testid="stay-min"
            />
          </Space>
          <DateSearch value={period} onChange={setPeriod} error={periodError} />
          <Button type="primary" icon={<SearchOutlined />} onClick={refresh} data-testid="count-search">
            {t('search')}
          </Button>
        </>
      }
    >
      <Row gutter={12}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('table.stays')} style={{ marginBottom: 12 }}>
            <Table<Stay & { index: number }>
              size="small"
              rowKey={(s) => `${s.startTime}/${s.index}`}
              columns={columns}
              dataSource={stays.map((s, index) => ({ ...s, index }))}
              loading={loading}
              onRow={(s) => ({
                onClick: () => setChosen(s.index),
                style: { cursor: 'pointer', background: s.index === chosen ? '#e6f4ff' : undefined },
                'data-testid': 'stay-row',
              })}
              locale={{ emptyText: <Empty description={ready ? t('empty.noStays') : t('empty.pickDevice')} /> }}
              pagination={{
                defaultPageSize: 15,
                showSizeChanger: true,
                pageSizeOptions: COUNT_PAGE_SIZES,
                showTotal: (n) => t('rows', { total: n }),
              }}
              summary={() =>
                stays.length > 0 && (
                  <Table.Summary fixed>
                    <Table.Summary.Row data-testid="stays-totals">
                      <Table.Summary.Cell index={0} colSpan={3}>
                        <Typography.Text strong>{t('total.stays', { count: stays.length })}</Typography.Text>
                      </Table.Summary.Cell>
                      <Table.Summary.Cell index={3} align="right">
                        <Typography.Text strong>{f.duration(totalSeconds)}</Typography.Text>
                      </Table.Summary.Cell>
                      <Table.Summary.Cell index={4} align="right">
                        <Typography.Text strong>{f.duration(accSeconds)}</Typography.Text>
                      </Table.Summary.Cell>
                      <Table.Summary.Cell index={5} />
                    </Table.Summary.Row>
                  </Table.Summary>
                )
              }
              data-testid="stays-table"
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('map.stays')}>
            {picked ? (
              <Descriptions size="small" column={2} style={{ marginBottom: 8 }} data-testid="stay-detail">
                <Descriptions.Item label={t('column.start')}>{f.time(picked.startTime)}</Descriptions.Item>
                <Descriptions.Item label={t('column.end')}>{f.time(picked.endTime)}</Descriptions.Item>
                <Descriptions.Item label={t('column.duration')}>{f.duration(picked.seconds)}</Descriptions.Item>
                <Descriptions.Item label={t('column.accOn')}>{f.duration(picked.accOnSeconds)}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Paragraph type="secondary">{t('map.hint')}</Typography.Paragraph>
            )}
            <div style={{ height: 460 }}>
              <StayMap stays={stays} chosen={chosen} onChoose={setChosen} />
            </div>
          </Card>
        </Col>
      </Row>
    </CountShell>
  );
}
