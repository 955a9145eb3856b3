// Top-level routes (spec §2): / → /redirect → home or login; /login; /notFound; /index/* behind the guard.
import { Spin } from 'antd';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import { useAuth } from '../auth/store.ts';
import LoginPage from '../features/login/LoginPage.tsx';
import NotFoundPage from '../features/notFound/NotFoundPage.tsx';
import { guardDecision } from './guard.ts';
import { MainLayout } from './MainLayout.tsx';
import { featureRoutes } from './routes.tsx';

export const HOME_PATH = '/index/home';

function Loading() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', height: '100%', minHeight: 200 }}>
      <Spin size="large" />
    </div>
  );
}

/** Applies the guard for the current location and renders the page or redirects. */
function Guarded({ needed, children }: { needed: string[] | null; children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  const decision = guardDecision({
    path: location.pathname,
    loggedIn: auth !== null,
    permissions: auth?.permissions ?? [],
    needed,
  });
  if (decision === 'login') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (decision === 'notFound') return <Navigate to="/notFound" replace />;
  if (decision === 'home') return <Navigate to={HOME_PATH} replace />;
  return <>{children}</>;
}

function Redirect() {
  const auth = useAuth();
  return <Navigate to={auth ? HOME_PATH : '/login'} replace />;
}

export function App() {
  const router = useMemo(
    () =>
      createBrowserRouter([
        { path: '/', element: <Navigate to="/redirect" replace /> },
        { path: '/redirect', element: <Redirect /> },
        {
          path: '/login',
          element: (
            <Guarded needed={[]}>
              <LoginPage />
            </Guarded>
          ),
        },
        { path: '/notFound', element: <NotFoundPage /> },
        {
          path: '/index',
          element: (
            <Guarded needed={[]}>
              <MainLayout />
            </Guarded>
          ),
          children: [
            { index: true, element: <Navigate to={HOME_PATH} replace /> },
            ...featureRoutes.map((r) => {
              const Page = lazy(r.load);
              return {
                path: r.path,
                element: (
                  <Guarded needed={r.permission}>
                    <Suspense fallback={<Loading />}>
                      <Page />
                    </Suspense>
                  </Guarded>
                ),
              };
            }),
            { path: '*', element: <Navigate to="/notFound" replace /> },
          ],
        },
        { path: '*', element: <Navigate to="/notFound" replace /> },
      ]),
    [],
  );
  return <RouterProvider router={router} />;
}
