// /test/mutiCmd/*: one command to up to 10,000 IMEIs (with the task's per-device results as they arrive), the
// results of batch commands by task, IMEI and state, and batch actions on an IMEI list.
import { App, Button, Card, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskItemState } from '../../tasks/api.ts';
import { STATES } from '../../tasks/TaskProgress.tsx';
import { type BatchAction, type CmdResult, deviceBatchManage, mutiCmdResults, sendMutiCmd } from './api.ts';
import { ImeiInput, isOpen, ResultTable, useLoading, usePolling } from './shared.tsx';

export function SendMutiCmdPage() {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  const [imeis, setImeis] = useState('');
  const [content, setContent] = useState('');
  const [taskId, setTaskId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: CmdResult[] }>({ total: 0, list: [] });
  const polling = usePolling(taskId === null ? null : `${taskId}-${page}`, async () => {
    const r = await mutiCmdResults({ taskId: taskId as string, pageNum: page, pageSize: 20 });
    setRows(r);
    return r.list.some((x) => isOpen(x.status));
  });
  const send = async () => {
    const res = await sendMutiCmd({ text: imeis, content });
    message.success(t('taskCreated', { id: res.taskId, total: res.total }));
    setPage(1);
    setTaskId(res.taskId);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="muti-cmd-page">
      <Card title={t('mutiTitle')}>
        <Form layout="vertical">
          <Form.Item label="IMEI">
            <ImeiInput value={imeis} onChange={setImeis} testId="muti" />
          </Form.Item>
          <Form.Item label={t('content')}>
            <Input
              value={content}
              onChange={(e) => setContent(e.target.value)}
              placeholder="WHERE#"
              data-testid="muti-content"
            />
          </Form.Item>
          <Button
            type="primary"
            onClick={() => void send().catch((e: Error) => message.error(e.message))}
            data-testid="muti-send"
          >
            {t('send')}
          </Button>
        </Form>
      </Card>
      {taskId && (
        <Card title={t('taskResults', { id: taskId })}>
          <ResultTable rows={rows} loading={polling} page={page} onPage={setPage} testId="muti-results" />
        </Card>
      )}
    </Space>
  );
}

export function SearchResultCmdPage() {
  const { t } = useTranslation('factoryTools');
  const tl = useTranslation('factoryLogs').t;
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState('');
  const [imei, setImei] = useState('');
  const [status, setStatus] = useState<TaskItemState | undefined>();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: CmdResult[] }>({ total: 0, list: [] });
  const [searching, track] = useLoading();
  const search = (p = 1) => track(find(p));
  const find = async (p: number) => {
    setPage(p);
    setRows(
      await mutiCmdResults({
        taskId: taskId.trim() || undefined,
        terminalID: imei.trim() || undefined,
        status,
        pageNum: p,
        pageSize: 20,
      }),
    );
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="muti-result-page">
      <Space wrap>
        <Input
          placeholder={t('taskId')}
          value={taskId}
          onChange={(e) => setTaskId(e.target.value)}
          style={{ width: 140 }}
        />
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          style={{ width: 200 }}
          data-testid="mutir-imei"
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
          data-testid="mutir-search"
        >
          {t('search')}
        </Button>
      </Space>
      <ResultTable
        rows={rows}
        loading={searching}
        extra={[
          { title: t('taskId'), dataIndex: 'taskId' },
          { title: t('content'), dataIndex: 'content' },
        ]}
        page={page}
        onPage={(p) => void search(p)}
        testId="mutir-results"
      />
    </Space>
  );
}

const ACTIONS: BatchAction[] = ['move', 'reset', 'clearData', 'changeModel'];

export function DeviceBatchManagePage() {
  const { t } = useTranslation('factoryTools');
  const { message, modal } = App.useApp();
  const [imeis, setImeis] = useState('');
  const [action, setAction] = useState<BatchAction>('move');
  const [username, setUsername] = useState('');
  const [deviceType, setDeviceType] = useState<number | null>(null);
  const [result, setResult] = useState<{ success: number; failed: { terminalID: string; message: string }[] } | null>(
    null,
  );
  const run = async () => {
    const res = await deviceBatchManage({
      text: imeis,
      action,
      username: action === 'move' ? username.trim() : undefined,
      deviceType: action === 'changeModel' ? (deviceType ?? undefined) : undefined,
    });
    setResult(res);
    message.success(t('batchDone', { count: res.success }));
  };
  const confirmAndRun = () => {
    const go = () => run().catch((e: Error) => message.error(e.message));
    if (action === 'reset' || action === 'clearData') {
      modal.confirm({ title: t(`action.${action}`), content: t('irreversible'), onOk: go });
    } else void go();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="batch-manage-page">
      <Card title={t('batchTitle')}>
        <Form layout="vertical">
          <Form.Item label="IMEI">
            <ImeiInput value={imeis} onChange={setImeis} testId="batch" />
          </Form.Item>
          <Space wrap align="end">
            <Form.Item label={t('action.label')}>
              <Select
                style={{ width: 200 }}
                value={action}
                onChange={setAction}
                data-testid="batch-action"
                options={ACTIONS.map((a) => ({ value: a, label: t(`action.${a}`) }))}
              />
            </Form.Item>
            {action === 'move' && (
              <Form.Item label={t('account')}>
                <Input value={username} onChange={(e) => setUsername(e.target.value)} data-testid="batch-username" />
              </Form.Item>
            )}
            {action === 'changeModel' && (
              <Form.Item label={t('model')}>
                <InputNumber min={0} value={deviceType} onChange={setDeviceType} data-testid="batch-model" />
              </Form.Item>
            )}
            <Form.Item>
              <Button type="primary" onClick={confirmAndRun} data-testid="batch-run">
                {t('run')}
              </Button>
            </Form.Item>
          </Space>
        </Form>
      </Card>
      {result && (
        <Card>
          <Typography.Text data-testid="batch-result">{t('batchDone', { count: result.success })}</Typography.Text>
          {result.failed.length > 0 && (
            <Table
              size="small"
              rowKey="terminalID"
              dataSource={result.failed}
              columns={[
                { title: 'IMEI', dataIndex: 'terminalID' },
                { title: t('reason'), dataIndex: 'message' },
              ]}
            />
          )}
        </Card>
      )}
    </Space>
  );
}
