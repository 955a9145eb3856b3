// The customer's SIM card screens (spec §2 /index/device: deviceUpdateIccid, deviceExportIccid) for the web
// route table, with their permissions as in the domain's route table.
import type { FeatureRoute } from '../../app/routes.tsx';

const iccidPage = (name: 'DeviceUpdateIccidPage' | 'DeviceExportIccidPage') => () =>
  import('./IccidPages.tsx').then((m) => ({ default: m[name] }));

export const iccidRoutes: FeatureRoute[] = [
  {
    path: 'device/deviceUpdateIccid',
    permission: ['main:devices_sim_import'],
    load: iccidPage('DeviceUpdateIccidPage'),
  },
  {
    path: 'device/deviceExportIccid',
    permission: ['main:devices_sim_check'],
    load: iccidPage('DeviceExportIccidPage'),
  },
];
