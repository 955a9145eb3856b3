// /index/notify (main:alarms): notification rules (list, editor, "send test") and the delivery log with each
// delivery's status and the receiver's answer.
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceTypes } from '../deviceTypes/api.ts';
import {
  addRule,
  type Delivery,
  deleteRule,
  findDeliveries,
  findRules,
  type Rule,
  type RuleInput,
  testRule,
  updateRule,
} from './api.ts';
import { PushButton } from './PushButton.tsx';
import { RuleEditor } from './RuleEditor.tsx';

const STATUS_COLOR: Record<string, string> = { sent: 'green', failed: 'red', retrying: 'orange', queued: 'blue' };

export default function NotifyPage() {
  const { t } = useTranslation('notify');
  return (
    <Tabs
      data-testid="notify-tabs"
      items={[
        { key: 'rules', label: t('rules'), children: <RuleList /> },
        { key: 'log', label: t('log'), children: <DeliveryLog /> },
      ]}
    />
  );
}

function RuleList() {
  const { t } = useTranslation('notify');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const list = useQuery({ queryKey: ['notifyRules', page], queryFn: () => findRules(page), placeholderData: (p) => p });
  const types = useDeviceTypes();
  const typeNames = useMemo(() => new Map(types.map((d) => [String(d.deviceType), d.name])), [types]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['notifyRules'] });
  const onError = (err: Error) => message.error(err.message);
  const save = useMutation({
    mutationFn: (input: RuleInput) =>
      editing && editing !== 'new' ? updateRule({ id: editing.id, ...input }) : addRule(input),
    onSuccess: () => {
      message.success(t('saved'));
      setEditing(null);
      refresh();
    },
    onError,
  });
  const remove = useMutation({ mutationFn: deleteRule, onSuccess: refresh, onError });
  const toggle = useMutation({
    mutationFn: (r: Rule) => updateRule({ id: r.id, enabled: !r.enabled }),
    onSuccess: refresh,
    onError,
  });
  const test = useMutation({
    mutationFn: testRule,
    onSuccess: (r) => {
      message.success(t('testQueued', { count: r.queued }));
      void queryClient.invalidateQueries({ queryKey: ['notifyDeliveries'] });
    },
    onError,
  });
  return (
    <div data-testid="notify-rules">
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="rule-add">
          {t('addRule')}
        </Button>
        <PushButton />
      </Space>
      <Table<Rule>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('name'), dataIndex: 'name' },
          {
            title: t('events.title'),
            render: (_, r) => r.events.map((e) => <Tag key={e}>{e}</Tag>),
          },
          {
            title: t('channels.title'),
            render: (_, r) =>
              [...new Set(r.channels.map((c) => c.type))].map((type) => <Tag key={type}>{t(`channels.${type}`)}</Tag>),
          },
          {
            title: t('devices'),
            render: (_, r) => (r.terminalIDs ? r.terminalIDs.length : t('allDevices')),
          },
          {
            title: t('deviceTypes'),
            render: (_, r) => (
              <span data-testid="rule-device-types-cell">
                {r.deviceTypes
                  ? r.deviceTypes.map((code) => <Tag key={code}>{typeNames.get(code) ?? code}</Tag>)
                  : t('allTypes')}
              </span>
            ),
          },
          {
            title: t('quietHours'),
            render: (_, r) => (r.quietHours ? `${r.quietHours.from}–${r.quietHours.to}` : '—'),
          },
          {
            title: t('enabled'),
            render: (_, r) => (
              <Button size="small" type="link" onClick={() => toggle.mutate(r)}>
                {r.enabled ? t('on') : t('off')}
              </Button>
            ),
          },
          { title: t('owner'), dataIndex: 'username' },
          {
            title: '',
            render: (_, r) => (
              <Space>
                <Button
                  size="small"
                  icon={<SendOutlined />}
                  onClick={() => test.mutate(r.id)}
                  data-testid={`rule-test-${r.id}`}
                >
                  {t('sendTest')}
                </Button>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(r)} aria-label={t('editRule')} />
                <Popconfirm title={t('confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <RuleEditor
          rule={editing === 'new' ? null : editing}
          saving={save.isPending}
          onSave={(input) => save.mutate(input)}
          onCancel={() => setEditing(null)}
        />
      )}
    </div>
  );
}

function DeliveryLog() {
  const { t } = useTranslation('notify');
  const [ruleId, setRuleId] = useState<string | undefined>();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const rules = useQuery({
    queryKey: ['notifyRules', 'all'],
    queryFn: () => findRules({ pageNum: 1, pageSize: 1000 }),
  });
  const list = useQuery({
    queryKey: ['notifyDeliveries', ruleId, page],
    queryFn: () => findDeliveries({ ruleId, ...page }),
    refetchInterval: 5000,
    placeholderData: (p) => p,
  });
  return (
    <div data-testid="notify-log">
      <Select
        allowClear
        placeholder={t('allRules')}
        value={ruleId}
        onChange={(v) => {
          setRuleId(v);
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
        options={(rules.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
        style={{ width: 240, marginBottom: 12 }}
      />
      <Table<Delivery>
        rowKey="id"
        size="small"
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('time'), render: (_, d) => new Date(d.createdAt).toLocaleString() },
          { title: t('rule'), dataIndex: 'ruleName' },
          { title: t('event'), render: (_, d) => (d.test ? <Tag>{t('test')}</Tag> : d.event) },
          { title: t('device'), render: (_, d) => (d.test ? '—' : `${d.deviceName} (${d.terminalID})`) },
          { title: t('channels.title'), render: (_, d) => t(`channels.${d.channel}`) },
          {
            title: t('status'),
            render: (_, d) => (
              <Tag color={STATUS_COLOR[d.status]} data-testid="delivery-status">
                {t(`statuses.${d.status}`)}
              </Tag>
            ),
          },
          { title: t('attempts'), dataIndex: 'attempts' },
          {
            title: t('answer'),
            render: (_, d) => (
              <Typography.Text
                ellipsis={{ tooltip: d.response }}
                style={{ maxWidth: 280 }}
                data-testid="delivery-answer"
              >
                {d.response}
              </Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}
