// The customer map screens (spec §2 riskPoint, checkCar area and point, bus busLineList) for the web route
// table. Their permissions are the administrator's unless granted to an agent (spec §6).
import { AimOutlined, CarOutlined, WarningOutlined } from '@ant-design/icons';
import type { FeatureRoute } from '../../app/routes.tsx';

export const customerMapRoutes: FeatureRoute[] = [
  {
    path: 'riskPoint',
    permission: ['main:risk_point'],
    load: () => import('./RiskPointPage.tsx'),
    menu: { labelKey: 'common:menu.riskPoint', icon: <WarningOutlined />, order: 72 },
  },
  {
    path: 'checkCar/area',
    permission: [],
    load: () => import('./AreaCheckPage.tsx'),
    menu: { labelKey: 'common:menu.checkCar', icon: <AimOutlined />, order: 73 },
  },
  { path: 'checkCar/point', permission: [], load: () => import('./PointCheckPage.tsx') },
  {
    path: 'bus/busLineList',
    permission: [],
    load: () => import('./BusLinePage.tsx'),
    menu: { labelKey: 'common:menu.bus', icon: <CarOutlined />, order: 74 },
  },
];
