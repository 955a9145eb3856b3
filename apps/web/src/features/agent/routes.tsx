// The account area's screens (spec §2 /index/agent and /index/device children) for the web route table.
// Each route's own permissions, as in the domain's route table (a child also needs its parents'); the guard and
// the side menu apply the domain's table.
import { MobileOutlined, TeamOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { FeatureRoute } from '../../app/routes.tsx';

const batchPage = (name: string) => () =>
  import('../device/ImeiBatchPage.tsx').then((m) => ({ default: m[name as keyof typeof m] as ComponentType }));

export const accountRoutes: FeatureRoute[] = [
  {
    path: 'agent/agentList',
    // The parent /index/agent needs agent add or edit; the list itself asks nothing more (domain route table).
    permission: [],
    load: () => import('./AgentListPage.tsx'),
    // End users (role 3) hold agent edit for their own account only: the customer list is no use to them.
    menu: { labelKey: 'common:menu.agent', icon: <TeamOutlined />, order: 30, hiddenForRoles: [3] },
  },
  {
    path: 'agent/setImportRecords',
    permission: ['main:agent_import_quota'],
    load: () => import('./ImportRecordsPage.tsx'),
  },
  {
    path: 'agent/indexAgentListExport',
    permission: ['main:agent_export'],
    load: () => import('./AgentExportPage.tsx'),
  },
  {
    path: 'device/deviceList',
    permission: ['main:devices_management'],
    load: () => import('../device/DeviceListPage.tsx'),
    menu: { labelKey: 'common:menu.device', icon: <MobileOutlined />, order: 40 },
  },
  {
    path: 'device/deviceListV2',
    permission: ['main:devices_management'],
    load: () => import('../device/DeviceListPage.tsx'),
  },
  {
    path: 'device/deviceImport',
    permission: ['main:devices_import'],
    load: () => import('../device/DeviceImportPage.tsx'),
  },
  { path: 'device/deviceTransform', permission: ['main:devices_bulk_transfer'], load: batchPage('TransformPage') },
  { path: 'device/deviceReset', permission: ['main:devices_reset'], load: batchPage('ResetPage') },
  { path: 'device/deviceUpdateTime', permission: ['main:devices_bulk_expire'], load: batchPage('UpdateTimePage') },
  {
    path: 'device/deviceUpdateExpireType',
    permission: ['main:devices_expire_type'],
    load: batchPage('ExpireTypePage'),
  },
  { path: 'device/deviceBatchIcon', permission: ['main:devices_icon_type'], load: batchPage('BatchIconPage') },
  { path: 'device/deviceUpdateHost', permission: ['main:devices_bulk_host'], load: batchPage('UpdateHostPage') },
  { path: 'device/deviceUpdateDevicesType', permission: ['main:devices_bulk_type'], load: batchPage('UpdateTypePage') },
  { path: 'device/deviceUpdateZone', permission: ['main:devices_bulk_zone'], load: batchPage('UpdateZonePage') },
  { path: 'device/multipleCmd', permission: ['main:command_batch'], load: batchPage('MultipleCmdPage') },
  {
    path: 'device/multipleCmdSearch',
    permission: ['main:command_batch'],
    load: () => import('../tasks/MultipleCmdSearchPage.tsx'),
  },
  { path: 'device/userInfo', permission: ['main:user_info'], load: () => import('../user/UserInfoPage.tsx') },
  {
    path: 'device/passwordUpdate',
    permission: ['main:device_reset_password'],
    load: () => import('../user/PasswordUpdatePage.tsx'),
  },
];
