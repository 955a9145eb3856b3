// /index/riskPoint (main:risk_point): the risk point list (name, kind, point, radius, dwell time, note) beside a
// map showing them; add or edit with a click on the map; import from xlsx (with the template) or pasted rows;
// and the visits report (stays per device; a stay longer than the point's dwell time raised an alarm).
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { formatRadius } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BaseMap } from '../../map/BaseMap.tsx';
import { MapCircle } from '../../map/layers/MapCircle.tsx';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { FitTo } from '../fence/FenceShapes.tsx';
import {
  addRiskPoint,
  deleteRiskPoint,
  findRiskPoints,
  findVisits,
  importRiskPoints,
  RISK_KINDS,
  type RiskPoint,
  type RiskPointInput,
  type RiskVisit,
  updateRiskPoint,
} from './api.ts';
import { ShapeDrawLayer } from './ShapeDrawLayer.tsx';
import { formatTime, lastDay, type Window, WindowPicker } from './WindowPicker.tsx';

type Draft = Partial<RiskPointInput> & { id?: string };

export default function RiskPointPage() {
  const { t } = useTranslation('customerMap');
  return (
    <Tabs
      data-testid="risk-tabs"
      items={[
        { key: 'list', label: t('risk.title'), children: <RiskList /> },
        { key: 'visits', label: t('risk.visits'), children: <VisitsReport /> },
      ]}
    />
  );
}

