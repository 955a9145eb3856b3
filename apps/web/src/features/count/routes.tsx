// The statistics screens (spec §2 /index/count children, plus trips) for the web route table, each with its own
// permission as in the domain's route table (the parent /index/count needs main:stat). ECharts comes with these
// lazy pages only.
import { BarChartOutlined } from '@ant-design/icons';
import type { FeatureRoute } from '../../app/routes.tsx';

export const countRoutes: FeatureRoute[] = [
  {
    path: 'count/countMileage',
    permission: ['main:stat_mileage'],
    load: () => import('./MileagePage.tsx'),
    menu: { labelKey: 'common:menu.count', icon: <BarChartOutlined />, order: 20 },
  },
  { path: 'count/countAlarms', permission: ['main:stat_alarms'], load: () => import('./AlarmsCountPage.tsx') },
  { path: 'count/countStayDetail', permission: ['main:stat_stay'], load: () => import('./StayPage.tsx') },
  { path: 'count/countTrips', permission: ['main:stat_stay'], load: () => import('./TripsPage.tsx') },
  { path: 'count/countPastDue', permission: ['main:stat_pastdue'], load: () => import('./PastDuePage.tsx') },
  { path: 'count/countExport', permission: ['main:stat_export'], load: () => import('./ExportPage.tsx') },
  { path: 'count/countUsers', permission: ['main:stat_mileage'], load: () => import('./UsersPage.tsx') },
  {
    path: 'count/countFenceVisits',
    permission: ['main:stat_alarms'],
    load: () => import('./FenceVisitsPage.tsx'),
  },
  // Held by the parent's main:stat alone (the domain's route table gives it none of its own).
  { path: 'count/countBattery', permission: [], load: () => import('./BatteryPage.tsx') },
];
