// The header of the signed-in layouts (customer site and factory back office): title, language switch, the
// user's name and logout; each layout adds its own buttons (`before` the language switch, `after` the name).
import { GlobalOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Dropdown, Layout, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { authStore, useAuth } from '../auth/store.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, setLanguage } from '../i18n/index.ts';
import { useCompact } from './useCompact.ts';

interface Props {
  title: ReactNode;
  before?: ReactNode;
  after?: ReactNode;
  /** The language cannot be changed (test-type roles use Chinese, spec §1). */
  languageLocked?: boolean;
  /** The user's name opens this page ("my account") when given. */
  accountPath?: string;
  /** The brand's header colour and logo (issue 16); the platform's own when absent. */
  background?: string;
  logo?: string;
}

export function AppHeader({ title, before, after, languageLocked = false, accountPath, background, logo }: Props) {
  const { t, i18n } = useTranslation('common');
  const auth = useAuth();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  // On a phone the buttons keep their icons and name themselves in a tooltip: the header fits 390 px.
  const compact = useCompact();
  const languageName = LANGUAGE_NAMES[i18n.language as Language] ?? i18n.language;
  const userName = auth?.userInfo.nickname || auth?.userInfo.username;

  const logout = async () => {
    try {
      await api('/logout');
    } catch (err) {
      message.error((err as Error).message);
    }
    authStore.set(null);
    navigate('/login', { replace: true });
  };

  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        paddingInline: compact ? 8 : 16,
        background: background || '#001529',
      }}
      data-testid="app-header"
    >
      <Space align="center" style={{ minWidth: 0 }}>
        {logo && (
          <img src={logo} alt="" style={{ height: 32, maxWidth: 120, display: 'block' }} data-testid="header-logo" />
        )}
        <Typography.Title
          level={4}
          style={{
            color: '#fff',
            margin: 0,
            fontSize: compact ? 16 : undefined,
            minWidth: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
          data-testid="header-title"
        >
          {title}
        </Typography.Title>
      </Space>
      <Space size={compact ? 0 : 'middle'}>
        {before}
        <Dropdown
          disabled={languageLocked}
          menu={{
            selectable: true,
            selectedKeys: [i18n.language],
            items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_NAMES[l] })),
            onClick: ({ key }) => void setLanguage(key as Language),
          }}
        >
          <Button
            type="text"
            icon={<GlobalOutlined />}
            style={{ color: '#fff' }}
            title={compact ? languageName : undefined}
            data-testid="language-switch"
          >
            {compact ? null : languageName}
          </Button>
        </Dropdown>
        {accountPath ? (
          <Button
            type="text"
            style={{ color: '#fff' }}
            icon={<UserOutlined />}
            title={compact ? userName : undefined}
            data-testid="current-user"
            onClick={() => navigate(accountPath)}
          >
            {compact ? null : userName}
          </Button>
        ) : (
          <Space style={{ color: '#fff' }} data-testid="current-user" title={compact ? userName : undefined}>
            <UserOutlined />
            {compact ? null : userName}
          </Space>
        )}
        {after}
        <Button
          type="text"
          icon={<LogoutOutlined />}
          style={{ color: '#fff' }}
          onClick={() => void logout()}
          title={compact ? t('header.logout') : undefined}
          data-testid="logout"
        >
          {compact ? null : t('header.logout')}
        </Button>
      </Space>
    </Layout.Header>
  );
}
