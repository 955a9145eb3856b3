// The factory back office's shell (/test/*): header with the user's name, language (locked to Chinese for
// test-type roles, spec §1) and logout; a side menu built from @carhere/domain's TEST_TREE showing exactly what
// the role may open in this environment (spec §6); a breadcrumb; the screen below.
import { GlobalOutlined, HomeOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { homePath } from '@carhere/domain';
import { App as AntApp, Breadcrumb, Button, Dropdown, Layout, Menu, type MenuProps, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { authStore, useAuth } from '../../auth/store.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, languageLocked, setLanguage } from '../../i18n/index.ts';
import { type FactoryMenuNode, factoryBreadcrumb, factoryMenu } from './factoryMenu.ts';

type MenuItem = NonNullable<MenuProps['items']>[number];

export function FactoryLayout() {
  return (
    <AntApp style={{ height: '100%' }}>
      <FactoryShell />
    </AntApp>
  );
}

function FactoryShell() {
  const { t, i18n } = useTranslation(['factory', 'common']);
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const { message } = AntApp.useApp();
  const permissions = auth?.permissions ?? [];
  const menu = factoryMenu(permissions);

  const toItem = (n: FactoryMenuNode): MenuItem => {
    const label = <span title={t(n.labelKey)}>{t(n.labelKey)}</span>;
    return n.children.length > 0
      ? { key: n.path, label, children: n.children.map(toItem) }
      : { key: n.path, label: <span data-testid={`factory-menu-${n.path}`}>{label}</span> };
  };
  const items = menu.map(toItem);
  const crumbs = factoryBreadcrumb(location.pathname);
  // Factory menus are short: every group starts open, so each screen the role may use is in sight.
  const open = menu.filter((n) => n.children.length > 0).map((n) => n.path);
  const customerHome = homePath(permissions, 'main');

  const logout = async () => {
    try {
      await api('/logout');
    } catch (err) {
      message.error((err as Error).message);
    }
    authStore.set(null);
    navigate('/login', { replace: true });
  };

  const locked = languageLocked();
  return (
    <Layout style={{ height: '100vh' }} data-testid="factory-shell">
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          paddingInline: 16,
          background: '#001529',
        }}
      >
        <Typography.Title level={4} style={{ color: '#fff', margin: 0 }}>
          {t('common:appName')} · {t('factory:title')}
        </Typography.Title>
        <Space size="middle">
          {customerHome && (
            <Button type="text" style={{ color: '#fff' }} onClick={() => navigate(customerHome)}>
              {t('factory:customerSite')}
            </Button>
          )}
          <Dropdown
            disabled={locked}
            menu={{
              selectable: true,
              selectedKeys: [i18n.language],
              items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_NAMES[l] })),
              onClick: ({ key }) => void setLanguage(key as Language),
            }}
          >
            <Button type="text" icon={<GlobalOutlined />} style={{ color: '#fff' }} data-testid="language-switch">
              {LANGUAGE_NAMES[i18n.language as Language] ?? i18n.language}
            </Button>
          </Dropdown>
          <Space style={{ color: '#fff' }} data-testid="current-user">
            <UserOutlined />
            {auth?.userInfo.nickname || auth?.userInfo.username}
          </Space>
          <Button
            type="text"
            icon={<LogoutOutlined />}
            style={{ color: '#fff' }}
            onClick={() => void logout()}
            data-testid="logout"
          >
            {t('common:header.logout')}
          </Button>
        </Space>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={220} breakpoint="lg" collapsedWidth={56} theme="light" style={{ overflow: 'auto' }}>
          <Menu
            mode="inline"
            items={items}
            selectedKeys={[location.pathname]}
            defaultOpenKeys={open}
            onClick={({ key }) => navigate(key)}
            style={{ height: '100%' }}
            data-testid="factory-menu"
          />
        </Layout.Sider>
        <Layout.Content style={{ position: 'relative', overflow: 'auto', padding: 16 }}>
          <Breadcrumb
            data-testid="factory-breadcrumb"
            style={{ marginBottom: 12 }}
            items={[
              { title: <HomeOutlined />, onClick: () => navigate('/redirect'), className: 'factory-crumb-home' },
              ...crumbs.map((c) => ({ title: t(c.labelKey) })),
            ]}
          />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