function RiskList() {
  const { t } = useTranslation('customerMap');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [picking, setPicking] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<RiskPoint | null>(null);
  const list = useQuery({
    queryKey: ['riskPoints', search, page],
    queryFn: () => findRiskPoints({ name: search || undefined, ...page }),
    placeholderData: (p) => p,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['riskPoints'] });
  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body = {
        name: d.name ?? '',
        kind: d.kind ?? 'other',
        lat: d.lat ?? 0,
        lon: d.lon ?? 0,
        radius: d.radius ?? 300,
        note: d.note ?? '',
        dwellMinutes: d.dwellMinutes ?? 30,
      };
      return d.id ? updateRiskPoint({ id: d.id, ...body }) : addRiskPoint(body);
    },
    onSuccess: () => {
      message.success(t('common.saved'));
      setDraft(null);
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: deleteRiskPoint,
    onSuccess: () => {
      message.success(t('common.deleted'));
      refresh();
    },
    onError: (err: Error) => message.error(err.message),
  });
  const points = list.data?.list ?? [];
  const ready = draft?.name?.trim() && draft.lat !== undefined && draft.lon !== undefined;

  return (
    <div style={{ display: 'flex', gap: 12, height: 'calc(100vh - 190px)' }} data-testid="risk-page">
      <Card size="small" style={{ width: 560, overflow: 'auto' }}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Input.Search
            allowClear
            placeholder={t('common.name')}
            onSearch={(v) => {
              setSearch(v.trim());
              setPage((p) => ({ ...p, pageNum: 1 }));
            }}
            style={{ width: 180 }}
          />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDraft({ kind: 'market', radius: 300, dwellMinutes: 30, note: '' })}
            data-testid="risk-add"
          >
            {t('common.add')}
          </Button>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="risk-import">
            {t('risk.import')}
          </Button>
        </Space>
        {draft && (
          <Card size="small" style={{ marginBottom: 12 }} data-testid="risk-editor">
            <Form layout="vertical" onFinish={() => draft && save.mutate(draft)}>
              <Form.Item label={t('common.name')} required>
                <Input
                  value={draft.name}
                  maxLength={50}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                  data-testid="risk-name"
                />
              </Form.Item>
              <Space wrap>
                <Form.Item label={t('common.kind')}>
                  <Select
                    style={{ width: 160 }}
                    value={draft.kind}
                    onChange={(v) => setDraft({ ...draft, kind: v })}
                    options={RISK_KINDS.map((k) => ({ value: k, label: t(`risk.kinds.${k}`) }))}
                  />
                </Form.Item>
                <Form.Item label={t('common.radius')}>
                  <InputNumber
                    min={10}
                    max={100000}
                    addonAfter="m"
                    value={draft.radius}
                    onChange={(v) => setDraft({ ...draft, radius: Number(v ?? 10) })}
                    data-testid="risk-radius"
                  />
                </Form.Item>
                <Form.Item label={t('risk.dwell')}>
                  <InputNumber
                    min={1}
                    max={10080}
                    value={draft.dwellMinutes}
                    onChange={(v) => setDraft({ ...draft, dwellMinutes: Number(v ?? 1) })}
                  />
                </Form.Item>
              </Space>
              <Form.Item label={t('common.note')}>
                <Input.TextArea
                  rows={2}
                  maxLength={500}
                  value={draft.note}
                  onChange={(e) => setDraft({ ...draft, note: e.target.value })}
                />
              </Form.Item>
              <Space direction="vertical" style={{ marginBottom: 12 }}>
                <Button type={picking ? 'primary' : 'default'} onClick={() => setPicking(true)} data-testid="risk-pick">
                  {picking ? t('common.picking') : t('common.pickPoint')}
                </Button>
                {draft.lat !== undefined && draft.lon !== undefined && (
                  <Typography.Text type="secondary" data-testid="risk-point">
                    {draft.lat.toFixed(6)}, {draft.lon.toFixed(6)}
                  </Typography.Text>
                )}
              </Space>
              <Space style={{ display: 'flex' }}>
                <Button
                  type="primary"
                  htmlType="submit"
                  disabled={!ready}
                  loading={save.isPending}
                  data-testid="risk-save"
                >
                  {t('common.save')}
                </Button>
                <Button onClick={() => setDraft(null)}>{t('common.cancel')}</Button>
              </Space>
            </Form>
          </Card>
        )}
        <Table<RiskPoint>
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={points}
          data-testid="risk-list"
          onRow={(r) => ({ onClick: () => setSelected(r) })}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
          columns={[
            { title: t('common.name'), dataIndex: 'name' },
            { title: t('common.kind'), dataIndex: 'kind', render: (k: string) => <Tag>{t(`risk.kinds.${k}`)}</Tag> },
            { title: t('common.radius'), dataIndex: 'radius', render: (m: number) => formatRadius(m) },
            { title: t('risk.dwell'), dataIndex: 'dwellMinutes' },
            { title: t('risk.inside'), dataIndex: 'inside' },
            { title: t('common.note'), dataIndex: 'note', ellipsis: true },
            {
              title: t('common.actions'),
              render: (_, r) => (
                <Space size={0}>
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t('common.edit')}
                    onClick={() => setDraft({ ...r })}
                  />
                  <Popconfirm title={t('common.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <div style={{ flex: 1, position: 'relative' }}>
        <BaseMap>
          <ShapeDrawLayer
            mode={picking ? 'point' : null}
            onCancel={() => setPicking(false)}
            onDrawn={(d) => {
              setPicking(false);
              if (d.mode === 'point' && draft) setDraft({ ...draft, lat: d.lat, lon: d.lon });
            }}
          />
          {points.map((p) => (
            <MapCircle
              key={p.id}
              center={[p.lat, p.lon]}
              radius={p.radius}
              color={selected?.id === p.id ? '#1677ff' : '#cf1322'}
              tooltip={p.name}
            />
          ))}
          {draft?.lat !== undefined && draft.lon !== undefined && (
            <MapCircle center={[draft.lat, draft.lon]} radius={draft.radius ?? 300} color="#1677ff" />
          )}
          <FitTo
            fitKey={selected?.id ?? null}
            geometry={
              selected ? { shape: 'circle', lat: selected.lat, lon: selected.lon, radius: selected.radius } : null
            }
          />
        </BaseMap>
      </div>
      <ImportModal open={importing} onClose={() => setImporting(false)} onDone={refresh} />
    </div>
  );
}

function ImportModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('customerMap');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const run = useMutation({
    mutationFn: importRiskPoints,
    onSuccess: () => onDone(),
    onError: (err: Error) => message.error(err.message),
  });
  const readFile = async (file: File) => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    run.mutate({ file: { name: file.name, base64: btoa(binary) } });
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('risk.import')} destroyOnHidden width={640}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="risk-import-modal">
        <Typography.Paragraph type="secondary">{t('risk.importHint')}</Typography.Paragraph>
        <Button icon={<DownloadOutlined />} href="/api/riskPoint/template" data-testid="risk-template">
          {t('risk.template')}
        </Button>
        <Upload
          accept=".xlsx"
          showUploadList={false}
          beforeUpload={(file) => {
            void readFile(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('risk.uploadXlsx')}</Button>
        </Upload>
        <Input.TextArea
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('risk.pastePlaceholder')}
          data-testid="risk-import-text"
        />
        <Button
          type="primary"
          disabled={text.trim() === ''}
          loading={run.isPending}
          onClick={() => run.mutate({ text })}
          data-testid="risk-import-run"
        >
          {t('risk.importRun')}
        </Button>
        {run.data && (
          <Alert
            type={run.data.failed > 0 ? 'warning' : 'success'}
            data-testid="risk-import-result"
            message={t('risk.importResult', { added: run.data.added, failed: run.data.failed })}
            description={run.data.lines
              .filter((l) => !l.ok)
              .map((l) => t('risk.importLine', { line: l.line, field: l.field ?? '' }))
              .join('; ')}
          />
        )}
      </Space>
    </Modal>
  );
}

function VisitsReport() {
  const { t } = useTranslation('customerMap');
  const [terminalID, setTerminalID] = useState<string | undefined>();
  const [range, setRange] = useState<Window>(lastDay);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const visits = useQuery({
    queryKey: ['riskVisits', terminalID, range[0].valueOf(), range[1].valueOf(), page],
    queryFn: () => findVisits({ terminalID, startTime: range[0].valueOf(), endTime: range[1].valueOf(), ...page }),
    placeholderData: (p) => p,
  });
  const minutes = (ms: number) => Math.round(ms / 60_000);
  return (
    <Card size="small" data-testid="risk-visits">
      <Space wrap style={{ marginBottom: 12 }}>
        <DeviceSelect
          value={terminalID}
          onChange={setTerminalID}
          allowClear
          style={{ width: 260 }}
          testId="risk-visits-device"
        />
        <WindowPicker value={range} onChange={setRange} />
      </Space>
      <Table<RiskVisit>
        size="small"
        rowKey="id"
        loading={visits.isFetching}
        dataSource={visits.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: visits.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('common.device'), dataIndex: 'displayName' },
          { title: t('common.imei'), dataIndex: 'terminalID' },
          { title: t('risk.point'), dataIndex: 'riskPointName' },
          { title: t('common.kind'), dataIndex: 'kind', render: (k: string) => t(`risk.kinds.${k}`) },
          { title: t('point.entered'), dataIndex: 'enteredAt', render: formatTime },
          {
            title: t('point.left'),
            dataIndex: 'leftAt',
            render: (v: string | null) => (v ? formatTime(v) : <Tag color="red">{t('risk.stillInside')}</Tag>),
          },
          {
            title: t('risk.duration'),
            dataIndex: 'duration',
            render: (ms: number) => t('risk.minutes', { count: minutes(ms) }),
          },
          {
            title: t('risk.alarmed'),
            dataIndex: 'alarmed',
            render: (a: boolean) => (a ? <Tag color="red">{t('risk.alarmed')}</Tag> : null),
          },
        ]}
      />
    </Card>
  );
}
