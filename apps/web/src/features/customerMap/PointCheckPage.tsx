// /index/checkCar/point (main:check_car): pick a point on the map and a radius; list the devices that passed
// within it during a window of at most 24 hours, with their times of passage.
import { formatRadius } from '@carhere/domain';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BaseMap } from '../../map/BaseMap.tsx';
import { MapCircle } from '../../map/layers/MapCircle.tsx';
import { checkPoint, type Passage, type PointHit } from './api.ts';
import { CheckTabs } from './CheckTabs.tsx';
import { ShapeDrawLayer } from './ShapeDrawLayer.tsx';
import { formatTime, lastDay, type Window, WindowPicker } from './WindowPicker.tsx';

export const POINT_RADIUS = { min: 10, max: 5000 };

export default function PointCheckPage() {
  const { t } = useTranslation('customerMap');
  const { message } = App.useApp();
  const [picking, setPicking] = useState(false);
  const [point, setPoint] = useState<{ lat: number; lon: number } | null>(null);
  const [radius, setRadius] = useState(300);
  // null until the user picks a window: the default is the last 24 hours up to the moment of the search (not
  // of opening the page, which would leave out every fix since).
  const [range, setRange] = useState<Window | null>(null);
  const search = useMutation({
    mutationFn: () => {
      if (!point) throw new Error(t('common.noPoint'));
      const [from, to] = range ?? lastDay();
      return checkPoint({ ...point, radius, startTime: from.valueOf(), endTime: to.valueOf() });
    },
    onError: (err: Error) => message.error(err.message),
  });

  return (
    <div style={{ display: 'flex', gap: 12, height: 'calc(100vh - 140px)' }} data-testid="check-point-page">
      <Card size="small" style={{ width: 480, overflow: 'auto' }}>
        <CheckTabs active="point" />
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button type={picking ? 'primary' : 'default'} onClick={() => setPicking(true)} data-testid="check-pick">
            {picking ? t('common.picking') : t('common.pickPoint')}
          </Button>
          {point && (
            <Typography.Text type="secondary" data-testid="check-point">
              {point.lat.toFixed(6)}, {point.lon.toFixed(6)}
            </Typography.Text>
          )}
          <Form.Item label={t('common.radius')} extra={formatRadius(radius)} style={{ marginBottom: 0 }}>
            <InputNumber
              value={radius}
              min={POINT_RADIUS.min}
              max={POINT_RADIUS.max}
              addonAfter="m"
              onChange={(v) => setRadius(Number(v ?? POINT_RADIUS.min))}
              data-testid="check-radius"
            />
          </Form.Item>
          <WindowPicker value={range ?? lastDay()} onChange={setRange} />
          <Button
            type="primary"
            disabled={!point}
            loading={search.isPending}
            onClick={() => search.mutate()}
            data-testid="check-search"
          >
            {t('common.search')}
          </Button>
          {search.data?.cut && <Alert type="warning" message={t('common.cut')} />}
          {search.data && (
            <Typography.Text data-testid="check-total">
              {t('common.total', { count: search.data.total })}
            </Typography.Text>
          )}
          <Table<PointHit>
            size="small"
            rowKey="deviceId"
            dataSource={search.data?.list ?? []}
            pagination={{ pageSize: 15 }}
            data-testid="check-results"
            columns={[
              { title: t('common.device'), dataIndex: 'displayName' },
              { title: t('common.imei'), dataIndex: 'terminalID' },
              { title: t('point.passages'), render: (_, r) => r.passages.length },
              { title: t('point.firstPass'), render: (_, r) => formatTime(r.passages[0].enteredAt) },
            ]}
            expandable={{
              expandedRowRender: (r) => (
                <Table<Passage>
                  size="small"
                  rowKey="enteredAt"
                  pagination={false}
                  dataSource={r.passages}
                  columns={[
                    { title: t('point.entered'), dataIndex: 'enteredAt', render: formatTime },
                    { title: t('point.left'), dataIndex: 'leftAt', render: formatTime },
                    { title: t('point.closest'), dataIndex: 'closest', render: (m: number) => formatRadius(m) },
                    { title: t('point.fixes'), dataIndex: 'fixes' },
                  ]}
                />
              ),
            }}
          />
        </Space>
      </Card>
      <div style={{ flex: 1, position: 'relative' }}>
        <BaseMap>
          <ShapeDrawLayer
            mode={picking ? 'point' : null}
            onCancel={() => setPicking(false)}
            onDrawn={(d) => {
              setPicking(false);
              if (d.mode === 'point') setPoint({ lat: d.lat, lon: d.lon });
            }}
          />
          {point && <MapCircle center={[point.lat, point.lon]} radius={radius} color="#1677ff" />}
        </BaseMap>
      </div>
    </div>
  );
}
