// One /test/* screen inside the factory shell: the registered page, or a "not built yet" panel, or the
// shell's own 404 for an unknown path or a screen the role may not open (spec §2 guard, domain route table).
import { canAccessRoute, findRoute, normalizePath } from '@carhere/domain';
import { Button, Result, Spin } from 'antd';
import { type ComponentType, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../auth/store.ts';
import { FACTORY_ROOT, factoryLabelKey, factoryScreens, hasChildScreens } from './factoryMenu.ts';
import { factoryPages } from './pages.tsx';

const loaded = new Map<string, ComponentType>();
function pageFor(key: string): ComponentType | undefined {
  const load = factoryPages[key];
  if (!load) return undefined;
  let Page = loaded.get(key);
  if (!Page) {
    Page = lazy(load);
    loaded.set(key, Page);
  }
  return Page;
}

export function FactoryNotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      subTitle={<span data-testid="factory-not-found">{t('notFound.text')}</span>}
      extra={
        <Button type="primary" onClick={() => navigate('/redirect')}>
          {t('notFound.back')}
        </Button>
      }
    />
  );
}

function NotBuilt({ path }: { path: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={<span data-testid="factory-not-built">{t(factoryLabelKey(path))}</span>}
      subTitle={t('factory:notBuilt')}
    />
  );
}

export function FactoryScreen() {
  const auth = useAuth();
  const location = useLocation();
  const path = normalizePath(location.pathname);
  const permissions = auth?.permissions ?? [];
  const route = findRoute(path);
  if (route?.area !== 'factory' || !canAccessRoute(path, permissions)) return <FactoryNotFound />;
  if (hasChildScreens(path)) {
    const first = factoryScreens(permissions).find((p) => p.startsWith(`${path}/`));
    return first ? <Navigate to={first} replace /> : <FactoryNotFound />;
  }
  const key = path.slice(FACTORY_ROOT.length + 1);
  const Page = pageFor(key);
  if (!Page) return <NotBuilt path={path} />;
  return (
    <Suspense
      fallback={
        <div style={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
          <Spin size="large" />
        </div>
      }
    >
      <Page />
    </Suspense>
  );
}
