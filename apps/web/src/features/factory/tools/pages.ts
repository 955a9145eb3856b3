// Factory II tool screens below /test (transfer IP, batch commands, command console), loaded lazily.
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;
const pick =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Loader =>
  () =>
    load().then((m) => ({ default: m[name] as ComponentType }));

const transfer = () => import('./TransferIpPages.tsx');
const muti = () => import('./MutiCmdPages.tsx');

export const toolPages: Record<string, Loader> = {
  'transferIp/transferIp': pick(transfer, 'TransferIpPage'),
  'transferIp/transferIpResult': pick(transfer, 'TransferIpResultPage'),
  'transferIp/transferIpResults': pick(transfer, 'TransferIpResultsPage'),
  'mutiCmd/sendMutiCmd': pick(muti, 'SendMutiCmdPage'),
  'mutiCmd/searchResultCmd': pick(muti, 'SearchResultCmdPage'),
  'mutiCmd/deviceBatchManage': pick(muti, 'DeviceBatchManagePage'),
  cmdSend: () => import('./CmdSendPage.tsx'),
};
