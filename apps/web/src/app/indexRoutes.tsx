// The children of /index (spec §2) as react-router route objects: each screen of the route table behind the
// guard, each group of the domain's route table (/index/count, /index/device …) sending on to its first screen
// the user may open, the spec's 404 screen inside the layout, and everything else to /notFound.
// routesByRole.test.ts checks that no route a role may open falls through to /notFound.
import { Spin } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { useAuth } from '../auth/store.ts';
import { groupTarget, INDEX_GROUPS } from './groups.ts';
import { featureRoutes } from './routes.tsx';

function Loading() {
  return (
    <div style={{ display: 'grid', placeItems: 'center', height: '100%', minHeight: 200 }}>
      <Spin size="large" />
    </div>
  );
}

const NotFoundPage = lazy(() => import('../features/notFound/NotFoundPage.tsx'));

/** /index/<group>: on to the group's first screen this user may open (the guard has let the group pass). */
function GroupRedirect({ group }: { group: string }) {
  const auth = useAuth();
  return <Navigate to={groupTarget(group, auth?.permissions ?? []) ?? '/notFound'} replace />;
}

/** `guard` wraps each screen in the navigation guard. */
export function indexChildRoutes(guard: (page: ReactNode) => ReactNode, home: ReactNode): RouteObject[] {
  return [
    { index: true, element: home },
    ...featureRoutes.map((r) => {
      const Page = lazy(r.load);
      return {
        path: r.path,
        element: guard(
          <Suspense fallback={<Loading />}>
            <Page />
          </Suspense>,
        ),
      };
    }),
    ...INDEX_GROUPS.map((group) => ({
      path: group.slice('/index/'.length),
      element: guard(<GroupRedirect group={group} />),
    })),
    {
      // The spec's 404 screen of the customer site, inside the layout.
      path: '404',
      element: (
        <Suspense fallback={<Loading />}>
          <NotFoundPage />
        </Suspense>
      ),
    },
    { path: '*', element: <Navigate to="/notFound" replace /> },
  ];
}
