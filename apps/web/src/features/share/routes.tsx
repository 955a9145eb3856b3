// Issue 18 screens in the web route table: share links of a device, and maintenance reminders.
import { ToolOutlined } from '@ant-design/icons';
import type { FeatureRoute } from '../../app/routes.tsx';

export const fleetCareRoutes: FeatureRoute[] = [
  { path: 'share', permission: ['main:monitor'], load: () => import('./SharePage.tsx') },
  {
    path: 'maintenance',
    permission: ['main:monitor'],
    load: () => import('../maintenance/MaintenancePage.tsx'),
    menu: { labelKey: 'maintenance:menu', icon: <ToolOutlined />, order: 78 },
  },
];
