// Spec §6: a role without permissions and without a home page (superAgent) lands here after login: the page
// says the account has no functions yet and whom to ask (its superior), with its name, the language switch
// and logout.
import { GlobalOutlined, LogoutOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { api, callEnvelope } from '../../api/client.ts';
import { authStore, useAuth } from '../../auth/store.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, setLanguage } from '../../i18n/index.ts';

interface Superior {
  name: string;
  telephone: string;
  email: string;
}

async function fetchSuperior(): Promise<Superior | null> {
  const env = await callEnvelope<Superior | null>('/user/superior', undefined, { method: 'GET' });
  return env.meta.success ? env.data : null;
}

export default function NoFunctionPage() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const superior = useQuery({ queryKey: ['superior', auth?.userInfo.id], queryFn: fetchSuperior, enabled: !!auth });
  if (!auth) return <Navigate to="/login" replace />;
  const logout = async () => {
    try {
      await api('/logout');
    } catch {
      // The session may already be gone: leaving is what the user asked for.
    }
    authStore.set(null);
    navigate('/login', { replace: true });
  };
  const sup = superior.data;
  const contact = sup ? [sup.telephone, sup.email].filter(Boolean).join(' · ') : '';
  return (
    <Result
      status="info"
      title={
        <span data-testid="no-function-title">
          {t('noFunction.title', { name: auth.userInfo.nickname || auth.userInfo.username })}
        </span>
      }
      subTitle={
        <Space direction="vertical">
          <span data-testid="no-function-text">{t('noFunction.text')}</span>
          {superior.isPending ? null : sup ? (
            <Typography.Text strong data-testid="no-function-superior">
              {t('noFunction.askSuperior', { name: sup.name })}
              {contact ? ` (${contact})` : ''}
            </Typography.Text>
          ) : (
            <Typography.Text data-testid="no-function-superior">{t('noFunction.askAdmin')}</Typography.Text>
          )}
        </Space>
      }
      extra={
        <Space>
          <Dropdown
            menu={{
              selectable: true,
              selectedKeys: [i18n.language],
              items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_NAMES[l] })),
              onClick: ({ key }) => void setLanguage(key as Language),
            }}
          >
            <Button icon={<GlobalOutlined />} data-testid="language-switch">
              {LANGUAGE_NAMES[i18n.language as Language] ?? i18n.language}
            </Button>
          </Dropdown>
          <Button type="primary" icon={<LogoutOutlined />} onClick={() => void logout()} data-testid="logout">
            {t('header.logout')}
          </Button>
        </Space>
      }
    />
  );
}
