// /index/agent/indexAgentListExport: the accounts of a subtree as a spreadsheet, within the export limit.
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Radio, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useAccountAccess } from './access.ts';
import { exportAccounts, findAgents } from './api.ts';
import { domainText } from './formRules.ts';
import { AGENT_PAGES, SubNav } from './SubNav.tsx';
import { accountLabel } from './tree.ts';

export default function AgentExportPage() {
  const { t } = useTranslation('agent');
  const { message } = App.useApp();
  const { myId } = useAccountAccess();
  const [rootId, setRootId] = useState(myId);
  const [agentsOnly, setAgentsOnly] = useState(true);
  const [busy, setBusy] = useState(false);
  const agents = useQuery({
    queryKey: ['accounts', 'agents', myId],
    queryFn: ({ signal }) => findAgents(myId, signal),
  });
  const limits = useQuery({
    queryKey: ['deviceLimits'],
    queryFn: () => api<{ agentsPerExport: number }>('/device/limits', undefined, { method: 'GET' }),
  });

  const run = async () => {
    setBusy(true);
    try {
      await exportAccounts(rootId, agentsOnly, `${t('exportFile')}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      message.success(domainText('action.export.success'));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={AGENT_PAGES} />
      <Card size="small" title={t('nav.export')} style={{ maxWidth: 640 }}>
        <Form layout="vertical">
          <Form.Item label={t('export.root')}>
            <Select
              showSearch
              optionFilterProp="label"
              value={rootId}
              onChange={setRootId}
              options={(agents.data ?? []).map((a) => ({ value: a.id, label: accountLabel(a) }))}
            />
          </Form.Item>
          <Form.Item label={t('export.which')}>
            <Radio.Group
              value={agentsOnly}
              onChange={(e) => setAgentsOnly(e.target.value)}
              options={[
                { value: true, label: t('export.agentsOnly') },
                { value: false, label: t('export.everyone') },
              ]}
            />
          </Form.Item>
          {limits.data && (
            <Typography.Paragraph type="secondary">
              {t('export.limit', { max: limits.data.agentsPerExport })}
            </Typography.Paragraph>
          )}
          <Button type="primary" icon={<DownloadOutlined />} loading={busy} onClick={() => void run()}>
            {t('action.export')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
