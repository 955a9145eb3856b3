// /index/agent/setImportRecords: an agent's import quota (remaining, received, handed down, used), giving or
// taking back quota, and the usage records.
import { DEFAULT_PAGE_SIZE, isAgent, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountActionModal } from './AccountActionModal.tsx';
import { useAccountAccess } from './access.ts';
import { findAgents, type QuotaRecord, quotaRecords, quotaSummary } from './api.ts';
import { AGENT_PAGES, SubNav } from './SubNav.tsx';
import { accountLabel } from './tree.ts';

export default function ImportRecordsPage() {
  const { t } = useTranslation('agent');
  const queryClient = useQueryClient();
  const { can, myId } = useAccountAccess();
  const [agentId, setAgentId] = useState(myId);
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [giving, setGiving] = useState(false);

  const agents = useQuery({
    queryKey: ['accounts', 'agents', myId],
    queryFn: ({ signal }) => findAgents(myId, signal),
  });
  const summary = useQuery({ queryKey: ['quota', agentId], queryFn: () => quotaSummary(agentId) });
  const records = useQuery({
    queryKey: ['quotaRecords', agentId, page],
    queryFn: ({ signal }) => quotaRecords(agentId, page.pageNum, page.pageSize, signal),
    placeholderData: (previous) => previous,
  });
  const agent = agents.data?.find((a) => a.id === agentId);

  const columns: ColumnsType<QuotaRecord> = [
    {
      title: t('records.time'),
      key: 'time',
      width: 170,
      render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm:ss'),
    },
    { title: t('records.kind'), key: 'kind', width: 120, render: (_, r) => <Tag>{t(`records.kinds.${r.kind}`)}</Tag> },
    {
      title: t('records.amount'),
      key: 'amount',
      width: 100,
      render: (_, r) => (
        <span style={{ color: r.amount < 0 ? '#cf1322' : '#389e0d' }}>{r.amount > 0 ? `+${r.amount}` : r.amount}</span>
      ),
    },
    { title: t('records.balance'), dataIndex: 'balance', width: 100 },
    { title: t('records.counterpart'), key: 'counterpart', render: (_, r) => r.counterpartName ?? '-' },
    { title: t('records.operator'), key: 'operator', render: (_, r) => r.operatorName ?? '-' },
    { title: t('records.note'), dataIndex: 'note' },
  ];

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={AGENT_PAGES} />
      <Card
        size="small"
        // The title holds the account picker: it wraps rather than cutting the picked account's name.
        styles={{ title: { whiteSpace: 'normal', overflow: 'visible' } }}
        title={
          <Space wrap>
            {t('records.agent')}
            <Select
              showSearch
              optionFilterProp="label"
              style={{ minWidth: 260 }}
              value={agentId}
              onChange={(id) => {
                setAgentId(id);
                setPage((p) => ({ ...p, pageNum: 1 }));
              }}
              options={(agents.data ?? []).map((a) => ({ value: a.id, label: accountLabel(a) }))}
            />
          </Space>
        }
        extra={
          can('quota') &&
          agent &&
          agent.id !== myId &&
          isAgent(agent.role) && (
            <Button type="primary" onClick={() => setGiving(true)}>
              {t('action.quota')}
            </Button>
          )
        }
      >
        <Descriptions size="small" bordered column={4} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('quota.remaining')}>
            {summary.data?.unlimited ? t('quota.unlimited') : summary.data?.remaining}
          </Descriptions.Item>
          <Descriptions.Item label={t('quota.received')}>{summary.data?.received}</Descriptions.Item>
          <Descriptions.Item label={t('quota.given')}>{summary.data?.given}</Descriptions.Item>
          <Descriptions.Item label={t('quota.used')}>{summary.data?.used}</Descriptions.Item>
        </Descriptions>
        <Table
          size="small"
          rowKey="id"
          loading={records.isFetching}
          dataSource={records.data?.list ?? []}
          columns={columns}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: records.data?.total ?? 0,
            pageSizeOptions: [...PAGE_SIZE_OPTIONS],
            showSizeChanger: true,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
        />
      </Card>
      {giving && agent && (
        <AccountActionModal
          kind="quota"
          account={agent}
          agents={agents.data ?? []}
          myId={myId}
          onClose={(changed) => {
            setGiving(false);
            if (changed) void queryClient.invalidateQueries();
          }}
        />
      )}
    </div>
  );
}
