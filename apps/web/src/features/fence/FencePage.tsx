// /index/fence (main:fence): the fence list beside a map; draw a circle or rectangle, choose the alarm type,
// open or close a fence, link devices and see them, delete (refused while devices are linked, spec §5).
// Opened with ?terminalID=… (from the monitoring popup) it lists that device's fences and links new ones to it.
// Access check (spec §4): inactive and expired devices cannot be linked to fences (the pickers refuse them with
// the spec's message); such a device in the address shows the message, its fences stay listed (reading them
// is harmless) and new fences are not linked to it.
import { DeleteOutlined, EditOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, formatRadius, PAGE_SIZE_OPTIONS, translate } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, type ButtonProps, Input, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BaseMap } from '../../map/BaseMap.tsx';
import { useDeviceOptions } from '../command/devices.ts';
import { accessRefusal } from '../monitor/access.ts';
import {
  addFence,
  deleteFence,
  type Fence,
  findFences,
  findFencesOfDevice,
  geometryOf,
  setFenceState,
  updateFence,
} from './api.ts';
import { DeviceMarkers, useDevicePosition } from './DeviceMarkers.tsx';
import { FenceDevicesModal } from './FenceDevicesModal.tsx';
import { FenceDrawLayer } from './FenceDrawLayer.tsx';
import { type FenceDraft, FenceEditor } from './FenceEditor.tsx';
import { FenceShape, FitTo } from './FenceShapes.tsx';
import { PlaceSearch } from './PlaceSearch.tsx';

const emptyDraft = (terminalID: string | null): FenceDraft => ({
  name: '',
  shape: 'circle',
  geometry: null,
  alarmType: 'inOut',
  state: 'opened',
  terminalIDs: terminalID ? [terminalID] : [],
});

