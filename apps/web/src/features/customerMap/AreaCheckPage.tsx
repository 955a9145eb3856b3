// /index/checkCar/area (main:check_car): draw a rectangle or polygon on the map; list the devices inside it now
// (their last position) or during a past window of at most 24 hours (from the positions, server grid index).
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Radio, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BaseMap } from '../../map/BaseMap.tsx';
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { MapPolygon } from '../../map/layers/MapPolygon.tsx';
import { MapRectangle } from '../../map/layers/MapRectangle.tsx';
import { DEVICE_PIN } from '../fence/pinIcon.ts';
import { type AreaHit, type AreaShape, checkArea } from './api.ts';
import { CheckTabs } from './CheckTabs.tsx';
import { ShapeDrawLayer } from './ShapeDrawLayer.tsx';
import { formatTime, lastDay, type Window, WindowPicker } from './WindowPicker.tsx';

export default function AreaCheckPage() {
  const { t } = useTranslation('customerMap');
  const { message } = App.useApp();
  const [mode, setMode] = useState<'rectangle' | 'polygon'>('rectangle');
  const [drawing, setDrawing] = useState(false);
  const [shape, setShape] = useState<AreaShape | null>(null);
  const [when, setWhen] = useState<'now' | 'window'>('now');
  // null until the user picks a window: the default is the last 24 hours up to the moment of the search (not
  // of opening the page, which would leave out every fix since).
  const [range, setRange] = useState<Window | null>(null);
  const search = useMutation({
    mutationFn: () => {
      if (!shape) throw new Error(t('common.noShape'));
      const [from, to] = range ?? lastDay();
      return checkArea({
        ...shape,
        ...(when === 'window' ? { startTime: from.valueOf(), endTime: to.valueOf() } : {}),
      });
    },
    onError: (err: Error) => message.error(err.message),
  });
  const hits = search.data?.list ?? [];

  return (
    <div style={{ display: 'flex', gap: 12, height: 'calc(100vh - 140px)' }} data-testid="check-area-page">
      <Card size="small" style={{ width: 460, overflow: 'auto' }}>
        <CheckTabs active="area" />
        <Space direction="vertical" style={{ width: '100%' }}>
          <Radio.Group
            value={mode}
            optionType="button"
            onChange={(e) => {
              setMode(e.target.value);
              setShape(null);
            }}
            options={[
              { value: 'rectangle', label: t('common.rectangle') },
              { value: 'polygon', label: t('common.polygon') },
            ]}
          />
          <Button type={drawing ? 'primary' : 'default'} onClick={() => setDrawing(true)} data-testid="check-draw">
            {drawing ? t('common.drawing') : t('common.draw')}
          </Button>
          {drawing && (
            <Alert
              type="info"
              showIcon
              message={mode === 'polygon' ? t('common.hintPolygon') : t('common.hintRectangle')}
            />
          )}
          <Radio.Group
            value={when}
            onChange={(e) => setWhen(e.target.value)}
            options={[
              { value: 'now', label: t('common.now') },
              { value: 'window', label: t('common.window') },
            ]}
            data-testid="check-when"
          />
          {when === 'window' && <WindowPicker value={range ?? lastDay()} onChange={setRange} />}
          <Button
            type="primary"
            disabled={!shape}
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
          <Table<AreaHit>
            size="small"
            rowKey="deviceId"
            dataSource={hits}
            pagination={{ pageSize: 15 }}
            data-testid="check-results"
            columns={[
              { title: t('common.device'), dataIndex: 'displayName' },
              { title: t('common.imei'), dataIndex: 'terminalID' },
              ...(when === 'window'
                ? [
                    { title: t('common.firstTime'), dataIndex: 'firstTime', render: formatTime },
                    { title: t('common.lastTime'), dataIndex: 'lastTime', render: formatTime },
                  ]
                : [{ title: t('common.posTime'), dataIndex: 'lastTime', render: formatTime }]),
            ]}
          />
        </Space>
      </Card>
      <div style={{ flex: 1, position: 'relative' }}>
        <BaseMap>
          <ShapeDrawLayer
            mode={drawing ? mode : null}
            onCancel={() => setDrawing(false)}
            onDrawn={(d) => {
              setDrawing(false);
              if (d.mode === 'rectangle') setShape({ shape: 'rectangle', ...omitMode(d) });
              if (d.mode === 'polygon') setShape({ shape: 'polygon', points: d.points });
            }}
          />
          {shape?.shape === 'rectangle' && (
            <MapRectangle
              bounds={[
                [shape.minLat, shape.minLon],
                [shape.maxLat, shape.maxLon],
              ]}
              color="#1677ff"
            />
          )}
          {shape?.shape === 'polygon' && <MapPolygon points={shape.points} color="#1677ff" />}
          {hits.map((h) => (
            <MapMarker key={h.deviceId} position={[h.lat, h.lon]} icon={DEVICE_PIN} tooltip={h.displayName} />
          ))}
        </BaseMap>
      </div>
    </div>
  );
}

function omitMode<T extends { mode: unknown }>(d: T): Omit<T, 'mode'> {
  const { mode: _mode, ...rest } = d;
  return rest;
}
