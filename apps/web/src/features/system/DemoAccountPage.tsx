// System → demoAccountSet: the account behind the login page's "try it out" button (an end-user account),
// and the maintenance notice shown after login until its end time.
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginSecurityCard } from '../security/LoginSecurityCard.tsx';
import { type DemoAccount, findDemoAccount, saveDemoAccount } from './api.ts';
import { NoticeEditor } from './NoticeEditor.tsx';
import { SystemTabs } from './SystemTabs.tsx';

export default function DemoAccountPage() {
  return (
    <SystemTabs active="demoAccountSet">
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <DemoAccountCard />
        <LoginSecurityCard />
        <NoticeEditor />
      </Space>
    </SystemTabs>
  );
}

function DemoAccountCard() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [form] = Form.useForm<DemoAccount>();
  const demo = useQuery({ queryKey: ['demoAccount'], queryFn: findDemoAccount });
  useEffect(() => {
    if (demo.data) form.setFieldsValue(demo.data);
  }, [demo.data, form]);
  const save = useMutation({
    mutationFn: saveDemoAccount,
    onSuccess: (d) => {
      form.setFieldsValue(d);
      message.success(t('saved'));
    },
    onError: (err: Error) => message.error(err.message),
  });
  return (
    <Card title={t('demo.title')} size="small" loading={demo.isLoading}>
      <Typography.Paragraph type="secondary">{t('demo.intro')}</Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        onFinish={(v) => save.mutate({ username: v.username.trim(), enabled: v.enabled })}
      >
        <Form.Item
          name="username"
          label={t('demo.username')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={100} style={{ width: 220 }} data-testid="demo-username" />
        </Form.Item>
        <Form.Item name="enabled" label={t('demo.enabled')} valuePropName="checked">
          <Switch data-testid="demo-enabled" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="demo-save">
          {t('save')}
        </Button>
      </Form>
    </Card>
  );
}