export default function FencePage() {
  const { t, i18n } = useTranslation(['fence', 'customerMap']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const deviceFilter = params.get('terminalID');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<FenceDraft | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [devicesOf, setDevicesOf] = useState<Fence | null>(null);
  const devicePosition = useDevicePosition(deviceFilter);
  const deviceOptions = useDeviceOptions();
  const filterDevice = deviceFilter ? deviceOptions.data?.find((d) => d.terminalID === deviceFilter) : undefined;
  const filterRefusal = filterDevice ? accessRefusal('fence', filterDevice, Date.now()) : null;

  const list = useQuery({
    queryKey: ['fences', deviceFilter, search, page],
    queryFn: async ({ signal }) => {
      if (deviceFilter) {
        const fences = await findFencesOfDevice(deviceFilter, signal);
        return { total: fences.length, list: fences };
      }
      return findFences({ name: search || undefined, ...page }, signal);
    },
    placeholderData: (previous) => previous,
  });
  const fences = list.data?.list ?? [];
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['fences'] });
  const fail = (err: Error) => message.error(err.message);

  const save = useMutation({
    mutationFn: async (d: FenceDraft) => {
      if (!d.geometry) throw new Error(t('editor.drawFirst'));
      if (d.id) {
        const updated = await updateFence({ id: d.id, name: d.name.trim(), alarmType: d.alarmType, ...d.geometry });
        return updated.state === d.state ? updated : setFenceState(d.id, d.state);
      }
      return addFence({
        name: d.name.trim(),
        alarmType: d.alarmType,
        ...d.geometry,
        ...(d.state === 'closed' ? { state: 'closed' } : {}),
        terminalIDs: d.terminalIDs,
      });
    },
    onSuccess: (fence) => {
      message.success(t('saved'));
      setDraft(null);
      setDrawing(false);
      setSelected(fence.id);
      refresh();
    },
    onError: fail,
  });
  const toggle = useMutation({
    mutationFn: (f: Fence) => setFenceState(f.id, f.state === 'opened' ? 'closed' : 'opened'),
    onSuccess: refresh,
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (f: Fence) => deleteFence(f.id),
    onSuccess: () => {
      message.success(t('deleted'));
      refresh();
    },
    onError: fail,
  });

  const edit = (f: Fence) => {
    setSelected(f.id);
    setDrawing(false);
    setDraft({
      id: f.id,
      name: f.name,
      shape: f.shape,
      geometry: geometryOf(f),
      alarmType: f.alarmType,
      state: f.state,
      terminalIDs: [],
    });
  };

  const columns: ColumnsType<Fence> = [
    {
      title: t('column.name'),
      dataIndex: 'name',
      render: (name: string, f) => (
        <Typography.Link onClick={() => setSelected(f.id)} data-testid="fence-row-name">
          {name}
        </Typography.Link>
      ),
    },
    {
      title: t('column.shape'),
      key: 'shape',
      render: (_, f) =>
        f.shape === 'circle'
          ? `${t('shape.circle')} ${formatRadius(f.radius ?? 0)}`
          : f.shape === 'polygon'
            ? t('customerMap:fence.polygon')
            : t('shape.rectangle'),
    },
    { title: t('column.alarmType'), key: 'alarmType', render: (_, f) => t(`alarmType.${f.alarmType}`) },
    {
      title: t('column.state'),
      key: 'state',
      render: (_, f) => (
        <Switch
          size="small"
          checked={f.state === 'opened'}
          loading={toggle.isPending && toggle.variables?.id === f.id}
          onChange={() => toggle.mutate(f)}
          checkedChildren={t('state.opened')}
          unCheckedChildren={t('state.closed')}
          data-testid="fence-state-switch"
        />
      ),
    },
    {
      title: t('column.devices'),
      key: 'devices',
      render: (_, f) => (
        <Button size="small" icon={<TeamOutlined />} onClick={() => setDevicesOf(f)} data-testid="fence-devices-button">
          {f.deviceCount}
        </Button>
      ),
    },
    {
      title: t('column.actions'),
      key: 'actions',
      render: (_, f) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => edit(f)} aria-label={t('edit')} />
          <Popconfirm
            title={t('confirmDelete', { name: f.name })}
            okText={t('ok')}
            cancelText={t('cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'fence-delete-confirm' } as ButtonProps}
            onConfirm={() => remove.mutateAsync(f)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('delete')}
              data-testid="fence-delete"
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const selectedFence = fences.find((f) => f.id === selected) ?? null;
  const fitGeometry = draft?.geometry ?? (selectedFence ? geometryOf(selectedFence) : null);
  const fitKey = draft?.geometry
    ? `draft-${draft.id ?? 'new'}-${draft.shape}`
    : selectedFence
      ? selectedFence.id
      : null;

  return (
    <div style={{ display: 'flex', height: '100%' }} data-testid="fence-page">
      <div style={{ width: 460, padding: 16, overflow: 'auto', borderRight: '1px solid #f0f0f0', background: '#fff' }}>
        {draft ? (
          <FenceEditor
            draft={draft}
            onChange={setDraft}
            drawing={drawing}
            onDraw={() => setDrawing(true)}
            onStopDrawing={() => setDrawing(false)}
            onSave={() => save.mutate(draft)}
            onCancel={() => {
              setDraft(null);
              setDrawing(false);
            }}
            saving={save.isPending}
          />
        ) : (
          <>
            <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {t('title')}
              </Typography.Title>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => {
                  setDraft(emptyDraft(filterRefusal ? null : deviceFilter));
                  setDrawing(true);
                }}
                data-testid="fence-new"
              >
                {t('new')}
              </Button>
            </Space>
            {filterRefusal && (
              <Alert
                type="warning"
                showIcon
                title={translate(filterRefusal, i18n.language)}
                style={{ marginBottom: 12 }}
                data-testid="fence-access-refused"
              />
            )}
            {deviceFilter ? (
              <Tag closable onClose={() => setParams({})} style={{ marginBottom: 12 }}>
                {t('ofDevice', { terminalID: deviceFilter })}
              </Tag>
            ) : (
              <Input.Search
                allowClear
                placeholder={t('search')}
                onSearch={(v) => {
                  setSearch(v.trim());
                  setPage((p) => ({ ...p, pageNum: 1 }));
                }}
                style={{ marginBottom: 12 }}
              />
            )}
            <Table<Fence>
              rowKey="id"
              size="small"
              loading={list.isLoading}
              columns={columns}
              dataSource={fences}
              locale={{ emptyText: t('empty') }}
              rowClassName={(f) => (f.id === selected ? 'ant-table-row-selected' : '')}
              data-testid="fence-table"
              pagination={
                deviceFilter
                  ? false
                  : {
                      current: page.pageNum,
                      pageSize: page.pageSize,
                      total: list.data?.total ?? 0,
                      size: 'small',
                      pageSizeOptions: [...PAGE_SIZE_OPTIONS],
                      showSizeChanger: true,
                      showTotal: (total) => t('total', { total }),
                      onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
                    }
              }
            />
          </>
        )}
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        <BaseMap center={devicePosition}>
          <DeviceMarkers terminalIDs={[...(draft?.terminalIDs ?? []), ...(deviceFilter ? [deviceFilter] : [])]} />
          {fences
            .filter((f) => f.id !== draft?.id)
            .map((f) => (
              <FenceShape
                key={`${f.id}-${f.updatedAt}`}
                item={{ key: f.id, name: f.name, geometry: geometryOf(f), closed: f.state === 'closed' }}
                selected={f.id === selected}
              />
            ))}
          {draft?.geometry && (
            <FenceShape
              key="draft"
              item={{ key: 'draft', name: draft.name || t('editor.newTitle'), geometry: draft.geometry }}
              selected
            />
          )}
          <FenceDrawLayer
            shape={draft && drawing ? draft.shape : null}
            onDrawn={(geometry) => {
              setDraft((d) => (d ? { ...d, geometry } : d));
              setDrawing(false);
            }}
            onCancel={() => setDrawing(false)}
          />
          <FitTo geometry={fitGeometry} fitKey={fitKey} />
          <PlaceSearch />
        </BaseMap>
      </div>
      <FenceDevicesModal
        fence={devicesOf}
        onClose={() => {
          setDevicesOf(null);
          refresh();
        }}
      />
    </div>
  );
}
