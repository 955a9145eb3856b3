// The per-device results of the customer site's batch commands, searched across batches by batch number,
// IMEI, state and time, exported as xlsx (device/multipleCmdSearch). A batch number opens the shared
// task-progress view.
import { neutraliseRow } from '@carhere/domain';
import { App, Button, DatePicker, Drawer, Input, Select, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import type { TaskItemState } from '../tasks/api.ts';
import { STATES, StateTag, TaskProgress } from '../tasks/TaskProgress.tsx';

export interface BatchResult {
  taskId: string;
  title: string;
  creatorName: string;
  taskCreatedAt: string;
  terminalID: string;
  state: TaskItemState;
  reply: string | null;
  sentAt: string | null;
  doneAt: string | null;
}

interface Filter {
  taskId?: string;
  terminalID?: string;
  state?: TaskItemState;
  startTime?: number;
  endTime?: number;
}

const when = (v: string | null) => (v ? new Date(v).toLocaleString() : '');
const EXPORT_PAGE = 5000;

export function BatchResults() {
  const { t } = useTranslation('custself');
  const { t: tl } = useTranslation('factoryLogs');
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState('');
  const [imei, setImei] = useState('');
  const [state, setState] = useState<TaskItemState | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Page<BatchResult>>({ total: 0, list: [] });
  const [open, setOpen] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const filter = (): Filter => ({
    taskId: /^\d+$/.test(taskId.trim()) ? taskId.trim() : undefined,
    terminalID: imei.trim() || undefined,
    state,
    startTime: range?.[0]?.valueOf(),
    endTime: range?.[1]?.valueOf(),
  });
  const search = async (p = 1) => {
    setPage(p);
    try {
      setRows(await api<Page<BatchResult>>('/task/findResults', { ...filter(), pageNum: p, pageSize: 15 }));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);

  const exportXlsx = async () => {
    setExporting(true);
    try {
      const all: BatchResult[] = [];
      for (let p = 1; ; p++) {
        const res = await api<Page<BatchResult>>('/task/findResults', {
          ...filter(),
          pageNum: p,
          pageSize: EXPORT_PAGE,
        });
        all.push(...res.list);
        if (res.list.length < EXPORT_PAGE || all.length >= res.total) break;
      }
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('results');
      sheet.columns = [
        t('batch.taskId'),
        t('batch.command'),
        t('batch.creator'),
        t('batch.time'),
        'IMEI',
        t('batch.state'),
        t('batch.reply'),
        t('batch.sentAt'),
        t('batch.doneAt'),
      ].map((header) => ({ header, width: 20 }));
      for (const r of all)
        sheet.addRow(
          neutraliseRow([
            r.taskId,
            r.title,
            r.creatorName,
            when(r.taskCreatedAt),
            r.terminalID,
            tl(`state.${r.state}`),
            r.reply ?? '',
            when(r.sentAt),
            when(r.doneAt),
          ]),
        );
      const blob = new Blob([await book.xlsx.writeBuffer()], {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'batch-results.xlsx';
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="batch-results">
      <Space wrap>
        <Input
          placeholder={t('batch.taskId')}
          value={taskId}
          onChange={(e) => setTaskId(e.target.value)}
          style={{ width: 120 }}
          data-testid="batch-task-id"
        />
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          style={{ width: 200 }}
          data-testid="batch-imei"
        />
        <Select<TaskItemState>
          allowClear
          placeholder={t('batch.state')}
          value={state}
          onChange={setState}
          style={{ width: 140 }}
          data-testid="batch-state"
          options={STATES.map((s) => ({ value: s, label: tl(`state.${s}`) }))}
        />
        <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v)} />
        <Button type="primary" onClick={() => void search()} data-testid="batch-search">
          {t('batch.search')}
        </Button>
        <Button loading={exporting} onClick={() => void exportXlsx()} data-testid="batch-export">
          {t('batch.export')}
        </Button>
      </Space>
      <Table<BatchResult>
        rowKey={(r) => `${r.taskId}-${r.terminalID}`}
        size="small"
        dataSource={rows.list}
        pagination={{ current: page, pageSize: 15, total: rows.total, onChange: (p) => void search(p) }}
        columns={[
          {
            title: t('batch.taskId'),
            dataIndex: 'taskId',
            render: (id: string) => (
              <Button type="link" size="small" onClick={() => setOpen(id)}>
                {id}
              </Button>
            ),
          },
          { title: t('batch.command'), dataIndex: 'title' },
          { title: t('batch.time'), dataIndex: 'taskCreatedAt', render: when },
          { title: 'IMEI', dataIndex: 'terminalID' },
          { title: t('batch.state'), dataIndex: 'state', render: (s: TaskItemState) => <StateTag state={s} /> },
          { title: t('batch.reply'), dataIndex: 'reply' },
          { title: t('batch.doneAt'), dataIndex: 'doneAt', render: when },
        ]}
      />
      <Drawer open={open !== null} onClose={() => setOpen(null)} width={900} title={`#${open}`} destroyOnHidden>
        {open && <TaskProgress taskId={open} canCancel />}
      </Drawer>
    </Space>
  );
}
