// The signed-in layout: header (user, language, logout) and a side menu showing only what the role may use.
import { SafetyOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Layout, Menu, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth/store.ts';
import { useBrand } from '../features/custself/brand.ts';
import { MaintenanceNotice } from '../features/notice/MaintenanceNotice.tsx';
import { TotpCard } from '../features/security/TotpCard.tsx';
import { AppHeader } from './AppHeader.tsx';
import { mayOpen } from './guard.ts';
import { featureRoutes } from './routes.tsx';
import { useCompact } from './useCompact.ts';

/** antd's App context (message, modal, notification) for every signed-in page; the login page does without. */
export function MainLayout() {
  return (
    <AntApp style={{ height: '100%' }}>
      <SignedInLayout />
    </AntApp>
  );
}

function SignedInLayout() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const brand = useBrand();

  const items = featureRoutes
    .filter(
      (r) => r.menu && mayOpen(`/index/${r.path}`, auth) && !r.menu.hiddenForRoles?.includes(auth?.userInfo.role ?? -1),
    )
    .sort((a, b) => (a.menu?.order ?? 0) - (b.menu?.order ?? 0))
    .map((r) => {
      const label = t(r.menu?.labelKey ?? '');
      // A long label (ru 'Воспроизведение трека') is cut with an ellipsis in the 200 px menu: the full text
      // shows on hover.
      return { key: `/index/${r.path}`, icon: r.menu?.icon, label: <span title={label}>{label}</span> };
    });
  const selected = items.filter((i) => location.pathname.startsWith(i.key)).map((i) => i.key);

  const [securityOpen, setSecurityOpen] = useState(false);
  const compact = useCompact();
  const { t: ts } = useTranslation('security');

  return (
    <Layout style={{ height: '100vh' }}>
      <AppHeader
        accountPath="/index/account"
        title={brand ? brand.name : t('appName')}
        background={brand?.headerColor}
        logo={brand?.logo || undefined}
        after={
          <Button
            type="text"
            icon={<SafetyOutlined />}
            style={{ color: '#fff' }}
            onClick={() => setSecurityOpen(true)}
            title={compact ? ts('totp.title') : undefined}
            data-testid="security-open"
          >
            {compact ? null : ts('totp.title')}
          </Button>
        }
      />
      <Layout>
        <Layout.Sider width={200} breakpoint="lg" collapsedWidth={56} theme="light">
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected}
            onClick={({ key }) => navigate(key)}
            style={{ height: '100%' }}
          />
        </Layout.Sider>
        <Layout.Content style={{ position: 'relative', overflow: 'auto' }}>
          <Outlet />
          <MaintenanceNotice />
        </Layout.Content>
      </Layout>
      {/* Two-factor sign-in for every account, whatever screens its role opens. */}
      <Modal
        open={securityOpen}
        title={ts('totp.title')}
        footer={null}
        width={560}
        onCancel={() => setSecurityOpen(false)}
        destroyOnHidden
      >
        <TotpCard />
      </Modal>
    </Layout>
  );
}
