// Notification rules and scheduled reports (issue 18) in the web route table and the side menu.
import { BellOutlined, MailOutlined } from '@ant-design/icons';
import type { FeatureRoute } from '../../app/routes.tsx';

export const notifyRoutes: FeatureRoute[] = [
  {
    path: 'notify',
    permission: ['main:alarms'],
    load: () => import('./NotifyPage.tsx'),
    menu: { labelKey: 'notify:menu.notify', icon: <BellOutlined />, order: 62 },
  },
  {
    path: 'reportSchedule',
    permission: ['main:stat_export'],
    load: () => import('./ReportSchedulePage.tsx'),
    menu: { labelKey: 'notify:menu.reportSchedule', icon: <MailOutlined />, order: 63 },
  },
];
