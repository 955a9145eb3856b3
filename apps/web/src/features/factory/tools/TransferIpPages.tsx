// /test/transferIp/*: move devices to another server (send, with the new task's per-device results as they
// arrive), one task's or one IMEI's results, and the search across many devices' results with export.

import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskItemState } from '../../tasks/api.ts';
import { STATES } from '../../tasks/TaskProgress.tsx';
import {
  deviceTypeList,
  exportTransfer,
  type SearchFilter,
  searchTransfer,
  sendTransferIp,
  type TransferResult,
  transferResults,
} from './api.ts';
import { ImeiInput, isOpen, ResultTable, useLoading, usePolling } from './shared.tsx';

const hostColumns = (t: (k: string) => string) => [
  { title: t('host'), dataIndex: 'host' },
  { title: t('port'), dataIndex: 'port' },
];

function StateSelect({ value, onChange }: { value?: TaskItemState; onChange: (v?: TaskItemState) => void }) {
  const { t } = useTranslation('factoryLogs');
  return (
    <Select
      allowClear
      style={{ width: 160 }}
      value={value}
      onChange={onChange}
      placeholder={t('task.filterState')}
      data-testid="state-select"
      options={STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
    />
  );
}

export function TransferIpPage() {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  const [imeis, setImeis] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState<number | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: TransferResult[] }>({ total: 0, list: [] });
  const polling = usePolling(taskId === null ? null : `${taskId}-${page}`, async () => {
    const r = await transferResults({ taskId: taskId as string, pageNum: page, pageSize: 20 });
    setRows(r);
    return r.list.some((x) => isOpen(x.status));
  });
  const send = async () => {
    if (!host.trim() || !port) {
      message.error(t('hostPortNeeded'));
      return;
    }
    const res = await sendTransferIp({ text: imeis, host: host.trim(), port });
    message.success(t('taskCreated', { id: res.taskId, total: res.total }));
    setPage(1);
    setTaskId(res.taskId);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="transfer-ip-page">
      <Card title={t('transferTitle')}>
        <Form layout="vertical">
          <Form.Item label="IMEI">
            <ImeiInput value={imeis} onChange={setImeis} testId="tip" />
          </Form.Item>
          <Space wrap>
            <Form.Item label={t('host')}>
              <Input
                value={host}
                onChange={(e) => setHost(e.target.value)}
                style={{ width: 260 }}
                data-testid="tip-host"
              />
            </Form.Item>
            <Form.Item label={t('port')}>
              <InputNumber min={1} max={65535} value={port} onChange={setPort} data-testid="tip-port" />
            </Form.Item>
          </Space>
          <Button
            type="primary"
            onClick={() => void send().catch((e: Error) => message.error(e.message))}
            data-testid="tip-send"
          >
            {t('send')}
          </Button>
        </Form>
      </Card>
      {taskId && (
        <Card title={t('taskResults', { id: taskId })}>
          <ResultTable
            rows={rows}
            loading={polling}
            extra={hostColumns(t)}
            page={page}
            onPage={setPage}
            testId="tip-results"
          />
        </Card>
      )}
    </Space>
  );
}

export function TransferIpResultPage() {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState('');
  const [imei, setImei] = useState('');
  const [status, setStatus] = useState<TaskItemState | undefined>();
  // The device-type list of spec §6 (wanweiTest: the named account's long list, the others GW005W).
  const [model, setModel] = useState<string | undefined>();
  const models = useQuery({ queryKey: ['deviceTypeList'], queryFn: ({ signal }) => deviceTypeList(signal) });
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: TransferResult[] }>({ total: 0, list: [] });
  const [searching, track] = useLoading();
  const search = (p = 1) => track(find(p));
  const find = async (p: number) => {
    setPage(p);
    setRows(
      await transferResults({
        taskId: taskId.trim() || undefined,
        terminalID: imei.trim() || undefined,
        status,
        model,
        pageNum: p,
        pageSize: 20,
      }),
    );
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="transfer-ip-result-page">
      <Space wrap>
        <Input
          placeholder={t('taskId')}
          value={taskId}
          onChange={(e) => setTaskId(e.target.value)}
          style={{ width: 140 }}
          data-testid="tipr-task"
        />
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          style={{ width: 200 }}
          data-testid="tipr-imei"
        />
        <StateSelect value={status} onChange={setStatus} />
        <Select
          allowClear
          showSearch
          placeholder={t('model')}
          value={model}
          onChange={(v?: string) => setModel(v)}
          options={(models.data ?? []).map((m) => ({ value: m, label: m }))}
          style={{ width: 180 }}
          data-testid="tipr-model"
        />
        <Button
          type="primary"
          onClick={() => void search().catch((e: Error) => message.error(e.message))}
          data-testid="tipr-search"
        >
          {t('search')}
        </Button>
      </Space>
      <ResultTable
        rows={rows}
        loading={searching}
        extra={[{ title: t('taskId'), dataIndex: 'taskId' }, ...hostColumns(t)]}
        page={page}
        onPage={(p) => void search(p)}
        testId="tipr-results"
      />
    </Space>
  );
}

export function TransferIpResultsPage() {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  const [imeis, setImeis] = useState('');
  const [status, setStatus] = useState<TaskItemState | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [model, setModel] = useState<string | undefined>();
  const models = useQuery({ queryKey: ['deviceTypeList'], queryFn: ({ signal }) => deviceTypeList(signal) });
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: TransferResult[] }>({ total: 0, list: [] });
  const filter = (): SearchFilter => ({
    text: imeis.trim() || undefined,
    status,
    from: range?.[0]?.toISOString(),
    to: range?.[1]?.toISOString(),
    model,
  });
  const [searching, track] = useLoading();
  const search = (p = 1) => track(find(p));
  const find = async (p: number) => {
    setPage(p);
    setRows(await searchTransfer({ ...filter(), pageNum: p, pageSize: 20 }));
  };
  const fail = (e: Error) => message.error(e.message);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="transfer-ip-results-page">
      <ImeiInput value={imeis} onChange={setImeis} testId="tips" />
      <Space wrap>
        <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v)} />
        <StateSelect value={status} onChange={setStatus} />
        <Select
          allowClear
          showSearch
          placeholder={t('model')}
          value={model}
          onChange={(v?: string) => setModel(v)}
          options={(models.data ?? []).map((m) => ({ value: m, label: m }))}
          style={{ width: 180 }}
          data-testid="tips-model"
        />
        <Button type="primary" onClick={() => void search().catch(fail)} data-testid="tips-search">
          {t('search')}
        </Button>
        <Button onClick={() => void exportTransfer(filter(), 'transfer-ip.xlsx').catch(fail)} data-testid="tips-export">
          {t('export')}
        </Button>
        <Typography.Text type="secondary">{t('total', { count: rows.total })}</Typography.Text>
      </Space>
      <ResultTable
        rows={rows}
        loading={searching}
        extra={[{ title: t('taskId'), dataIndex: 'taskId' }, ...hostColumns(t)]}
        page={page}
        onPage={(p) => void search(p)}
        testId="tips-results"
      />
    </Space>
  );
}
