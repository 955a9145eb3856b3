// What a restricted session sees instead of every screen (the server refuses everything else too): choose
// one's own password when someone else set it, or set up two-factor sign-in when the administrator requires it.
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { authStore, useAuth } from '../../auth/store.ts';
import { domainText, requiredRule } from '../agent/formRules.ts';
import { changeOwnPassword } from './api.ts';
import { refreshSession, TotpEnrol } from './TotpCard.tsx';

interface Values {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

function ChangePasswordForm() {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = async () => {
    const v = await form.validateFields();
    try {
      await changeOwnPassword(v.oldPassword, v.password, v.confirmPassword);
      message.success(t('password.changed'));
      await refreshSession();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Form form={form} layout="vertical" data-testid="must-change-form">
      <Form.Item name="oldPassword" label={t('password.old')} rules={[requiredRule(t('password.old'))]}>
        <Input.Password autoComplete="current-password" data-testid="must-change-old" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('password.new')}
        rules={[requiredRule(t('password.new')), { min: 6, message: t('password.min', { min: 6 }) }]}
      >
        <Input.Password autoComplete="new-password" data-testid="must-change-new" />
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
        <Input.Password autoComplete="new-password" data-testid="must-change-confirm" />
      </Form.Item>
      <Button type="primary" onClick={() => void save()} data-testid="must-change-save">
        {t('save')}
      </Button>
    </Form>
  );
}

/** antd's App context (message) for this screen, which is shown outside the signed-in layout. */
export default function SignInSetupPage() {
  return (
    <App>
      <SignInSetup />
    </App>
  );
}

function SignInSetup() {
  const { t } = useTranslation('security');
  const auth = useAuth();
  const navigate = useNavigate();
  const restriction = auth?.restriction ?? null;
  const logout = async () => {
    try {
      await api<null>('/logout');
    } finally {
      authStore.set(null);
      navigate('/login', { replace: true });
    }
  };
  return (
    <div
      style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}
      data-testid={`signin-setup-${restriction}`}
    >
      <Card
        style={{ width: 460 }}
        title={restriction === 'enrolTotp' ? t('setup.enrolTitle') : t('setup.changeTitle')}
        extra={
          <Button type="link" onClick={() => void logout()} data-testid="signin-setup-logout">
            {t('setup.logout')}
          </Button>
        }
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={restriction === 'enrolTotp' ? t('setup.enrolHint') : t('setup.changeHint')}
        />
        {restriction === 'enrolTotp' ? <TotpEnrol onDone={() => void refreshSession()} /> : <ChangePasswordForm />}
      </Card>
    </div>
  );
}
