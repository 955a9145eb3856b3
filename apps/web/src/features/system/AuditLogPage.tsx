// System → auditLog: every write made through the API — who, when, from which address, which operation, on
// which targets, and before/after of expiries, owners, roles, passwords and deletions (POST /api/audit/find).
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuditEntry, type AuditFilter, findAudit } from './api.ts';
import { SystemTabs } from './SystemTabs.tsx';

interface FilterForm {
  user?: string;
  operation?: string;
  target?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** 'POST /api/user/resetPassword' → 'user/resetPassword'. */
const shortOperation = (op: string) => op.replace(/^[A-Z]+ \/api\//, '');

/** A value of a before/after record as text (the table renders it as text, never as HTML). */
function show(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) return dayjs(v).format('YYYY-MM-DD HH:mm');
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('system');
  if (!entry.changes || entry.changes.length === 0) return <>-</>;
  return (
    <Space direction="vertical" size={2}>
      {entry.changes.map((c) => (
        <Typography.Text key={`${c.kind}:${c.id}`} style={{ fontSize: 12 }}>
          {t(`audit.kind.${c.kind}`)} {c.id}:{' '}
          {c.after === null
            ? t('audit.deleted')
            : Object.keys({ ...(c.before ?? {}), ...c.after })
                .map((f) =>
                  f === 'password'
                    ? t('audit.passwordChanged')
                    : `${t(`audit.field.${f}`, { defaultValue: f })}: ${show(c.before?.[f])} → ${show(c.after?.[f])}`,
                )
                .join('; ')}
        </Typography.Text>
      ))}
    </Space>
  );
}

export default function AuditLogPage() {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<FilterForm>();
  const [filter, setFilter] = useState<AuditFilter>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const log = useQuery({
    queryKey: ['auditLog', filter, page],
    queryFn: () => findAudit(filter, page.pageNum, page.pageSize),
  });

  const search = (v: FilterForm) => {
    const [start, end] = v.range ?? [null, null];
    setFilter({
      user: v.user?.trim() || undefined,
      operation: v.operation?.trim() || undefined,
      target: v.target?.trim() || undefined,
      startTime: start ? start.toISOString() : undefined,
      endTime: end ? end.toISOString() : undefined,
    });
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  return (
    <SystemTabs active="auditLog">
      <Typography.Paragraph type="secondary">{t('audit.intro')}</Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="user" label={t('audit.user')}>
          <Input allowClear maxLength={50} placeholder={t('audit.userHint')} data-testid="audit-user" />
        </Form.Item>
        <Form.Item name="operation" label={t('audit.operation')}>
          <Input allowClear maxLength={100} placeholder="resetPassword" data-testid="audit-operation" />
        </Form.Item>
        <Form.Item name="target" label={t('audit.target')}>
          <Input allowClear maxLength={60} placeholder={t('audit.targetHint')} data-testid="audit-target" />
        </Form.Item>
        <Form.Item name="range" label={t('audit.time')}>
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="audit-search">
              {t('audit.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                search({});
              }}
            >
              {t('audit.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        loading={log.isLoading}
        dataSource={log.data?.list ?? []}
        locale={{ emptyText: t('audit.empty') }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: log.data?.total ?? 0,
          pageSizeOptions: [...PAGE_SIZE_OPTIONS],
          showSizeChanger: true,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          {
            title: t('audit.at'),
            key: 'at',
            width: 150,
            render: (_, e) => dayjs(e.at).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: t('audit.user'), key: 'user', render: (_, e) => e.username || e.userId || '-' },
          { title: t('audit.ip'), dataIndex: 'ip' },
          { title: t('audit.operation'), key: 'operation', render: (_, e) => shortOperation(e.operation) },
          {
            title: t('audit.target'),
            key: 'targets',
            render: (_, e) =>
              Object.entries(e.targets)
                .map(([kind, ids]) => `${kind}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' …' : ''}`)
                .join('; ') || '-',
          },
          { title: t('audit.changes'), key: 'changes', render: (_, e) => <Changes entry={e} /> },
        ]}
      />
    </SystemTabs>
  );
}
