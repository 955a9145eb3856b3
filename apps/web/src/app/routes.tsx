// The /index children the web serves, with the permission each needs (spec §2) and their menu entries.
// Areas append their routes here; the guard and the side menu both read this table.

import {
  AlertOutlined,
  ApiOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  GatewayOutlined,
  NodeIndexOutlined,
  SendOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { ComponentType, ReactNode } from 'react';
import { accountRoutes } from '../features/agent/routes.tsx';
import { countRoutes } from '../features/count/routes.tsx';
import { customerMapRoutes } from '../features/customerMap/routes.tsx';
import { custselfRoutes } from '../features/custself/routes.tsx';
import { iccidRoutes } from '../features/device/iccidRoutes.tsx';

export interface FeatureRoute {
  /** Path below /index, e.g. 'home' or 'device/deviceList'. */
  path: string;
  /** The user needs at least one of these; empty means any logged-in user. */
  permission: string[];
  load: () => Promise<{ default: ComponentType }>;
  /** Side-menu entry (top level); omitted for routes reached from inside a page. */
  menu?: { labelKey: string; icon: ReactNode; order: number; hiddenForRoles?: number[] };
}

export const featureRoutes: FeatureRoute[] = [
  {
    path: 'home',
    permission: ['main:monitor'],
    load: () => import('../features/home/HomePage.tsx'),
    menu: { labelKey: 'common:menu.home', icon: <EnvironmentOutlined />, order: 10 },
  },
  {
    path: 'dashboard',
    permission: ['main:monitor'],
    load: () => import('../features/dashboard/DashboardPage.tsx'),
    menu: { labelKey: 'dashboard:menu', icon: <DashboardOutlined />, order: 5 },
  },
  {
    path: 'track',
    permission: ['main:track'],
    load: () => import('../features/track/TrackPage.tsx'),
    menu: { labelKey: 'common:menu.track', icon: <NodeIndexOutlined />, order: 80 },
  },
  {
    path: 'alarms',
    permission: ['main:alarms'],
    load: () => import('../features/alarms/AlarmsPage.tsx'),
    menu: { labelKey: 'common:menu.alarms', icon: <AlertOutlined />, order: 60 },
  },
  { path: 'alarmsAll', permission: ['main:alarms'], load: () => import('../features/alarms/AlarmsAllPage.tsx') },
  {
    path: 'fence',
    permission: ['main:fence'],
    load: () => import('../features/fence/FencePage.tsx'),
    menu: { labelKey: 'common:menu.fence', icon: <GatewayOutlined />, order: 70 },
  },
  {
    path: 'directive',
    permission: ['main:command'],
    load: () => import('../features/command/CommandPage.tsx'),
    menu: { labelKey: 'common:menu.directive', icon: <SendOutlined />, order: 75 },
  },
  {
    path: 'tire',
    permission: ['main:taiya'],
    load: () => import('../features/tire/TirePage.tsx'),
    menu: { labelKey: 'common:menu.tire', icon: <DashboardOutlined />, order: 85 },
  },
  // System children carry no permission of their own: the domain's guard also needs the parent's
  // main:system_config for them (a child needs its parents' permissions).
  {
    path: 'system/mapKey',
    permission: [],
    load: () => import('../features/system/MapKeyPage.tsx'),
    menu: { labelKey: 'common:menu.system', icon: <SettingOutlined />, order: 800 },
  },
  {
    path: 'system/demoAccountSet',
    permission: [],
    load: () => import('../features/system/DemoAccountPage.tsx'),
  },
  { path: 'system/apiKey', permission: [], load: () => import('../features/system/ApiKeyPage.tsx') },
  { path: 'system/auditLog', permission: [], load: () => import('../features/system/AuditLogPage.tsx') },
  {
    path: 'help/interface',
    permission: [],
    load: () => import('../features/help/InterfacePage.tsx'),
    menu: { labelKey: 'common:menu.helpInterface', icon: <ApiOutlined />, order: 900 },
  },
];
featureRoutes.push(...accountRoutes, ...countRoutes);
featureRoutes.push(...iccidRoutes);

import { deviceTypeRoutes } from '../features/deviceTypes/routes.tsx';

featureRoutes.push(...deviceTypeRoutes);
featureRoutes.push(...customerMapRoutes);
// Customer self-service (issue 16): my account, drivers, special-brand accounts, bulk edit, help.
featureRoutes.push(...custselfRoutes);

// Share links and maintenance reminders (issue 18).
import { fleetCareRoutes } from '../features/share/routes.tsx';

featureRoutes.push(...fleetCareRoutes);

import { notifyRoutes } from '../features/notify/routes.tsx';

// Notification rules and scheduled reports (issue 18).
featureRoutes.push(...notifyRoutes);
