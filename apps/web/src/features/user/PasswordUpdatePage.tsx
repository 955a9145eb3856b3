// /index/device/passwordUpdate: change one's own password (current one checked; other sessions end).

import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { domainText, requiredRule } from '../agent/formRules.ts';
import { SubNav } from '../agent/SubNav.tsx';
import { DEVICE_PAGES } from '../device/pages.ts';
import { changeOwnPassword, hasDefaultPassword } from './api.ts';

interface Values {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export default function PasswordUpdatePage() {
  const { t } = useTranslation('user');
  const { t: ts } = useTranslation('security');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const isDefault = useQuery({ queryKey: ['defaultPassword'], queryFn: hasDefaultPassword });

  const save = async () => {
    const v = await form.validateFields();
    try {
      await changeOwnPassword(v.oldPassword, v.password, v.confirmPassword);
      message.success(t('password.changed'));
      form.resetFields();
      void isDefault.refetch();
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Card size="small" title={t('password.title')} style={{ maxWidth: 480 }}>
        {isDefault.data && (
          <Alert type="warning" showIcon message={ts('setup.changeHint')} style={{ marginBottom: 12 }} />
        )}
        <Form form={form} layout="vertical">
          <Form.Item name="oldPassword" label={t('password.old')} rules={[requiredRule(t('password.old'))]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('password.new')}
            rules={[requiredRule(t('password.new')), { min: 6, message: t('password.min', { min: 6 }) }]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('password.confirm')}
            dependencies={['password']}
            rules={[
              requiredRule(t('password.confirm')),
              ({ getFieldValue }) => ({
                validator: async (_r, value: string) => {
                  if (value && value !== getFieldValue('password')) throw new Error(domainText('validation.confirmed'));
                },
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" onClick={() => void save()}>
            {t('save')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
