// /test/ota/otaList: the firmware library (upload with model and version, size and SHA-256 shown, download,
// delete while unused) and pushing a firmware to many devices as one task with per-device progress.
// /test/ota/otaHttp: every OTA result (JT/T 808 sub-packages or GT06 HTTP downloads), searchable.
// /test/otaUpdateListForUser: role 11's read-only list of the results for its own devices.
import { DeleteOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Typography,
  Upload,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../api/types.ts';
import type { TaskItemState } from '../../tasks/api.ts';
import { STATES, StateTag } from '../../tasks/TaskProgress.tsx';
import {
  deleteFirmware,
  type Firmware,
  fileBase64,
  findFirmware,
  type OtaResult,
  otaResults,
  pushOta,
  type ResultQuery,
  uploadFirmware,
  userOtaResults,
} from './otaApi.ts';
import { ImeiInput, isOpen, useLoading, usePolling, when } from './shared.tsx';

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function resultColumns(t: (k: string, o?: Record<string, unknown>) => string): ColumnsType<OtaResult> {
  return [
    { title: 'IMEI', dataIndex: 'terminalID' },
    { title: t('taskId'), dataIndex: 'taskId' },
    { title: t('version'), render: (_, r) => `${r.model} / ${r.version}` },
    { title: t('method'), dataIndex: 'method', render: (m: string) => t(`methodName.${m}`) },
    { title: t('status'), dataIndex: 'status', render: (s: TaskItemState) => <StateTag state={s} /> },
    {
      title: t('progress'),
      render: (_, r) =>
        r.method === 'jt808' ? (
          <Space direction="vertical" size={0} style={{ minWidth: 140 }}>
            <Progress
              size="small"
              percent={r.packetsTotal > 0 ? Math.floor((100 * r.packetsAcked) / r.packetsTotal) : 0}
            />
            <Typography.Text type="secondary" data-testid={`packets-${r.terminalID}`}>
              {t('packets', { acked: r.packetsAcked, total: r.packetsTotal, resent: r.resent })}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text data-testid={`downloads-${r.terminalID}`}>
            {t('downloads', { count: r.downloads, size: sizeText(r.bytesSent) })}
          </Typography.Text>
        ),
    },
    { title: t('reply'), render: (_, r) => r.reply ?? r.detail },
    { title: t('sentTime'), dataIndex: 'sentTime', render: when },
    { title: t('doneTime'), dataIndex: 'doneTime', render: when },
  ];
}

function OtaResultTable({
  rows,
  page,
  onPage,
  testId,
  loading,
}: {
  rows: Page<OtaResult>;
  loading: boolean;
  page: number;
  onPage: (p: number) => void;
  testId: string;
}) {
  const { t } = useTranslation('factoryOta');
  return (
    <Table<OtaResult>
      data-testid={testId}
      size="small"
      rowKey={(r) => `${r.taskId}-${r.terminalID}`}
      loading={loading}
      dataSource={rows.list}
      columns={resultColumns(t)}
      onRow={(r) => ({ 'data-testid': `row-${r.terminalID}`, 'data-state': r.status }) as never}
      pagination={{ current: page, pageSize: 20, total: rows.total, onChange: onPage, showSizeChanger: false }}
      scroll={{ x: true }}
    />
  );
}

export function OtaListPage() {
  const { t } = useTranslation('factoryOta');
  const { message } = App.useApp();
  const [library, setLibrary] = useState<Page<Firmware>>({ total: 0, list: [] });
  const [libPage, setLibPage] = useState(1);
  const [model, setModel] = useState<number | null>(null);
  const [version, setVersion] = useState('');
  const [manufacturer, setManufacturer] = useState('');
  const [notes, setNotes] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [firmwareId, setFirmwareId] = useState<string | undefined>();
  const [imeis, setImeis] = useState('');
  const [taskId, setTaskId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Page<OtaResult>>({ total: 0, list: [] });
  const fail = (e: Error) => message.error(e.message);

  const [listing, track] = useLoading();
  const load = useCallback(
    async (p: number) => {
      setLibPage(p);
      setLibrary(await track(findFirmware({ pageNum: p, pageSize: 10 })));
    },
    [track],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    load(1).catch(fail);
  }, [load]);
  const polling = usePolling(taskId === null ? null : `${taskId}-${page}`, async () => {
    const r = await otaResults({ taskId: taskId as string, pageNum: page, pageSize: 20 });
    setRows(r);
    return r.list.some((x) => isOpen(x.status));
  });

  const upload = async () => {
    if (model === null || !version.trim() || !file) {
      message.error(t('uploadNeeds'));
      return;
    }
    const fw = await uploadFirmware({
      model,
      version: version.trim(),
      notes: notes.trim(),
      fileName: file.name,
      data: await fileBase64(file),
      upgradeType: 0,
      manufacturer: manufacturer.trim(),
    });
    message.success(t('uploaded', { version: fw.version, size: sizeText(fw.size) }));
    setVersion('');
    setFile(null);
    setFirmwareId(fw.id);
    await load(1);
  };
  const push = async () => {
    if (!firmwareId) {
      message.error(t('chooseFirmware'));
      return;
    }
    const res = await pushOta({ firmwareId, text: imeis });
    message.success(t('taskCreated', { id: res.taskId, total: res.total }));
    setPage(1);
    setTaskId(res.taskId);
    // The firmware is in use now (it can no longer be deleted).
    await load(libPage);
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="ota-list-page">
      <Card title={t('library')}>
        <Space wrap align="end">
          <Form.Item label={t('model')} style={{ marginBottom: 0 }}>
            <InputNumber min={0} max={32767} value={model} onChange={setModel} data-testid="fw-model" />
          </Form.Item>
          <Form.Item label={t('version')} style={{ marginBottom: 0 }}>
            <Input value={version} onChange={(e) => setVersion(e.target.value)} data-testid="fw-version" />
          </Form.Item>
          <Form.Item label={t('manufacturer')} style={{ marginBottom: 0 }}>
            <Input
              value={manufacturer}
              maxLength={11}
              onChange={(e) => setManufacturer(e.target.value)}
              data-testid="fw-manufacturer"
            />
          </Form.Item>
          <Form.Item label={t('notes')} style={{ marginBottom: 0 }}>
            <Input value={notes} onChange={(e) => setNotes(e.target.value)} data-testid="fw-notes" />
          </Form.Item>
          <Upload
            showUploadList={false}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="fw-file">
              {file ? file.name : t('chooseFile')}
            </Button>
          </Upload>
          <Button type="primary" onClick={() => void upload().catch(fail)} data-testid="fw-upload">
            {t('upload')}
          </Button>
        </Space>
        <Table<Firmware>
          style={{ marginTop: 16 }}
          data-testid="fw-table"
          size="small"
          rowKey="id"
          loading={listing}
          dataSource={library.list}
          onRow={(r) => ({ 'data-testid': `fw-${r.model}-${r.version}` }) as never}
          pagination={{
            current: libPage,
            pageSize: 10,
            total: library.total,
            onChange: (p) => void load(p).catch(fail),
            showSizeChanger: false,
          }}
          columns={[
            { title: t('model'), dataIndex: 'model' },
            { title: t('version'), dataIndex: 'version' },
            { title: t('fileName'), dataIndex: 'fileName' },
            { title: t('size'), dataIndex: 'size', render: sizeText },
            {
              title: 'SHA-256',
              dataIndex: 'sha256',
              render: (s: string) => <Typography.Text copyable={{ text: s }}>{s.slice(0, 12)}…</Typography.Text>,
            },
            { title: t('notes'), dataIndex: 'notes' },
            { title: t('uses'), dataIndex: 'uses' },
            { title: t('createdAt'), dataIndex: 'createdAt', render: when },
            {
              title: t('actions'),
              render: (_, r) => (
                <Space>
                  <Button size="small" href={`/api/ota/firmware/download?id=${r.id}`} icon={<DownloadOutlined />} />
                  <Popconfirm
                    title={t('deleteConfirm')}
                    disabled={r.uses > 0}
                    onConfirm={() =>
                      void deleteFirmware(r.id)
                        .then(() => load(libPage))
                        .catch(fail)
                    }
                  >
                    <Button
                      size="small"
                      danger
                      disabled={r.uses > 0}
                      title={r.uses > 0 ? t('inUse') : undefined}
                      icon={<DeleteOutlined />}
                      data-testid={`fw-delete-${r.id}`}
                    />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('pushTitle')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Select
            style={{ width: 360 }}
            placeholder={t('chooseFirmware')}
            value={firmwareId}
            onChange={setFirmwareId}
            data-testid="push-firmware"
            options={library.list.map((f) => ({
              value: f.id,
              label: `${t('model')} ${f.model} · ${f.version} (${sizeText(f.size)})`,
            }))}
          />
          <ImeiInput value={imeis} onChange={setImeis} testId="push" />
          <Button type="primary" onClick={() => void push().catch(fail)} data-testid="push-send">
            {t('push')}
          </Button>
        </Space>
      </Card>
      {taskId && (
        <Card title={t('taskResults', { id: taskId })}>
          <OtaResultTable rows={rows} loading={polling} page={page} onPage={setPage} testId="ota-results" />
        </Card>
      )}
    </Space>
  );
}

function ResultSearch({ load, testId }: { load: (q: ResultQuery) => Promise<Page<OtaResult>>; testId: string }) {
  const { t } = useTranslation('factoryOta');
  const { t: tl } = useTranslation('factoryLogs');
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState('');
  const [imei, setImei] = useState('');
  const [status, setStatus] = useState<TaskItemState | undefined>();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Page<OtaResult>>({ total: 0, list: [] });
  const [searching, track] = useLoading();
  const search = (p = 1) => track(find(p));
  const find = async (p: number) => {
    setPage(p);
    setRows(
      await load({
        taskId: /^\d+$/.test(taskId.trim()) ? taskId.trim() : undefined,
        terminalID: imei.trim() || undefined,
        status,
        pageNum: p,
        pageSize: 20,
      }),
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    search(1).catch((e: Error) => message.error(e.message));
  }, []);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input
          placeholder={t('taskId')}
          value={taskId}
          onChange={(e) => setTaskId(e.target.value)}
          style={{ width: 140 }}
          data-testid={`${testId}-task`}
        />
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          style={{ width: 200 }}
          data-testid={`${testId}-imei`}
        />
        <Select
          allowClear
          style={{ width: 160 }}
          value={status}
          onChange={setStatus}
          placeholder={tl('task.filterState')}
          options={STATES.map((s) => ({ value: s, label: tl(`state.${s}`) }))}
        />
        <Button
          type="primary"
          onClick={() => void search().catch((e: Error) => message.error(e.message))}
          data-testid={`${testId}-search`}
        >
          {t('search')}
        </Button>
        <Typography.Text type="secondary">{t('total', { count: rows.total })}</Typography.Text>
      </Space>
      <OtaResultTable
        rows={rows}
        loading={searching}
        page={page}
        onPage={(p) => void search(p)}
        testId={`${testId}-results`}
      />
    </Space>
  );
}

export function OtaHttpPage() {
  return (
    <div data-testid="ota-http-page">
      <ResultSearch load={otaResults} testId="otah" />
    </div>
  );
}

export function OtaUserPage() {
  const { t } = useTranslation('factoryOta');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="ota-user-page">
      <Typography.Text type="secondary">{t('readOnly')}</Typography.Text>
      <ResultSearch load={userOtaResults} testId="otau" />
    </Space>
  );
}
