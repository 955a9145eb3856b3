// /loginByCert (spec §2): sign in to a device account by its IMEI — from the link a seller gives with the
// device (/loginByCert?imei=…) — with the device account's password, landing on that device in the monitor.
// The server side is POST /api/loginByCert (throttled like /login; codes of spec §8). With the seller's link
// (/loginByCert?imei=…&link=…, made by /api/user/certLink) the customer chooses the account's password instead
// (POST /api/loginByCert/link): the link works once.
import { Alert, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { callEnvelope } from '../../api/client.ts';
import type { LoginData, TotpStep } from '../../api/types.ts';
import { authStore, useAuth } from '../../auth/store.ts';
import { clientState } from './clientState.ts';

export default function LoginByCertPage() {
  const { t } = useTranslation('custself');
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const imei = params.get('imei') ?? params.get('terminalID') ?? '';
  const link = params.get('link') ?? '';

  if (auth) return <Navigate to="/redirect" replace />;

  const submit = async (v: { terminalID: string; password: string; confirmPassword?: string }) => {
    setBusy(true);
    setError(null);
    try {
      const env = await callEnvelope<LoginData | TotpStep>(
        link ? '/loginByCert/link' : '/loginByCert',
        link
          ? { terminalID: v.terminalID.trim(), link, password: v.password, confirmPassword: v.confirmPassword ?? '' }
          : { terminalID: v.terminalID.trim(), password: v.password },
      );
      if (env.meta.code === 210) {
        // Two-factor accounts finish on the normal login page.
        navigate('/login', { replace: true });
        return;
      }
      if (env.meta.code !== 200 || !env.data || !('userInfo' in env.data)) {
        setError(env.meta.message);
        return;
      }
      // Land on that device: the monitor selects it (session key selectedTid).
      clientState.setSelectedTid(v.terminalID.trim());
      authStore.set(env.data);
      navigate('/redirect', { replace: true });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card title={link ? t('cert.linkTitle') : t('cert.title')} style={{ width: 380 }} data-testid="login-by-cert">
        <Form layout="vertical" initialValues={{ terminalID: imei, password: '' }} onFinish={(v) => void submit(v)}>
          <Form.Item name="terminalID" label="IMEI" rules={[{ required: true, pattern: /^[0-9A-Za-z]{10,15}$/ }]}>
            <Input data-testid="cert-imei" autoComplete="username" readOnly={link !== ''} />
          </Form.Item>
          <Form.Item
            name="password"
            label={link ? t('cert.newPassword') : t('cert.password')}
            rules={[{ required: true }, ...(link ? [{ min: 6 }] : [])]}
          >
            <Input.Password data-testid="cert-password" autoComplete={link ? 'new-password' : 'current-password'} />
          </Form.Item>
          {link && (
            <Form.Item
              name="confirmPassword"
              label={t('cert.confirmPassword')}
              dependencies={['password']}
              rules={[
                { required: true },
                ({ getFieldValue }) => ({
                  validator: async (_r, value: string) => {
                    if (value && value !== getFieldValue('password')) throw new Error(t('cert.mismatch'));
                  },
                }),
              ]}
            >
              <Input.Password data-testid="cert-confirm" autoComplete="new-password" />
            </Form.Item>
          )}
          {error && (
            <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="cert-error" />
          )}
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="cert-submit">
            {link ? t('cert.linkSubmit') : t('cert.submit')}
          </Button>
          <Button type="link" block onClick={() => navigate('/login')}>
            {t('cert.normalLogin')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
