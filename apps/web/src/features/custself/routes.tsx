// The customer self-service screens (issue 16) for the web route table: my account, drivers, the special-brand
// accounts, per-device bulk edit and the help pages. Permissions as in the domain's route table.
import { CrownOutlined, IdcardOutlined, MobileOutlined, ReadOutlined, UserOutlined } from '@ant-design/icons';
import type { FeatureRoute } from '../../app/routes.tsx';

export const custselfRoutes: FeatureRoute[] = [
  {
    path: 'drivers',
    permission: ['main:monitor', 'main:devices'],
    load: () => import('./DriversPage.tsx'),
    menu: { labelKey: 'custself:menu.drivers', icon: <IdcardOutlined />, order: 45 },
  },
  {
    path: 'device/deviceUpdateDeviceInfo',
    permission: ['main:devices_bulk_info'],
    load: () => import('./BulkInfoPage.tsx'),
  },
  {
    path: 'device/huaXiangDataImport',
    permission: ['main:data_import'],
    load: () => import('./DataImportPage.tsx'),
  },
  {
    path: 'specialBrand',
    permission: ['main:system_config'],
    load: () => import('./SpecialBrandPage.tsx'),
    menu: { labelKey: 'custself:menu.specialBrand', icon: <CrownOutlined />, order: 810 },
  },
  {
    path: 'help/pc',
    permission: [],
    load: () => import('./HelpPcPage.tsx'),
    menu: { labelKey: 'custself:menu.helpPc', icon: <ReadOutlined />, order: 905 },
  },
  {
    path: 'help/app',
    permission: [],
    load: () => import('./HelpAppPage.tsx'),
    menu: { labelKey: 'custself:menu.helpApp', icon: <MobileOutlined />, order: 906 },
  },
  {
    path: 'account',
    permission: [],
    load: () => import('./MyAccountPage.tsx'),
    menu: { labelKey: 'custself:menu.account', icon: <UserOutlined />, order: 950 },
  },
];
