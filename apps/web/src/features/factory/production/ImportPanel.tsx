// One import form for the factory's tables (preset IMEIs, stock devices, SIM cards): paste rows or pick an
// xlsx/csv/txt file, start the job, watch its progress, read spec §8's result counts and download the
// refused lines with their reasons.
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Form, Input, Progress, Space, Statistic, Table, Upload } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { percentOf, useJob } from '../../agent/useJob.ts';
import {
  fetchImportJob,
  type ImportCountsResult,
  type ImportKind,
  type Job,
  readFileBase64,
  rejectedUrl,
  type Upload as UploadBody,
} from './api.ts';

const COUNTS = ['success', 'failure', 'unqualified', 'noFactoryTest', 'notPreset', 'alreadyStocked'] as const;

export function ImportCounts({ result }: { result: ImportCountsResult }) {
  const { t } = useTranslation('production');
  return (
    <Space wrap size="large" data-testid="import-counts">
      {COUNTS.map((c) => (
        <Statistic key={c} title={t(`count.${c}`)} value={result[c]} valueStyle={{ fontSize: 20 }} />
      ))}
    </Space>
  );
}

export function RejectedTable({ rows }: { rows: ImportCountsResult['rejected'] }) {
  const { t } = useTranslation('production');
  if (rows.length === 0) return null;
  return (
    <Table
      size="small"
      rowKey={(r) => `${r.line}-${r.value}`}
      dataSource={rows}
      pagination={{ pageSize: 10 }}
      columns={[
        { title: t('field.line'), dataIndex: 'line', width: 70 },
        { title: t('field.value'), dataIndex: 'value' },
        { title: t('field.reason'), dataIndex: 'message' },
      ]}
    />
  );
}

interface Props {
  kind: ImportKind;
  title: string;
  /** The expected columns, shown above the text box. */
  columnsHint: string;
  /** Extra fields (model, batch…) rendered inside the form; their values go with the upload. */
  extra?: ReactNode;
  start: (body: UploadBody & Record<string, unknown>) => Promise<Job<ImportCountsResult>>;
  onDone?: () => void;
}

export function ImportPanel({ kind, title, columnsHint, extra, start, onDone }: Props) {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, unknown> & { text?: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob<ImportCountsResult>(kind, jobId, fetchImportJob(kind));
  const running = job.data?.status === 'running' || (jobId !== null && !job.data);
  const [notified, setNotified] = useState<string | null>(null);
  if (job.data?.status === 'done' && notified !== job.data.id) {
    setNotified(job.data.id);
    onDone?.();
  }

  const submit = async () => {
    const { text, ...rest } = form.getFieldsValue();
    const body: UploadBody & Record<string, unknown> = { ...rest };
    if (file) body.file = { name: file.name, base64: await readFileBase64(file) };
    else if (text?.trim()) body.text = text;
    else {
      message.warning(t('import.empty'));
      return;
    }
    try {
      const started = await start(body);
      setJobId(started.id);
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  const result = job.data?.result;
  return (
    <Card size="small" title={title}>
      <Form form={form} layout="vertical" disabled={running}>
        {extra}
        <Alert type="info" showIcon style={{ marginBottom: 8 }} message={columnsHint} />
        <Form.Item name="text" label={t('import.paste')}>
          <Input.TextArea rows={6} data-testid={`${kind}-text`} placeholder={columnsHint} />
        </Form.Item>
        <Space>
          <Upload
            accept=".xlsx,.csv,.txt"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{t('import.pickFile')}</Button>
          </Upload>
          <Button type="primary" onClick={submit} loading={running} data-testid={`${kind}-start`}>
            {t('import.start')}
          </Button>
        </Space>
      </Form>
      {job.data && (
        <div style={{ marginTop: 16 }}>
          <Progress percent={percentOf(job.data)} status={job.data.status === 'failed' ? 'exception' : undefined} />
          {job.data.error && <Alert type="error" message={job.data.error} />}
          {result && (
            <>
              <ImportCounts result={result} />
              {result.rejected.length > 0 && (
                <div style={{ marginTop: 12 }}>
                  <a href={rejectedUrl(kind, job.data.id)} download data-testid="rejected-download">
                    {t('import.downloadRejected', { count: result.rejectedTotal ?? result.rejected.length })}
                  </a>
                  <RejectedTable rows={result.rejected} />
                </div>
              )}
            </>
          )}
        </div>
      )}
    </Card>
  );
}
