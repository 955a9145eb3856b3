// System → apiKey: keys for integrations. A key logs in as its account (POST /api/system/apiKey/login) and
// then has exactly that account's permissions; it is shown once, stored only as a hash, and can be revoked.
import { PlusOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Select, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { type ApiKey, addApiKey, findAccounts, findApiKeys, revokeApiKey } from './api.ts';
import { SystemTabs } from './SystemTabs.tsx';

const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '-');

export default function ApiKeyPage() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [form] = Form.useForm<{ name: string; userId?: string }>();
  const myId = auth?.userInfo.id ?? '';

  const keys = useQuery({ queryKey: ['apiKeys', page], queryFn: () => findApiKeys(page.pageNum, page.pageSize) });
  const accounts = useQuery({
    queryKey: ['apiKeyAccounts', myId],
    queryFn: () => findAccounts(myId),
    enabled: creating && myId !== '',
  });
  const add = useMutation({
    mutationFn: addApiKey,
    onSuccess: (k) => {
      setCreating(false);
      form.resetFields();
      setCreated(k.key);
      void queryClient.invalidateQueries({ queryKey: ['apiKeys'] });
    },
    onError: (err: Error) => message.error(err.message),
  });
  const revoke = useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => {
      message.success(t('apiKey.revoked'));
      void queryClient.invalidateQueries({ queryKey: ['apiKeys'] });
    },
    onError: (err: Error) => message.error(err.message),
  });

  return (
    <SystemTabs active="apiKey">
      <Typography.Paragraph type="secondary">{t('apiKey.intro')}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} style={{ marginBottom: 12 }}>
        {t('apiKey.new')}
      </Button>
      <Table<ApiKey>
        rowKey="id"
        size="small"
        loading={keys.isLoading}
        dataSource={keys.data?.list ?? []}
        locale={{ emptyText: t('apiKey.empty') }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: keys.data?.total ?? 0,
          pageSizeOptions: [...PAGE_SIZE_OPTIONS],
          showSizeChanger: true,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('apiKey.name'), dataIndex: 'name' },
          {
            title: t('apiKey.prefix'),
            dataIndex: 'prefix',
            render: (p: string) => <Typography.Text code>{p}…</Typography.Text>,
          },
          { title: t('apiKey.account'), dataIndex: 'username' },
          { title: t('apiKey.createdAt'), key: 'createdAt', render: (_, k) => time(k.createdAt) },
          { title: t('apiKey.lastUsedAt'), key: 'lastUsedAt', render: (_, k) => time(k.lastUsedAt) },
          {
            title: t('apiKey.state'),
            key: 'state',
            render: (_, k) =>
              k.revokedAt ? (
                <Tag>{t('apiKey.revokedAt', { time: time(k.revokedAt) })}</Tag>
              ) : (
                <Tag color="green">{t('apiKey.active')}</Tag>
              ),
          },
          {
            title: t('actions'),
            key: 'actions',
            render: (_, k) =>
              !k.revokedAt && (
                <Popconfirm
                  title={t('apiKey.confirmRevoke')}
                  okText={t('ok')}
                  cancelText={t('cancel')}
                  onConfirm={() => revoke.mutateAsync(k.id)}
                >
                  <Button type="link" danger size="small">
                    {t('apiKey.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('apiKey.new')}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        okText={t('apiKey.create')}
        cancelText={t('cancel')}
        confirmLoading={add.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => add.mutate({ name: v.name.trim(), userId: v.userId })}>
          <Form.Item
            name="name"
            label={t('apiKey.name')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="userId" label={t('apiKey.account')} extra={t('apiKey.accountHint')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={accounts.isLoading}
              options={(accounts.data ?? []).map((a) => ({
                value: a.id,
                label: a.nickname ? `${a.username} (${a.nickname})` : a.username,
              }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={t('apiKey.createdTitle')}
        onCancel={() => setCreated(null)}
        onOk={() => setCreated(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert type="warning" showIcon message={t('apiKey.showOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable code style={{ wordBreak: 'break-all' }}>
          {created}
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('apiKey.usage')}</Typography.Paragraph>
        <Typography.Paragraph code>{`POST /api/system/apiKey/login {"key": "…"}`}</Typography.Paragraph>
      </Modal>
    </SystemTabs>
  );
}
