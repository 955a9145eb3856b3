// Factory II tool screens below /test (transfer IP, batch commands, command console, OTA, AGPS, subscription
// settings), loaded lazily.
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;
const pick =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Loader =>
  () =>
    load().then((m) => ({ default: m[name] as ComponentType }));

const transfer = () => import('./TransferIpPages.tsx');
const muti = () => import('./MutiCmdPages.tsx');
const ota = () => import('./OtaPages.tsx');

export const toolPages: Record<string, Loader> = {
  'transferIp/transferIp': pick(transfer, 'TransferIpPage'),
  'transferIp/transferIpResult': pick(transfer, 'TransferIpResultPage'),
  'transferIp/transferIpResults': pick(transfer, 'TransferIpResultsPage'),
  'mutiCmd/sendMutiCmd': pick(muti, 'SendMutiCmdPage'),
  'mutiCmd/searchResultCmd': pick(muti, 'SearchResultCmdPage'),
  'mutiCmd/deviceBatchManage': pick(muti, 'DeviceBatchManagePage'),
  cmdSend: () => import('./CmdSendPage.tsx'),
  'ota/otaList': pick(ota, 'OtaListPage'),
  'ota/otaHttp': pick(ota, 'OtaHttpPage'),
  otaUpdateListForUser: pick(ota, 'OtaUserPage'),
  agps: () => import('./AgpsPage.tsx'),
  'setting/subscribe': () => import('./SubscribePage.tsx'),
  configPlatformForUser: () => import('./ConfigPlatformPage.tsx'),
};
