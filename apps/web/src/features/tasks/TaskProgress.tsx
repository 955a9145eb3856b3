// The one task-progress view (shared/DESIGN.md): a task's progress bar, its count per item state, and its
// per-device items (state, reply, times), refreshed every 2 s while items are open. Used by the factory's
// cmdTask log and by any screen that starts a task.
import { App as AntApp, Button, Popconfirm, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReplyCell } from '../deviceTypes/OilOutcome.tsx';
import { cancelTask, getTask, type TaskItemState, type TaskItemView, type TaskView, taskItems } from './api.ts';

export const STATES: TaskItemState[] = ['pending', 'sent', 'success', 'failed', 'timeout', 'cancelled'];
const COLORS: Record<TaskItemState, string> = {
  pending: 'default',
  sent: 'processing',
  success: 'success',
  failed: 'error',
  timeout: 'warning',
  cancelled: 'default',
};

export function StateTag({ state }: { state: TaskItemState }) {
  const { t } = useTranslation('factoryLogs');
  return <Tag color={COLORS[state]}>{t(`state.${state}`)}</Tag>;
}

export function TaskProgress({ taskId, canCancel }: { taskId: string; canCancel?: boolean }) {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [task, setTask] = useState<TaskView | null>(null);
  const [items, setItems] = useState<{ total: number; list: TaskItemView[] }>({ total: 0, list: [] });
  const [state, setState] = useState<TaskItemState | undefined>();
  const [page, setPage] = useState(1);

  const load = useCallback(async () => {
    const [tk, its] = await Promise.all([
      getTask(taskId),
      taskItems({ id: taskId, state, pageNum: page, pageSize: 20 }),
    ]);
    setTask(tk);
    setItems(its);
    return tk;
  }, [taskId, state, page]);

  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const tk = await load();
        if (!stop && !tk.finished) timer = setTimeout(tick, 2000);
      } catch (err) {
        message.error((err as Error).message);
      }
    };
    void tick();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [load, message]);

  if (!task) return null;
  return (
    <div data-testid="task-progress">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text strong>{task.title}</Typography.Text>
          <Typography.Text type="secondary">
            {t('task.by', { name: task.creatorName, time: new Date(task.createdAt).toLocaleString() })}
          </Typography.Text>
          {canCancel && !task.finished && (
            <Popconfirm
              title={t('task.cancelConfirm')}
              onConfirm={async () => {
                await cancelTask(task.id);
                await load();
              }}
            >
              <Button danger size="small" data-testid="task-cancel">
                {t('task.cancel')}
              </Button>
            </Popconfirm>
          )}
        </Space>
        <Progress percent={Math.round(task.done * 100)} status={task.finished ? 'success' : 'active'} />
        <Space wrap data-testid="task-counts">
          {STATES.map((s) => (
            <span key={s} data-testid={`task-count-${s}`} data-count={task.counts[s]}>
              <StateTag state={s} /> {task.counts[s]}
            </span>
          ))}
          <span>
            {t('task.total')}: {task.counts.total}
          </span>
        </Space>
        <Select
          allowClear
          placeholder={t('task.filterState')}
          style={{ width: 200 }}
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          options={STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
        />
        <Table<TaskItemView>
          loading={task === null}
          rowKey="id"
          size="small"
          dataSource={items.list}
          pagination={{ current: page, pageSize: 20, total: items.total, onChange: setPage, showSizeChanger: false }}
          columns={[
            { title: 'IMEI', dataIndex: 'terminalID' },
            { title: t('task.state'), dataIndex: 'state', render: (s: TaskItemState) => <StateTag state={s} /> },
            { title: t('task.reply'), render: (_, r) => <ReplyCell reply={r.reply ?? r.detail} oil={r.oil} /> },
            {
              title: t('task.sentAt'),
              dataIndex: 'sentAt',
              render: (v: string | null) => (v ? new Date(v).toLocaleString() : ''),
            },
            {
              title: t('task.doneAt'),
              dataIndex: 'doneAt',
              render: (v: string | null) => (v ? new Date(v).toLocaleString() : ''),
            },
          ]}
        />
      </Space>
    </div>
  );
}
