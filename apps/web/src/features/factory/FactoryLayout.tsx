// The factory back office's shell (/test/*): header with the user's name, language (locked to Chinese for
// test-type roles, spec §1) and logout; a side menu built from @carhere/domain's TEST_TREE showing exactly what
// the role may open in this environment (spec §6); a breadcrumb; the screen below.
import { HomeOutlined } from '@ant-design/icons';
import { homePath } from '@carhere/domain';
import { App as AntApp, Breadcrumb, Button, Layout, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AppHeader } from '../../app/AppHeader.tsx';
import { useAuth } from '../../auth/store.ts';
import { languageLocked } from '../../i18n/index.ts';
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
  const { t } = useTranslation(['factory', 'common']);
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
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

  return (
    <Layout style={{ height: '100vh' }} data-testid="factory-shell">
      <AppHeader
        title={`${t('common:appName')} · ${t('factory:title')}`}
        languageLocked={languageLocked()}
        before={
          customerHome && (
            <Button type="text" style={{ color: '#fff' }} onClick={() => navigate(customerHome)}>
              {t('factory:customerSite')}
            </Button>
          )
        }
      />
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
