// /index/device/deviceUpdateDeviceInfo: bulk edit of device info with a value per device — from a pasted list
// or the xlsx template — with a preview of what changes and a result summary (POST /device/updateAll rows).
import { Alert, App, Button, Card, Input, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SubNav } from '../agent/SubNav.tsx';
import { DEVICE_PAGES } from '../device/pages.ts';
import { applyBulk, BULK_FIELDS, type BulkLine, type BulkRow, previewBulk } from './api.ts';
import { cellsFromXlsx, rowsFromCells, rowsFromText, templateXlsx } from './bulkParse.ts';

const STATUS_COLOR = { change: 'blue', unchanged: 'default', failed: 'red' } as const;

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function BulkInfoPage() {
  const { t } = useTranslation('custself');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [rows, setRows] = useState<BulkRow[]>([]);
  const [lines, setLines] = useState<BulkLine[] | null>(null);
  const [result, setResult] = useState<{ success: number; failed: number; unchanged: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const headers = ['IMEI', ...BULK_FIELDS.map((f) => t(`bulk.field.${f}`))];

  const preview = async (next: BulkRow[]) => {
    setRows(next);
    setResult(null);
    if (next.length === 0) {
      setLines(null);
      message.warning(t('bulk.empty'));
      return;
    }
    setBusy(true);
    try {
      setLines((await previewBulk(next)).lines);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setBusy(true);
    try {
      const res = await applyBulk(rows);
      setLines(res.lines);
      setResult({
        success: res.success,
        failed: res.failed.length,
        unchanged: res.lines.filter((l) => l.status === 'unchanged').length,
      });
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const changes = lines?.filter((l) => l.status === 'change').length ?? 0;

  return (
    <div style={{ padding: 16 }} data-testid="bulk-info-page">
      <SubNav items={DEVICE_PAGES} />
      <Typography.Title level={4}>{t('bulk.title')}</Typography.Title>
      <Card size="small">
        <Typography.Paragraph type="secondary">{t('bulk.help', { columns: headers.join(', ') })}</Typography.Paragraph>
        <Space style={{ marginBottom: 8 }} wrap>
          <Button onClick={() => void templateXlsx(headers).then((b) => download(b, 'device-info-template.xlsx'))}>
            {t('bulk.template')}
          </Button>
          <Upload
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(file) => {
              file
                .arrayBuffer()
                .then(cellsFromXlsx)
                .then((cells) => preview(rowsFromCells(cells)))
                .catch((err: Error) => message.error(err.message));
              return false;
            }}
          >
            <Button data-testid="bulk-upload">{t('bulk.upload')}</Button>
          </Upload>
        </Space>
        <Input.TextArea
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={headers.join('\t')}
          data-testid="bulk-text"
        />
        <Button
          type="primary"
          style={{ marginTop: 8 }}
          loading={busy}
          onClick={() => void preview(rowsFromText(text))}
          data-testid="bulk-preview"
        >
          {t('bulk.preview')}
        </Button>
      </Card>
      {result && (
        <Alert
          style={{ marginTop: 12 }}
          type={result.failed > 0 ? 'warning' : 'success'}
          showIcon
          data-testid="bulk-result"
          message={t('bulk.result', result)}
        />
      )}
      {lines && (
        <Card
          size="small"
          style={{ marginTop: 12 }}
          title={t('bulk.previewTitle', { changes, total: lines.length })}
          extra={
            !result && (
              <Button
                type="primary"
                disabled={changes === 0}
                loading={busy}
                onClick={() => void apply()}
                data-testid="bulk-apply"
              >
                {t('bulk.apply', { count: changes })}
              </Button>
            )
          }
        >
          <Table<BulkLine>
            rowKey="line"
            size="small"
            dataSource={lines}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: '#', dataIndex: 'line', width: 60 },
              { title: 'IMEI', dataIndex: 'terminalID', width: 170 },
              {
                title: t('bulk.status'),
                dataIndex: 'status',
                width: 110,
                render: (s: BulkLine['status']) => <Tag color={STATUS_COLOR[s]}>{t(`bulk.state.${s}`)}</Tag>,
              },
              {
                title: t('bulk.changes'),
                key: 'changes',
                render: (_, l) =>
                  l.status === 'failed' ? (
                    <Typography.Text type="danger">{l.message}</Typography.Text>
                  ) : (
                    l.changes.map((c) => (
                      <div key={c.field}>
                        {t(`bulk.field.${c.field}`)}: <Typography.Text delete>{c.from || '—'}</Typography.Text> →{' '}
                        <Typography.Text strong>{c.to || '—'}</Typography.Text>
                      </div>
                    ))
                  ),
              },
            ]}
          />
        </Card>
      )}
    </div>
  );
}
