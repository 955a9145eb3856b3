// /login: title, user name, password, remember me, try-it-out demo button, app download link.
import { LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { translate } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Divider, Form, Input, Space, Typography, theme } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, callEnvelope } from '../../api/client.ts';
import type { LoginData, PublicConfig, TotpStep } from '../../api/types.ts';
import { authStore } from '../../auth/store.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, setLanguage } from '../../i18n/index.ts';
import { useBrand } from '../custself/brand.ts';

// Spec §1 "on start": the maintenance notice the admin set to show on start opens over the login page. Its
// dialog (antd Modal) stays out of the login page's first bundle.
const MaintenanceNotice = lazy(() =>
  import('../notice/MaintenanceNotice.tsx').then((m) => ({ default: m.MaintenanceNotice })),
);

interface LoginForm {
  username: string;
  password: string;
  remember: boolean;
}

/**
 * The white panel of the form, drawn like an antd Card (same tokens) without importing Card: Card brings Tabs,
 * Skeleton and the menu/dropdown they use into the login page's first bundle.
 */
function Panel({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      data-testid="login-panel"
      style={{
        width: 380,
        boxSizing: 'border-box',
        padding: token.paddingLG,
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        boxShadow: '0 12px 40px rgba(0,0,0,.25)',
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      {children}
    </div>
  );
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const { t: th } = useTranslation('harden');
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'login' | 'demo' | 'code' | null>(null);
  // Second step: a correct password of an account with two-factor sign-in gives a ticket for the code.
  const [ticket, setTicket] = useState<{ ticket: string; username: string; remember: boolean } | null>(null);
  const [code, setCode] = useState('');
  const config = useQuery({
    queryKey: ['config/public'],
    queryFn: () => api<PublicConfig>('/config/public', undefined, { method: 'GET' }),
  });
  const remembered = authStore.rememberedUsername();
  // The brand of this host name or /b/<key> address (issue 16): its title, logo, colours and app link.
  const brand = useBrand();
  const appUrl = brand?.appUrl || config.data?.appDownloadUrl;

  const finish = (data: LoginData) => {
    authStore.set(data);
    navigate('/redirect', { replace: true });
  };

  const submit = async (values: LoginForm) => {
    setBusy('login');
    setError(null);
    try {
      const env = await callEnvelope<LoginData | TotpStep>('/login', {
        username: values.username,
        password: values.password,
        remember: values.remember,
      });
      if (env.meta.code === 210 && env.data && 'ticket' in env.data) {
        setTicket({ ticket: env.data.ticket, username: values.username, remember: values.remember });
        setCode('');
        return;
      }
      if (env.meta.code !== 200 || !env.data || !('userInfo' in env.data)) {
        setError(env.meta.message);
        return;
      }
      authStore.rememberUsername(values.remember ? values.username : null);
      finish(env.data);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const submitCode = async () => {
    if (!ticket) return;
    setBusy('code');
    setError(null);
    try {
      const env = await callEnvelope<LoginData>('/login/totp', { ticket: ticket.ticket, code: code.trim() });
      if (env.meta.code === 212) setTicket(null);
      if (env.meta.code !== 200 || !env.data) {
        setError(env.meta.message);
        return;
      }
      authStore.rememberUsername(ticket.remember ? ticket.username : null);
      finish(env.data);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const tryDemo = async () => {
    setBusy('demo');
    setError(null);
    try {
      finish(await api<LoginData>('/login/demo'));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        background: brand
          ? `linear-gradient(135deg, ${brand.headerColor} 0%, ${brand.primaryColor} 100%)`
          : 'linear-gradient(135deg, #0b3d91 0%, #1677ff 55%, #69b1ff 100%)',
      }}
      data-brand={brand?.key ?? ''}
    >
      <Panel>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
          <Space align="center">
            {brand?.logo && (
              <img src={brand.logo} alt={brand.name} style={{ height: 40, maxWidth: 120 }} data-testid="brand-logo" />
            )}
            <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="login-title">
              {brand ? brand.title || brand.name : t('login.title')}
            </Typography.Title>
          </Space>
        </Space>
        {error && (
          <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />
        )}
        {ticket && (
          <Form layout="vertical" onFinish={() => void submitCode()} data-testid="login-totp">
            <Form.Item label={translate('login.totpRequired', i18n.language)}>
              <Input
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoComplete="one-time-code"
                maxLength={19}
                autoFocus
                data-testid="login-totp-code"
              />
            </Form.Item>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="login-recovery-hint">
              {th('recovery.loginHint')}
            </Typography.Paragraph>
            <Button type="primary" htmlType="submit" block loading={busy === 'code'} data-testid="login-totp-submit">
              {t('login.submit')}
            </Button>
            <Button type="link" block onClick={() => setTicket(null)} data-testid="login-totp-back">
              {translate('login.backToPassword', i18n.language)}
            </Button>
          </Form>
        )}
        <Form<LoginForm>
          hidden={ticket !== null}
          layout="vertical"
          initialValues={{ username: remembered, password: '', remember: remembered !== '' }}
          onFinish={(v) => void submit(v)}
          requiredMark={false}
        >
          <Form.Item
            name="username"
            label={t('login.username')}
            rules={[{ required: true, message: t('login.required', { field: t('login.username') }) }]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" data-testid="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('login.required', { field: t('login.password') }) }]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="password" />
          </Form.Item>
          <Form.Item name="remember" valuePropName="checked" tooltip={t('login.rememberHint')}>
            <Checkbox>{t('login.remember')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy === 'login'} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        {config.data?.demoEnabled && (
          <Button
            block
            style={{ marginTop: 12 }}
            loading={busy === 'demo'}
            onClick={() => void tryDemo()}
            data-testid="login-demo"
          >
            {t('login.demo')}
          </Button>
        )}
        <Divider style={{ margin: '16px 0 8px' }} />
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          {appUrl ? (
            <Typography.Link href={appUrl} target="_blank" rel="noreferrer" data-testid="login-app-link">
              <MobileOutlined /> {t('login.appDownload')}
            </Typography.Link>
          ) : (
            <span />
          )}
          <Space size={4} wrap>
            {LANGUAGES.filter((l) => l === 'cn' || l === 'en').map((l) => (
              <Button
                key={l}
                size="small"
                type={i18n.language === l ? 'link' : 'text'}
                onClick={() => void setLanguage(l as Language)}
                data-testid={`login-lang-${l}`}
              >
                {LANGUAGE_NAMES[l]}
              </Button>
            ))}
            {/* The other nine languages: a native select, so the login route carries no menu component. */}
            <select
              aria-label={t('login.moreLanguages')}
              title={t('login.moreLanguages')}
              data-testid="login-lang-more"
              value={i18n.language === 'cn' || i18n.language === 'en' ? '' : i18n.language}
              onChange={(e) => void setLanguage(e.target.value as Language)}
              style={{
                border: 'none',
                background: 'transparent',
                color: 'inherit',
                font: 'inherit',
                fontSize: 14,
                cursor: 'pointer',
                maxWidth: 140,
              }}
            >
              <option value="" disabled>
                {t('login.moreLanguages')}
              </option>
              {LANGUAGES.filter((l) => l !== 'cn' && l !== 'en').map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </Space>
        </Space>
      </Panel>
      <Suspense fallback={null}>
        <MaintenanceNotice onStart />
      </Suspense>
    </div>
  );
}
