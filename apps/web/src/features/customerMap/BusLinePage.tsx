// /index/bus/busLineList (main:bus): bus routes — the list; draw or edit a route on the map (stops in order by
// clicking, each with a name and a radius; the polyline drawn or taken through the stops); assign buses; and
// a route's buses live with the next stop and the ETA.
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, List, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BaseMap } from '../../map/BaseMap.tsx';
import { markerIcon } from '../../map/layers/carIcon.ts';
import { MapCircle } from '../../map/layers/MapCircle.tsx';
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { MapPolyline } from '../../map/layers/MapPolyline.tsx';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { addBusRoute, type BusRoute, type BusStop, deleteBusRoute, editBusRoute, findBusRoutes } from './api.ts';
import { BusLiveTable, useBusLive } from './BusLive.tsx';
import { ShapeDrawLayer } from './ShapeDrawLayer.tsx';

interface Draft {
  id?: string;
  name: string;
  stops: BusStop[];
  polyline: [number, number][];
  terminalIDs: string[];
}

const BUS_ICON = markerIcon('#1677ff', 'B');

export default function BusLinePage() {
  const { t } = useTranslation('customerMap');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const routes = useQuery({ queryKey: ['busRoutes'], queryFn: findBusRoutes });
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [mode, setMode] = useState<'point' | 'line' | null>(null);
  const live = useBusLive(draft ? null : selected);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['busRoutes'] });
  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body = { name: d.name.trim(), stops: d.stops, polyline: d.polyline, terminalIDs: d.terminalIDs };
      return d.id ? editBusRoute({ id: d.id, ...body }) : addBusRoute(body);
    },
    onSuccess: (r) => {
      message.success(t('common.saved'));
      setDraft(null);
      setMode(null);
      setSelected(r.id);
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: deleteBusRoute,
    onSuccess: () => {
      setSelected(null);
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const shown: BusRoute | Draft | undefined = draft ?? routes.data?.find((r) => r.id === selected);
  const line = shown
    ? shown.polyline.length >= 2
      ? shown.polyline
      : shown.stops.map((s) => [s.lat, s.lon] as [number, number])
    : [];
  const setStop = (i: number, patch: Partial<BusStop>) =>
    draft && setDraft({ ...draft, stops: draft.stops.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  return (
    <div style={{ display: 'flex', gap: 12, height: 'calc(100vh - 140px)' }} data-testid="bus-page">
      <Card size="small" style={{ width: 520, overflow: 'auto' }}>
        {!draft && (
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              style={{ marginBottom: 12 }}
              onClick={() => {
                setDraft({ name: '', stops: [], polyline: [], terminalIDs: [] });
                setMode('point');
              }}
              data-testid="bus-add"
            >
              {t('common.add')}
            </Button>
            <Table<BusRoute>
              size="small"
              rowKey="id"
              loading={routes.isFetching}
              dataSource={routes.data ?? []}
              pagination={{ pageSize: 10 }}
              data-testid="bus-list"
              rowClassName={(r) => (r.id === selected ? 'ant-table-row-selected' : '')}
              onRow={(r) => ({ onClick: () => setSelected(r.id) })}
              columns={[
                { title: t('common.name'), dataIndex: 'name' },
                { title: t('bus.stops'), render: (_, r) => r.stops.length },
                { title: t('bus.buses'), render: (_, r) => r.devices.length },
                {
                  title: t('common.actions'),
                  render: (_, r) => (
                    <Space size={0}>
                      <Button
                        type="link"
                        size="small"
                        icon={<EditOutlined />}
                        aria-label={t('common.edit')}
                        onClick={(e) => {
                          e.stopPropagation();
                          setDraft({
                            id: r.id,
                            name: r.name,
                            stops: r.stops,
                            polyline: r.polyline,
                            terminalIDs: r.devices.map((d) => d.terminalID),
                          });
                        }}
                      />
                      <Popconfirm title={t('common.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                        <Button
                          type="link"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('common.delete')}
                          onClick={(e) => e.stopPropagation()}
                        />
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]}
            />
            {live.data && (
              <>
                <Typography.Title level={5}>{t('bus.live', { name: live.data.route.name })}</Typography.Title>
                <BusLiveTable route={live.data.route} buses={live.data.buses} />
              </>
            )}
          </>
        )}
        {draft && (
          <Form layout="vertical" data-testid="bus-editor" onFinish={() => save.mutate(draft)}>
            <Form.Item label={t('common.name')} required>
              <Input
                value={draft.name}
                maxLength={50}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                data-testid="bus-name"
              />
            </Form.Item>
            <Space wrap style={{ marginBottom: 8 }}>
              <Button
                type={mode === 'point' ? 'primary' : 'default'}
                onClick={() => setMode(mode === 'point' ? null : 'point')}
                data-testid="bus-add-stops"
              >
                {mode === 'point' ? t('bus.addingStops') : t('bus.addStops')}
              </Button>
              <Button
                type={mode === 'line' ? 'primary' : 'default'}
                onClick={() => setMode('line')}
                data-testid="bus-draw-line"
              >
                {t('bus.drawLine')}
              </Button>
              {draft.polyline.length > 0 && (
                <Button onClick={() => setDraft({ ...draft, polyline: [] })}>{t('bus.lineThroughStops')}</Button>
              )}
            </Space>
            <Typography.Paragraph type="secondary">
              {mode === 'line' ? t('bus.hintLine') : t('bus.hintStops')}
            </Typography.Paragraph>
            <List
              size="small"
              bordered
              data-testid="bus-stops"
              dataSource={draft.stops}
              locale={{ emptyText: t('bus.noStops') }}
              renderItem={(s, i) => (
                <List.Item
                  actions={[
                    <Button
                      key="del"
                      type="link"
                      danger
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      onClick={() => setDraft({ ...draft, stops: draft.stops.filter((_, j) => j !== i) })}
                    />,
                  ]}
                >
                  <Space>
                    <Typography.Text>{i + 1}.</Typography.Text>
                    <Input
                      size="small"
                      value={s.name}
                      maxLength={50}
                      onChange={(e) => setStop(i, { name: e.target.value })}
                    />
                    <InputNumber
                      size="small"
                      min={10}
                      max={1000}
                      value={s.radius}
                      addonAfter="m"
                      onChange={(v) => setStop(i, { radius: Number(v ?? 50) })}
                    />
                  </Space>
                </List.Item>
              )}
            />
            <Form.Item label={t('bus.buses')} style={{ marginTop: 12 }}>
              <DeviceSelect
                multiple
                value={draft.terminalIDs}
                onChange={(v) => setDraft({ ...draft, terminalIDs: v })}
                testId="bus-devices"
              />
            </Form.Item>
            <Space>
              <Button
                type="primary"
                htmlType="submit"
                loading={save.isPending}
                disabled={
                  draft.name.trim() === '' || draft.stops.length < 2 || draft.stops.some((s) => s.name.trim() === '')
                }
                data-testid="bus-save"
              >
                {t('common.save')}
              </Button>
              <Button
                onClick={() => {
                  setDraft(null);
                  setMode(null);
                }}
              >
                {t('common.cancel')}
              </Button>
            </Space>
          </Form>
        )}
      </Card>
      <div style={{ flex: 1, position: 'relative' }}>
        <BaseMap>
          <ShapeDrawLayer
            mode={draft ? mode : null}
            onCancel={() => setMode(null)}
            onDrawn={(d) => {
              if (!draft) return;
              if (d.mode === 'point')
                setDraft((cur) =>
                  cur
                    ? {
                        ...cur,
                        stops: [
                          ...cur.stops,
                          { name: t('bus.stopN', { n: cur.stops.length + 1 }), lat: d.lat, lon: d.lon, radius: 50 },
                        ],
                      }
                    : cur,
                );
              if (d.mode === 'line') {
                setDraft((cur) => (cur ? { ...cur, polyline: d.points } : cur));
                setMode(null);
              }
            }}
          />
          {line.length >= 2 && <MapPolyline positions={line} color="#1677ff" weight={4} />}
          {shown?.stops.map((s, i) => (
            <MapCircle
              key={`${s.lat},${s.lon},${s.name}`}
              center={[s.lat, s.lon]}
              radius={s.radius}
              color="#389e0d"
              tooltip={`${i + 1}. ${s.name}`}
            />
          ))}
          {!draft &&
            live.data?.buses
              .filter((b) => b.lat !== null && b.lon !== null)
              .map((b) => (
                <MapMarker
                  key={b.deviceId}
                  position={[b.lat as number, b.lon as number]}
                  icon={BUS_ICON}
                  tooltip={b.displayName}
                />
              ))}
        </BaseMap>
      </div>
    </div>
  );
}
