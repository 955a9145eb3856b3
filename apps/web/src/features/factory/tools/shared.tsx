// Pieces the factory's many-device tools share: the IMEI list (pasted, or read from an xlsx/csv/txt file), the
// per-device result table with the task states, and polling while a task still has open items.
import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Input, Space, Table, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskItemState } from '../../tasks/api.ts';
import { StateTag } from '../../tasks/TaskProgress.tsx';
import { imeisFromFile } from './api.ts';

export const when = (v: string | null | undefined) => (v ? new Date(v).toLocaleString() : '');

/** The IMEIs of a text box: one per line, or separated by commas, semicolons or spaces. */
export function imeiCount(text: string): number {
  return new Set(text.split(/[\s,;]+/).filter((s) => s !== '')).size;
}

export function ImeiInput({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (v: string) => void;
  testId: string;
}) {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea
        rows={6}
        value={value}
        placeholder={t('imeiHint')}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`${testId}-imeis`}
      />
      <Space>
        <Upload
          accept=".xlsx,.csv,.txt"
          showUploadList={false}
          beforeUpload={(file) => {
            imeisFromFile(file).then(
              (ids) => {
                onChange([value.trim(), ...ids].filter((s) => s !== '').join('\n'));
                message.success(t('imported', { count: ids.length }));
              },
              (err: Error) => message.error(err.message),
            );
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid={`${testId}-file`}>
            {t('fromFile')}
          </Button>
        </Upload>
        <Typography.Text type="secondary" data-testid={`${testId}-count`}>
          {t('imeiCount', { count: imeiCount(value) })}
        </Typography.Text>
      </Space>
    </Space>
  );
}

export interface ResultRow {
  terminalID: string;
  status: TaskItemState;
  reply: string | null;
  detail: string;
  sentTime: string | null;
  replyTime: string | null;
}

export function ResultTable<T extends ResultRow>({
  rows,
  extra = [],
  page,
  onPage,
  testId,
  loading = false,
}: {
  rows: { total: number; list: T[] };
  /** True while the rows are being fetched: the table shows its loading skeleton instead of the empty hint. */
  loading?: boolean;
  extra?: ColumnsType<T>;
  page: number;
  onPage: (p: number) => void;
  testId: string;
}) {
  const { t } = useTranslation('factoryTools');
  return (
    <Table<T>
      data-testid={testId}
      rowKey={(r) => `${(r as { taskId?: string }).taskId ?? ''}-${r.terminalID}`}
      size="small"
      loading={loading}
      dataSource={rows.list}
      pagination={{ current: page, pageSize: 20, total: rows.total, onChange: onPage, showSizeChanger: false }}
      onRow={(r) => ({ 'data-testid': `row-${r.terminalID}`, 'data-state': r.status }) as never}
      columns={[
        { title: 'IMEI', dataIndex: 'terminalID' },
        ...extra,
        { title: t('status'), dataIndex: 'status', render: (s: TaskItemState) => <StateTag state={s} /> },
        { title: t('reply'), render: (_, r) => r.reply ?? r.detail },
        { title: t('sentTime'), dataIndex: 'sentTime', render: when },
        { title: t('replyTime'), dataIndex: 'replyTime', render: when },
      ]}
    />
  );
}

/**
 * Tracks loading work for a list: `track(promise)` marks the list loading until the promise settles (several at once
 * are counted), so the table shows its skeleton instead of the empty hint while its rows are on the way.
 */
export function useLoading(): [boolean, <T>(work: Promise<T>) => Promise<T>] {
  const [pending, setPending] = useState(0);
  const track = useCallback(<T,>(work: Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    return work.finally(() => setPending((n) => n - 1));
  }, []);
  return [pending > 0, track];
}

/**
 * Calls `load` now and every 2 s while it answers true (items still open); stops on unmount or key change.
 * Answers true until the first answer for the current key has arrived (the table's loading state).
 */
export function usePolling(key: unknown, load: () => Promise<boolean>): boolean {
  const ref = useRef(load);
  ref.current = load;
  const [loadedKey, setLoadedKey] = useState<unknown>(undefined);
  useEffect(() => {
    if (key === null || key === undefined) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      let again = false;
      try {
        again = await ref.current();
      } catch {
        again = true;
      }
      if (!stop) setLoadedKey(key);
      if (!stop && again) timer = setTimeout(tick, 2000);
    };
    void tick();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [key]);
  return key !== null && key !== undefined && loadedKey !== key;
}

export const isOpen = (s: TaskItemState) => s === 'pending' || s === 'sent';
