// /test/log/monitor: the system log (server warnings and errors) with a live tail (polling every 3 s for rows
// newer than the newest shown), the audit log (every write through the API) in a second tab, and the retention
// of each log kind in a third.
import { App as AntApp, Button, Input, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuditRow, findAudit, findSystemLog, type SystemLogRow, when } from './api.ts';
import RetentionTab from './RetentionTab.tsx';

function SystemLogTab() {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [keyword, setKeyword] = useState('');
  const [level, setLevel] = useState<string | undefined>();
  const [rows, setRows] = useState<SystemLogRow[]>([]);
  const [live, setLive] = useState(false);
  const newest = useRef<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);

  const search = async () => {
    setLoading(true);
    try {
      const page = await findSystemLog({ keyword: keyword || undefined, level, pageNum: 1, pageSize: 200 });
      setRows(page.list);
      newest.current = page.list[0]?.id;
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setLoading(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(async () => {
      const page = await findSystemLog({
        keyword: keyword || undefined,
        level,
        afterId: newest.current,
        pageNum: 1,
        pageSize: 200,
      }).catch(() => null);
      if (!page || page.list.length === 0) return;
      newest.current = page.list[0]?.id;
      setRows((old) => [...page.list, ...old].slice(0, 1000));
    }, 3000);
    return () => clearInterval(timer);
  }, [live, keyword, level]);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input
          placeholder={t('keyword')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ width: 220 }}
        />
        <Select
          allowClear
          placeholder={t('level')}
          value={level}
          onChange={setLevel}
          style={{ width: 140 }}
          options={['warn', 'error', 'fatal'].map((l) => ({ value: l, label: l }))}
        />
        <Button type="primary" onClick={() => void search()} data-testid="system-log-search">
          {t('search')}
        </Button>
        <Switch checked={live} onChange={setLive} data-testid="system-log-live" /> {t('liveTail')}
      </Space>
      <Table<SystemLogRow>
        rowKey="id"
        size="small"
        dataSource={rows}
        loading={loading}
        data-testid="system-log-table"
        pagination={{ pageSize: 50, showSizeChanger: false }}
        expandable={{
          expandedRowRender: (r) => <pre style={{ fontSize: 11 }}>{r.detail}</pre>,
          rowExpandable: (r) => r.detail !== '',
        }}
        columns={[
          { title: t('time'), dataIndex: 'time', render: when, width: 180 },
          {
            title: t('level'),
            dataIndex: 'level',
            width: 90,
            render: (l: string) => <Tag color={l === 'warn' ? 'orange' : 'red'}>{l}</Tag>,
          },
          { title: t('message'), dataIndex: 'message' },
        ]}
      />
    </Space>
  );
}

function AuditTab() {
  const { t } = useTranslation('factoryLogs');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: AuditRow[] }>({ total: 0, list: [] });
  const search = async (p = 1) => {
    setPage(p);
    setRows(await findAudit({ keyword: keyword || undefined, pageNum: p, pageSize: 20 }));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="audit-log">
      <Space>
        <Input
          placeholder={t('keyword')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ width: 220 }}
        />
        <Button type="primary" onClick={() => void search()}>
          {t('search')}
        </Button>
      </Space>
      <Table<AuditRow>
        rowKey="id"
        size="small"
        dataSource={rows.list}
        pagination={{
          current: page,
          pageSize: 20,
          total: rows.total,
          onChange: (p) => void search(p),
          showSizeChanger: false,
        }}
        columns={[
          { title: t('time'), dataIndex: 'time', render: when, width: 180 },
          { title: t('user'), dataIndex: 'username' },
          { title: t('remote'), dataIndex: 'ip' },
          { title: t('operation'), dataIndex: 'operation' },
          { title: t('status'), dataIndex: 'status' },
        ]}
      />
    </Space>
  );
}

export default function SystemLogPage() {
  const { t } = useTranslation('factoryLogs');
  return (
    <Tabs
      data-testid="system-log-page"
      items={[
        { key: 'system', label: t('systemLog'), children: <SystemLogTab /> },
        { key: 'audit', label: t('auditLog'), children: <AuditTab /> },
        { key: 'retention', label: t('retention.title'), children: <RetentionTab /> },
      ]}
    />
  );
}
