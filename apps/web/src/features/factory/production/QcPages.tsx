// /test/qc (qcSearch, qcExport) and /test/exportSerialResult (serialResultManager v1, serialResultManagerV2,
// serialGPSResultManager, the v1 and v2 upload screens, configList: the pass criteria per model).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Criteria,
  deleteCriteria,
  findCriteria,
  findQc,
  type QcFilter,
  type QcItem,
  type QcKind,
  queryOf,
  saveCriteria,
  type UploadOutcome,
  uploadV1,
  uploadV2,
} from './api.ts';

interface FilterValues {
  imei?: string;
  batch?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  pass?: 'pass' | 'fail';
}

function toFilter(v: FilterValues, kind?: QcKind): QcFilter {
  return {
    kind,
    imei: v.imei?.trim() || undefined,
    batch: v.batch?.trim() || undefined,
    from: v.range?.[0]?.startOf('day').toISOString(),
    to: v.range?.[1]?.endOf('day').toISOString(),
    pass: v.pass === undefined ? undefined : v.pass === 'pass',
  };
}

function FilterForm({ onSearch, extra }: { onSearch: (v: FilterValues) => void; extra?: React.ReactNode }) {
  const { t } = useTranslation('production');
  return (
    <Form layout="inline" onFinish={onSearch} style={{ marginBottom: 12 }}>
      <Form.Item name="imei" label="IMEI">
        <Input allowClear placeholder={t('qc.imeiPrefix')} data-testid="qc-imei" />
      </Form.Item>
      <Form.Item name="batch" label={t('field.batch')}>
        <Input allowClear />
      </Form.Item>
      <Form.Item name="range" label={t('field.testedAt')}>
        <DatePicker.RangePicker />
      </Form.Item>
      <Form.Item name="pass" label={t('field.result')}>
        <Select
          allowClear
          style={{ width: 110 }}
          options={[
            { value: 'pass', label: t('qc.pass') },
            { value: 'fail', label: t('qc.fail') },
          ]}
        />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" data-testid="qc-search">
          {t('action.search')}
        </Button>
        {extra}
      </Space>
    </Form>
  );
}

function ResultsTable({
  url,
  kind,
  exportable,
}: {
  url: '/qc/find' | '/serials/find';
  kind?: QcKind;
  exportable?: boolean;
}) {
  const { t } = useTranslation('production');
  const [filter, setFilter] = useState<QcFilter>({ kind });
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const list = useQuery({ queryKey: ['qc', url, filter, page], queryFn: () => findQc(url, { ...filter, ...page }) });
  const exportHref = `/api/qc/export?${queryOf({ ...filter, pass: filter.pass })}`;
  return (
    <>
      <FilterForm
        onSearch={(v) => {
          setFilter(toFilter(v, kind));
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
        extra={
          exportable ? (
            <Button href={exportHref} data-testid="qc-export">
              {t('action.export')}
            </Button>
          ) : null
        }
      />
      {list.data?.more && <Alert type="info" showIcon message={t('qc.more')} style={{ marginBottom: 8 }} />}
      <Table<QcItem>
        size="small"
        rowKey="id"
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
          { title: t('field.station'), dataIndex: 'station' },
          { title: t('field.firmware'), dataIndex: 'firmware' },
          { title: 'GSM', dataIndex: 'gsm' },
          { title: t('field.satellites'), dataIndex: 'satellites' },
          { title: 'C/N0', dataIndex: 'cn0' },
          { title: 'TTFF', dataIndex: 'ttff' },
          {
            title: t('field.result'),
            dataIndex: 'pass',
            render: (p: boolean, r) => (
              <Space size={2} wrap>
                <Tag color={p ? 'green' : 'red'}>{p ? t('qc.pass') : t('qc.fail')}</Tag>
                {r.failures.map((f) => (
                  <Tag key={f}>{t(`qc.failure.${f}`)}</Tag>
                ))}
              </Space>
            ),
          },
          { title: t('field.testedAt'), dataIndex: 'testedAt', render: (v: string) => new Date(v).toLocaleString() },
        ]}
      />
    </>
  );
}

export function QcSearchPage() {
  const { t } = useTranslation('production');
  return (
    <Card size="small" title={t('qc.searchTitle')}>
      <ResultsTable url="/qc/find" />
    </Card>
  );
}

export function QcExportPage() {
  const { t } = useTranslation('production');
  const [filter, setFilter] = useState<QcFilter>({});
  return (
    <Card size="small" title={t('qc.exportTitle')}>
      <p>{t('qc.exportHint')}</p>
      <FilterForm onSearch={(v) => setFilter(toFilter(v))} />
      <Button type="primary" href={`/api/qc/export?${queryOf({ ...filter })}`} data-testid="qc-export">
        {t('action.exportXlsx')}
      </Button>
    </Card>
  );
}

const serialPage = (kind: QcKind, titleKey: string) =>
  function SerialResultsPage() {
    const { t } = useTranslation('production');
    return (
      <Card size="small" title={t(titleKey)}>
        <ResultsTable url="/serials/find" kind={kind} />
      </Card>
    );
  };

export const SerialResultV1Page = serialPage('v1', 'serial.v1Results');
export const SerialResultV2Page = serialPage('v2', 'serial.v2Results');
export const SerialGpsResultPage = serialPage('gps', 'serial.gpsResults');

