// The task list (newest first, with progress); a task opens in the shared task-progress view with its
// per-device states. Used by the factory's log/cmdTask (every task) and the customer site's
// device/multipleCmdSearch (its batch commands).
import { hasPermission } from '@carhere/domain';
import { Button, Drawer, Input, Progress, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { findTasks, type TaskView } from './api.ts';
import { TaskProgress } from './TaskProgress.tsx';

const when = (v: string | null | undefined) => (v ? new Date(v).toLocaleString() : '');

export function TaskList({ area, kind }: { area?: 'main' | 'factory'; kind?: string }) {
  const { t } = useTranslation('factoryLogs');
  const auth = useAuth();
  const [imei, setImei] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: TaskView[] }>({ total: 0, list: [] });
  const [open, setOpen] = useState<string | null>(null);
  // Until the first answer the list shows skeleton rows, not "nothing here".
  const [loading, setLoading] = useState(true);
  const search = async (p = 1) => {
    setPage(p);
    setLoading(true);
    try {
      setRows(await findTasks({ area, kind, terminalID: imei.trim() || undefined, pageNum: p, pageSize: 20 }));
    } finally {
      setLoading(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);
  const canCancel = hasPermission(auth?.permissions ?? [], ['factory:muti_cmd', 'main:command_batch']);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="cmd-task-page">
      <Space>
        <Input placeholder="IMEI" value={imei} onChange={(e) => setImei(e.target.value)} style={{ width: 220 }} />
        <Button type="primary" onClick={() => void search()}>
          {t('search')}
        </Button>
      </Space>
      <Table<TaskView>
        rowKey="id"
        size="small"
        dataSource={rows.list}
        loading={loading}
        onRow={(r) =>
          ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' }, 'data-testid': `task-row-${r.id}` }) as never
        }
        pagination={{
          current: page,
          pageSize: 20,
          total: rows.total,
          onChange: (p) => void search(p),
          showSizeChanger: false,
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 80 },
          { title: t('task.kind'), dataIndex: 'kind', width: 100 },
          { title: t('task.title'), dataIndex: 'title' },
          { title: t('task.creator'), dataIndex: 'creatorName' },
          { title: t('time'), dataIndex: 'createdAt', render: when },
          { title: t('task.total'), dataIndex: 'total' },
          { title: t('task.progress'), render: (_, r) => <Progress percent={Math.round(r.done * 100)} size="small" /> },
        ]}
      />
      <Drawer open={open !== null} onClose={() => setOpen(null)} width={900} title={t('task.detail')} destroyOnHidden>
        {open && <TaskProgress taskId={open} canCancel={canCancel} />}
      </Drawer>
    </Space>
  );
}
