// /index/device/huaXiangDataImport: data import for one customer (agent permission main:data_import) — the
// customer's vehicles and owner data from the xlsx template or a pasted list, a preview per line, the import
// in parts with its progress, and a result per line.
import { Alert, App, Button, Card, Input, Progress, Space, Table, Tag, TreeSelect, Typography, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { type AccountRow, findSubtree } from '../agent/api.ts';
import { SubNav } from '../agent/SubNav.tsx';
import { DEVICE_PAGES } from '../device/pages.ts';
import { BULK_FIELDS, type BulkRow, type ImportLine, previewDataImport, runDataImport } from './api.ts';
import { cellsFromXlsx, rowsFromCells, rowsFromText, templateXlsx } from './bulkParse.ts';

const PART = 500;
const COLOR = { change: 'blue', unchanged: 'default', failed: 'red' } as const;

export default function DataImportPage() {
  const { t } = useTranslation('custself');
  const { message } = App.useApp();
  const auth = useAuth();
  const [accounts, setAccounts] = useState<AccountRow[]>([]);
  const [userId, setUserId] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [rows, setRows] = useState<BulkRow[]>([]);
  const [lines, setLines] = useState<ImportLine[] | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [result, setResult] = useState<{ success: number; failed: number } | null>(null);
  const headers = ['IMEI', ...BULK_FIELDS.map((f) => t(`import.field.${f}`))];
  const rootId = auth?.userInfo.id ?? '';

  useEffect(() => {
    if (rootId) findSubtree(rootId).then(setAccounts, (err: Error) => message.error(err.message));
  }, [rootId, message]);
  // One customer: end users and sub-users.
  const customers = useMemo(() => accounts.filter((a) => a.role === 3 || a.role === 4), [accounts]);

  const preview = async (next: BulkRow[]) => {
    setRows(next);
    setResult(null);
    setDone(null);
    if (!userId) return message.warning(t('import.pickCustomer'));
    if (next.length === 0) return message.warning(t('bulk.empty'));
    try {
      const all: ImportLine[] = [];
      for (let i = 0; i < next.length; i += PART) {
        const part = await previewDataImport(userId, next.slice(i, i + PART));
        all.push(...part.lines.map((l) => ({ ...l, line: l.line + i })));
      }
      setLines(all);
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const run = async () => {
    if (!userId) return;
    const all: ImportLine[] = [];
    let success = 0;
    let failed = 0;
    setDone(0);
    try {
      for (let i = 0; i < rows.length; i += PART) {
        const part = await runDataImport(userId, rows.slice(i, i + PART));
        all.push(...part.lines.map((l) => ({ ...l, line: l.line + i })));
        success += part.success;
        failed += part.failed;
        setDone(Math.min(rows.length, i + PART));
      }
      setLines(all);
      setResult({ success, failed });
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16 }} data-testid="data-import-page">
      <SubNav items={DEVICE_PAGES} />
      <Typography.Title level={4}>{t('import.title')}</Typography.Title>
      <Card size="small">
        <Space direction="vertical" style={{ width: '100%' }}>
          <TreeSelect
            data-testid="import-customer"
            style={{ width: 360 }}
            showSearch
            treeNodeFilterProp="title"
            placeholder={t('import.pickCustomer')}
            value={userId ?? undefined}
            onChange={(v: string) => setUserId(v)}
            treeData={customers.map((c) => ({
              value: c.id,
              title: c.nickname ? `${c.nickname} (${c.username})` : c.username,
            }))}
          />
          <Typography.Text type="secondary">{t('bulk.help', { columns: headers.join(', ') })}</Typography.Text>
          <Space wrap>
            <Button
              onClick={() => void templateXlsx(headers).then((b) => saveAs(b, 'customer-import-template.xlsx'))}
              data-testid="import-template"
            >
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
              <Button data-testid="import-upload">{t('bulk.upload')}</Button>
            </Upload>
          </Space>
          <Input.TextArea rows={5} value={text} onChange={(e) => setText(e.target.value)} data-testid="import-text" />
          <Button type="primary" onClick={() => void preview(rowsFromText(text))} data-testid="import-preview">
            {t('bulk.preview')}
          </Button>
        </Space>
      </Card>
      {done !== null && (
        <Progress percent={Math.round((done / Math.max(1, rows.length)) * 100)} data-testid="import-progress" />
      )}
      {result && (
        <Alert
          style={{ marginTop: 12 }}
          showIcon
          type={result.failed > 0 ? 'warning' : 'success'}
          message={t('import.result', result)}
          data-testid="import-result"
        />
      )}
      {lines && (
        <Card
          size="small"
          style={{ marginTop: 12 }}
          title={t('bulk.previewTitle', {
            changes: lines.filter((l) => l.status === 'change').length,
            total: lines.length,
          })}
          extra={
            !result && (
              <Button type="primary" onClick={() => void run()} loading={done !== null} data-testid="import-run">
                {t('import.run')}
              </Button>
            )
          }
        >
          <Table<ImportLine>
            rowKey="line"
            size="small"
            dataSource={lines}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: '#', dataIndex: 'line', width: 60 },
              { title: 'IMEI', dataIndex: 'terminalID', width: 170 },
              {
                title: t('bulk.status'),
                key: 'status',
                width: 160,
                render: (_, l) => (
                  <Space size={4}>
                    <Tag color={COLOR[l.status]}>{t(`bulk.state.${l.status}`)}</Tag>
                    {l.move && <Tag color="green">{t('import.moves')}</Tag>}
                  </Space>
                ),
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
                        {t(`import.field.${c.field}`)}: {c.from || '—'} → <b>{c.to || '—'}</b>
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

function saveAs(blob: Blob, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
