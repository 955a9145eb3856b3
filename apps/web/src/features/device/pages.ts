// The device-management screens (spec §2 /index/device children) linked from each other.
import type { SubNavItem } from '../agent/SubNav.tsx';

export const DEVICE_PAGES: SubNavItem[] = [
  { path: 'device/deviceList', labelKey: 'device:nav.deviceList' },
  { path: 'device/deviceImport', labelKey: 'device:nav.deviceImport' },
  { path: 'device/deviceTransform', labelKey: 'device:nav.deviceTransform' },
  { path: 'device/deviceReset', labelKey: 'device:nav.deviceReset' },
  { path: 'device/deviceUpdateTime', labelKey: 'device:nav.deviceUpdateTime' },
  { path: 'device/deviceUpdateExpireType', labelKey: 'device:nav.deviceUpdateExpireType' },
  { path: 'device/deviceBatchIcon', labelKey: 'device:nav.deviceBatchIcon' },
  { path: 'device/deviceUpdateHost', labelKey: 'device:nav.deviceUpdateHost' },
  { path: 'device/deviceUpdateDevicesType', labelKey: 'device:nav.deviceUpdateDevicesType' },
  { path: 'device/deviceUpdateZone', labelKey: 'device:nav.deviceUpdateZone' },
  { path: 'device/multipleCmd', labelKey: 'device:nav.multipleCmd' },
  { path: 'device/deviceUpdateIccid', labelKey: 'production:nav.deviceUpdateIccid' },
  { path: 'device/deviceExportIccid', labelKey: 'production:nav.deviceExportIccid' },
  { path: 'device/multipleCmdSearch', labelKey: 'device:nav.multipleCmdSearch' },
  { path: 'device/deviceUpdateDeviceInfo', labelKey: 'custself:menu.bulkInfo' },
  { path: 'device/huaXiangDataImport', labelKey: 'custself:menu.dataImport' },
  { path: 'device/userInfo', labelKey: 'device:nav.userInfo' },
  { path: 'device/passwordUpdate', labelKey: 'device:nav.passwordUpdate' },
];
