// The /index children the web serves, with the permission each needs (spec §2) and their menu entries.
// Areas append their routes here; the guard and the side menu both read this table.

import { ApiOutlined, EnvironmentOutlined, NodeIndexOutlined } from '@ant-design/icons';
import type { ComponentType, ReactNode } from 'react';

export interface FeatureRoute {
  /** Path below /index, e.g. 'home' or 'device/deviceList'. */
  path: string;
  /** The user needs at least one of these; empty means any logged-in user. */
  permission: string[];
  load: () => Promise<{ default: ComponentType }>;
  /** Side-menu entry (top level); omitted for routes reached from inside a page. */
  menu?: { labelKey: string; icon: ReactNode; order: number };
}

export const featureRoutes: FeatureRoute[] = [
  {
    path: 'home',
    permission: ['main:monitor'],
    load: () => import('../features/home/HomePage.tsx'),
    menu: { labelKey: 'common:menu.home', icon: <EnvironmentOutlined />, order: 10 },
  },
  {
    path: 'track',
    permission: ['main:track'],
    load: () => import('../features/track/TrackPage.tsx'),
    menu: { labelKey: 'common:menu.track', icon: <NodeIndexOutlined />, order: 80 },
  },
  {
    path: 'help/interface',
    permission: [],
    load: () => import('../features/help/InterfacePage.tsx'),
    menu: { labelKey: 'common:menu.helpInterface', icon: <ApiOutlined />, order: 900 },
  },
];