function OutcomeView({ outcome }: { outcome: UploadOutcome }) {
  const { t } = useTranslation('production');
  return (
    <div style={{ marginTop: 12 }} data-testid="upload-outcome">
      <Typography.Text>
        {t('serial.outcome', { accepted: outcome.accepted, passed: outcome.passed, failed: outcome.failed })}
      </Typography.Text>
      {outcome.errors.map((e) => (
        <Alert key={e.line} type="warning" message={e.message} style={{ marginTop: 4 }} />
      ))}
    </div>
  );
}

const V1_SAMPLE = '868120301234567,Gt06,V2.1,24,9,43,PASS,B2026-11,32';
const V2_SAMPLE = JSON.stringify(
  {
    station: 'LINE-3',
    batch: 'B2026-11',
    type: 'function',
    results: [
      {
        imei: '868120301234567',
        model: 'Gt06',
        firmware: 'V2.1',
        gsm: { csq: 24 },
        gps: { satellites: 9, bestCn0: 43, ttffSeconds: 32 },
        pass: true,
      },
    ],
  },
  null,
  2,
);

export function UploadV1Page() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [station, setStation] = useState('');
  const [outcome, setOutcome] = useState<UploadOutcome | null>(null);
  const submit = async () => {
    try {
      setOutcome(await uploadV1(text, station));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Card size="small" title={t('serial.v1Upload')}>
      <Typography.Paragraph>{t('serial.v1Format')}</Typography.Paragraph>
      <Typography.Paragraph code copyable>
        {V1_SAMPLE}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('serial.apiHint', { url: '/api/serials/v1' })}</Typography.Paragraph>
      <Input
        placeholder={t('field.station')}
        value={station}
        onChange={(e) => setStation(e.target.value)}
        style={{ width: 200, marginBottom: 8 }}
      />
      <Input.TextArea rows={8} value={text} onChange={(e) => setText(e.target.value)} data-testid="v1-text" />
      <Button type="primary" style={{ marginTop: 8 }} onClick={submit} data-testid="v1-upload">
        {t('serial.upload')}
      </Button>
      {outcome && <OutcomeView outcome={outcome} />}
    </Card>
  );
}

export function UploadV2Page() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [text, setText] = useState(V2_SAMPLE);
  const [outcome, setOutcome] = useState<UploadOutcome | null>(null);
  const submit = async () => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      message.error(t('serial.badJson'));
      return;
    }
    try {
      setOutcome(await uploadV2(body));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Card size="small" title={t('serial.v2Upload')}>
      <Typography.Paragraph>{t('serial.v2Format')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('serial.apiHint', { url: '/api/serials/v2' })}</Typography.Paragraph>
      <Input.TextArea
        rows={14}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="v2-text"
        style={{ fontFamily: 'monospace' }}
      />
      <Button type="primary" style={{ marginTop: 8 }} onClick={submit} data-testid="v2-upload">
        {t('serial.upload')}
      </Button>
      {outcome && <OutcomeView outcome={outcome} />}
    </Card>
  );
}

export function ConfigListPage() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['qcCriteria'], queryFn: findCriteria });
  const [form] = Form.useForm<Criteria>();
  const save = async () => {
    const v = await form.validateFields();
    try {
      await saveCriteria({
        model: v.model,
        minSatellites: v.minSatellites ?? null,
        minCn0: v.minCn0 ?? null,
        minGsm: v.minGsm ?? null,
        firmware: v.firmware || null,
      });
      message.success(t('action.saved'));
      form.resetFields();
      void qc.invalidateQueries({ queryKey: ['qcCriteria'] });
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const remove = async (model: string) => {
    await deleteCriteria(model);
    void qc.invalidateQueries({ queryKey: ['qcCriteria'] });
  };
  return (
    <Card size="small" title={t('config.title')}>
      <Form form={form} layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item name="model" label={t('field.model')} rules={[{ required: true }]}>
          <Input style={{ width: 120 }} data-testid="config-model" />
        </Form.Item>
        <Form.Item name="minSatellites" label={t('config.minSatellites')}>
          <InputNumber min={0} max={99} data-testid="config-sats" />
        </Form.Item>
        <Form.Item name="minCn0" label={t('config.minCn0')}>
          <InputNumber min={0} max={99} />
        </Form.Item>
        <Form.Item name="minGsm" label={t('config.minGsm')}>
          <InputNumber min={0} max={31} />
        </Form.Item>
        <Form.Item name="firmware" label={t('field.firmware')}>
          <Input style={{ width: 140 }} />
        </Form.Item>
        <Button type="primary" onClick={save} data-testid="config-save">
          {t('action.save')}
        </Button>
      </Form>
      <Table<Criteria>
        size="small"
        rowKey="model"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: t('field.model'), dataIndex: 'model' },
          { title: t('config.minSatellites'), dataIndex: 'minSatellites' },
          { title: t('config.minCn0'), dataIndex: 'minCn0' },
          { title: t('config.minGsm'), dataIndex: 'minGsm' },
          { title: t('field.firmware'), dataIndex: 'firmware' },
          {
            title: '',
            key: 'ops',
            render: (_: unknown, c) => (
              <Space>
                <Button size="small" onClick={() => form.setFieldsValue(c)}>
                  {t('action.edit')}
                </Button>
                <Button size="small" danger onClick={() => remove(c.model)}>
                  {t('action.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
