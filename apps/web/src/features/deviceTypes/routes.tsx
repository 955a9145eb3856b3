// The device-type configuration screen (spec §2 /index/device: deviceConfig) for the web route table.
import type { FeatureRoute } from '../../app/routes.tsx';

export const deviceTypeRoutes: FeatureRoute[] = [
  { path: 'device/deviceConfig', permission: ['main:devices_config'], load: () => import('./DeviceConfigPage.tsx') },
];
