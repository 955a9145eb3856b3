// The factory back office's page registry: path below /test (as in @carhere/domain's TEST_TREE, e.g.
// 'log/search', 'stock/importImei') → the screen, loaded lazily. Add a line here when a screen is built; a
// /test route with no entry shows the shell's "not built yet" panel. The shell, not the page, checks the
// route's permissions (domain route table) and the server checks every call again.
import type { ComponentType } from 'react';
import { productionPages } from './production/pages.ts';
import { toolPages } from './tools/pages.ts';

export type PageLoader = () => Promise<{ default: ComponentType }>;

export const factoryPages: Record<string, PageLoader> = {
  // Stock, SIM cards, QC and serial results (fprod).
  ...productionPages,
  // Transfer IP, batch commands, command console, OTA, AGPS, configuration, subscriptions (fact2).
  ...toolPages,
  'log/search': () => import('./logs/DeviceLogPage.tsx'),
  'log/monitor': () => import('./logs/SystemLogPage.tsx'),
  'log/cmdTask': () => import('./logs/CmdTaskPage.tsx'),
  'log/deviceState': () => import('./logs/DeviceStatePage.tsx'),
  search: () => import('./logs/Gw005Page.tsx'),
  idManager: () => import('./logs/IdManagerPage.tsx'),
  tapeDownload: () => import('../recordings/TapeDownloadPage.tsx'),
};
