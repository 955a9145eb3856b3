// /test/stock: stockDevice (the stock list), importImei (preset list), importDevice (devices into stock) and
// Removal (deliver devices in stock to an agent). "In stock" means a device row without an owner; "unused"
// a preset IMEI without a device row; "out" a delivered device (packages/domain factory/stock.ts).
import { DEVICE_MODELS, hasPermission, PROTOCOL_TYPES } from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import i18n from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../auth/store.ts';
import {
  fetchFactoryChecks,
  findStock,
  type ImportCountsResult,
  importImeis,
  importStockDevices,
  type StockItem,
  type StockState,
  saveFactoryChecks,
  stockAgents,
  stockOut,
} from './api.ts';
import { ImportCounts, ImportPanel, RejectedTable } from './ImportPanel.tsx';

const time = (v: string | null) => (v ? new Date(v).toLocaleString() : '');
const STATE_COLOR: Record<StockState, string> = { unused: 'default', in: 'green', out: 'blue' };

export function QcTag({ pass }: { pass: boolean | null }) {
  const { t } = useTranslation('production');
  if (pass === null) return <Tag>{t('qc.none')}</Tag>;
  return <Tag color={pass ? 'green' : 'red'}>{pass ? t('qc.pass') : t('qc.fail')}</Tag>;
}

export function StockDevicePage() {
  const { t } = useTranslation('production');
  const [filter, setFilter] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const list = useQuery({ queryKey: ['stock', filter, page], queryFn: () => findStock({ ...filter, ...page }) });
  return (
    <Card size="small" title={t('stock.title')}>
      <Form
        layout="inline"
        onFinish={(v) => {
          setFilter(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== '')));
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
        style={{ marginBottom: 12 }}
      >
        <Form.Item name="imei" label="IMEI">
          <Input allowClear data-testid="stock-imei" />
        </Form.Item>
        <Form.Item name="batch" label={t('field.batch')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="state" label={t('field.state')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={(['unused', 'in', 'out'] as const).map((s) => ({ value: s, label: t(`stock.state.${s}`) }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('action.search')}
        </Button>
      </Form>
      <Table<StockItem>
        size="small"
        rowKey="imei"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: 'IMEI', dataIndex: 'imei' },
          { title: t('field.model'), dataIndex: 'model' },
          { title: t('field.batch'), dataIndex: 'batch' },
          { title: 'ICCID', dataIndex: 'iccid' },
          {
            title: t('field.state'),
            dataIndex: 'state',
            render: (s: StockState) => <Tag color={STATE_COLOR[s]}>{t(`stock.state.${s}`)}</Tag>,
          },
          { title: t('field.qc'), dataIndex: 'qcPass', render: (p: boolean | null) => <QcTag pass={p} /> },
          { title: t('field.inAt'), dataIndex: 'inAt', render: time },
          { title: t('field.outAt'), dataIndex: 'outAt', render: time },
          { title: t('field.agent'), dataIndex: 'agentName' },
        ]}
      />
    </Card>
  );
}

function BatchFields({ withModel }: { withModel: boolean }) {
  const { t } = useTranslation('production');
  const label = (l: { cn: string; en: string }) => (i18n.language === 'cn' ? l.cn : l.en);
  return (
    <Space wrap>
      {withModel && (
        <Form.Item name="model" label={t('field.defaultModel')}>
          <Select
            allowClear
            showSearch
            style={{ width: 160 }}
            options={DEVICE_MODELS.map((m) => ({ value: m.name, label: m.name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="batch" label={t('field.batch')}>
        <Input style={{ width: 160 }} />
      </Form.Item>
      {withModel && (
        <Form.Item name="protocol" label={t('field.protocol')} initialValue={2}>
          <Select style={{ width: 200 }} options={PROTOCOL_TYPES.map((p) => ({ value: p.code, label: label(p) }))} />
        </Form.Item>
      )}
    </Space>
  );
}

export function ImportImeiPage() {
  const { t } = useTranslation('production');
  const qc = useQueryClient();
  return (
    <ImportPanel
      kind="stockImei"
      title={t('stock.importImei')}
      columnsHint={t('stock.imeiColumns')}
      extra={<BatchFields withModel={false} />}
      start={importImeis}
      onDone={() => void qc.invalidateQueries({ queryKey: ['stock'] })}
    />
  );
}

export function ImportDevicePage() {
  const { t } = useTranslation('production');
  const qc = useQueryClient();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <FactoryChecksSwitch />
      <ImportPanel
        kind="stockDevice"
        title={t('stock.importDevice')}
        columnsHint={t('stock.deviceColumns')}
        extra={<BatchFields withModel />}
        start={importStockDevices}
        onDone={() => void qc.invalidateQueries({ queryKey: ['stock'] })}
      />
    </Space>
  );
}

/**
 * The system setting "factory checks" (off on a new install): when on, the customers' device import refuses
 * IMEIs that are not preset, have no factory test record or failed QC, as this import does. Stock staff see
 * it; switching it needs the system configuration permission (the admin).
 */
function FactoryChecksSwitch() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const auth = useAuth();
  const canSet = hasPermission(auth?.permissions ?? [], ['main:system_config']);
  const qc = useQueryClient();
  const setting = useQuery({ queryKey: ['factoryChecks'], queryFn: fetchFactoryChecks });
  const [busy, setBusy] = useState(false);
  const change = async (enabled: boolean) => {
    setBusy(true);
    try {
      qc.setQueryData(['factoryChecks'], await saveFactoryChecks(enabled));
      message.success(t('stock.factoryChecksSaved'));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" data-testid="factory-checks">
      <Space wrap>
        <Switch
          checked={setting.data?.enabled ?? false}
          loading={setting.isLoading || busy}
          disabled={!canSet}
          onChange={(v) => void change(v)}
          data-testid="factory-checks-switch"
        />
        <Typography.Text strong>{t('stock.factoryChecks')}</Typography.Text>
        <Typography.Text type="secondary">{t('stock.factoryChecksHelp')}</Typography.Text>
      </Space>
    </Card>
  );
}

export function RemovalPage() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState('');
  const agents = useQuery({ queryKey: ['stockAgents', keyword], queryFn: () => stockAgents(keyword) });
  const [form] = Form.useForm<{ agentId: string; text: string }>();
  const [result, setResult] = useState<ImportCountsResult | null>(null);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      setResult(await stockOut(v.agentId, v.text));
      void qc.invalidateQueries({ queryKey: ['stock'] });
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t('stock.removal')}>
      <Form form={form} layout="vertical">
        <Form.Item name="agentId" label={t('field.agent')} rules={[{ required: true }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            data-testid="removal-agent"
            options={(agents.data ?? []).map((a) => ({ value: a.id, label: `${a.username} ${a.nickname}`.trim() }))}
          />
        </Form.Item>
        <Form.Item name="text" label={t('stock.imeiLines')} rules={[{ required: true }]}>
          <Input.TextArea rows={6} data-testid="removal-text" />
        </Form.Item>
        <Button type="primary" onClick={submit} loading={busy} data-testid="removal-submit">
          {t('stock.deliver')}
        </Button>
      </Form>
      {result && (
        <div style={{ marginTop: 16 }}>
          <ImportCounts result={result} />
          <RejectedTable rows={result.rejected} />
        </div>
      )}
    </Card>
  );
}
