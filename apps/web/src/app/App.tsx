// Top-level routes (spec §2): / → /redirect → home or login; /login; /notFound; /index/* behind the guard;
// /test/* in the factory shell.
import { Spin } from 'antd';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import { useAuth } from '../auth/store.ts';
import LoginPage from '../features/login/LoginPage.tsx';
import { GlobalLoading } from './GlobalLoading.tsx';
import { decide, homeOf, NO_FUNCTION_PATH } from './guard.ts';
import { indexChildRoutes } from './indexRoutes.tsx';

function Loading() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', height: '100%', minHeight: 200 }}>
      <Spin size="large" />
    </div>
  );
}

/** Applies the guard (spec §2, decided by @carhere/domain) for the current location. */
function Guarded({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  const decision = decide(location.pathname, auth);
  if (decision === 'login') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  // A password someone else set, or a required two-factor enrolment, comes before every screen.
  if (auth?.restriction && location.pathname.startsWith('/index')) {
    return (
      <Suspense fallback={<Loading />}>
        <SignInSetupPage />
      </Suspense>
    );
  }
  if (decision === 'notFound') return <Navigate to="/notFound" replace />;
  if (decision === 'home') return <Navigate to={homeOf(auth)} replace />;
  return <>{children}</>;
}

function Redirect() {
  const auth = useAuth();
  return <Navigate to={homeOf(auth)} replace />;
}

// antd's Result (with its 404 illustration) is only for a wrong address: not in the login page's bundle.
const NotFoundPage = lazy(() => import('../features/notFound/NotFoundPage.tsx'));
const LoginByCertPage = lazy(() => import('../features/custself/LoginByCertPage.tsx'));
const NoFunctionPage = lazy(() => import('../features/noFunction/NoFunctionPage.tsx'));
// A share link's public page (issue 18): no sign-in, outside every guard.
const PublicSharePage = lazy(() => import('../features/share/PublicSharePage.tsx'));

// Shown instead of every screen while the session is restricted (issue 12).
const SignInSetupPage = lazy(() => import('../features/security/SignInSetupPage.tsx'));

// The signed-in layout (menus, notice, live connection) is not needed on the login page: load it lazily.
const MainLayout = lazy(() => import('./MainLayout.tsx').then((m) => ({ default: m.MainLayout })));
// The factory back office (/test/*): its own shell; the shell itself answers unknown or forbidden paths.
const FactoryLayout = lazy(() =>
  import('../features/factory/FactoryLayout.tsx').then((m) => ({ default: m.FactoryLayout })),
);
const FactoryScreen = lazy(() =>
  import('../features/factory/FactoryScreen.tsx').then((m) => ({ default: m.FactoryScreen })),
);

/** /test/*: a signed-in user only (else login); which screens the role may open is the shell's business. */
function SignedIn({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (!auth) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

export function App() {
  const router = useMemo(
    () =>
      createBrowserRouter([
        { path: '/', element: <Navigate to="/redirect" replace /> },
        { path: '/redirect', element: <Redirect /> },
        // A brand's own login address (issue 16): brand.ts has remembered the key; on to its login page.
        { path: '/b/:key', element: <Redirect /> },
        {
          path: '/login',
          element: (
            <Guarded>
              <LoginPage />
            </Guarded>
          ),
        },
        {
          // Sign in by a device's IMEI (spec §2), from the seller's link.
          path: '/loginByCert',
          element: (
            <Suspense fallback={<Loading />}>
              <LoginByCertPage />
            </Suspense>
          ),
        },
        {
          path: '/share/:token',
          element: (
            <Suspense fallback={<Loading />}>
              <PublicSharePage />
            </Suspense>
          ),
        },
        {
          path: '/notFound',
          element: (
            <Suspense fallback={<Loading />}>
              <NotFoundPage />
            </Suspense>
          ),
        },
        {
          path: NO_FUNCTION_PATH,
          element: (
            <SignedIn>
              <Suspense fallback={<Loading />}>
                <NoFunctionPage />
              </Suspense>
            </SignedIn>
          ),
        },
        {
          path: '/index',
          element: (
            <Guarded>
              <Suspense fallback={<Loading />}>
                <MainLayout />
              </Suspense>
            </Guarded>
          ),
          children: indexChildRoutes((page) => <Guarded>{page}</Guarded>, <Redirect />),
        },
        {
          path: '/test',
          element: (
            <SignedIn>
              <Suspense fallback={<Loading />}>
                <FactoryLayout />
              </Suspense>
            </SignedIn>
          ),
          children: [
            { index: true, element: <Redirect /> },
            {
              path: '*',
              element: (
                <Suspense fallback={<Loading />}>
                  <FactoryScreen />
                </Suspense>
              ),
            },
          ],
        },
        { path: '*', element: <Navigate to="/notFound" replace /> },
      ]),
    [],
  );
  return (
    <>
      <GlobalLoading />
      <RouterProvider router={router} />
    </>
  );
}
