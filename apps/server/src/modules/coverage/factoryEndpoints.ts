// The factory back office's endpoints for the authorization matrix (factoryMatrix.test.ts): each with the
// permissions of which one is needed and a valid request. Areas add their factory endpoints here.
import { PROD_ENDPOINTS } from './factoryProdEndpoints.ts';

export interface FactoryEndpoint {
  name: string;
  method?: 'GET' | 'POST';
  /** One of these is needed. */
  perm: string[];
  /** A valid request; `imei` is a registered device of the fleet, `fx` the matrix's other fixtures. */
  req: (imei: string, fx: MatrixFixtures) => { url?: string; body?: unknown };
}

/** What the matrix creates before it calls: a factory task (by the admin) and an agent to deliver stock to. */
export interface MatrixFixtures {
  taskId: string;
  agentId: string;
}

const body = (b: unknown) => ({ body: b });

export const FACTORY_ENDPOINTS: FactoryEndpoint[] = [
  { name: '/log/device/find', perm: ['factory:log_device'], req: (i) => body({ terminalID: i }) },
  { name: '/log/capture/start', perm: ['factory:log_device'], req: (i) => body({ terminalID: i, minutes: 1 }) },
  { name: '/log/capture/stop', perm: ['factory:log_device'], req: (i) => body({ terminalID: i }) },
  { name: '/log/frames', perm: ['factory:log_device'], req: (i) => body({ terminalID: i }) },
  { name: '/log/system/find', perm: ['factory:log_system'], req: () => body({}) },
  { name: '/log/audit/find', perm: ['factory:log_system'], req: () => body({}) },
  { name: '/log/deviceState', perm: ['factory:log_device_state'], req: (i) => body({ terminalID: i }) },
  { name: '/log/retention', method: 'GET', perm: ['factory:log_system'], req: () => ({}) },
  { name: '/log/retention', perm: ['factory:log_system'], req: () => body({ kind: 'frameLog', days: 7 }) },
  { name: '/factory/search', perm: ['factory:gw005_test'], req: (i) => body({ terminalID: i }) },
  { name: '/device/batchTest', perm: ['factory:gw005_test'], req: (i) => body({ terminalIDs: [i] }) },
  { name: '/recording/search', perm: ['factory:tape_download'], req: (i) => body({ terminalID: i }) },
  { name: '/idManager/find', perm: ['factory:id_manager'], req: () => body({}) },
  { name: '/idManager/set', perm: ['factory:id_manager'], req: (i) => body({ terminalID: i, nbDeviceId: null }) },
  { name: '/idManager/import', perm: ['factory:id_manager'], req: (i) => body({ text: `${i},nb-${i}` }) },
  {
    name: '/idManager/importJob',
    method: 'GET',
    perm: ['factory:id_manager'],
    req: () => ({ url: '/idManager/importJob?kind=nbIds&id=00000000-0000-4000-8000-000000000000' }),
  },
  {
    name: '/idManager/importRejected',
    method: 'GET',
    perm: ['factory:id_manager'],
    req: () => ({ url: '/idManager/importRejected?kind=nbIds&id=00000000-0000-4000-8000-000000000000' }),
  },
  {
    name: '/task/find',
    perm: ['main:command', 'main:command_batch', 'factory:muti_cmd', 'factory:log_cmd_task'],
    req: () => body({}),
  },
  {
    // A factory task (area factory) needs factory:muti_cmd; customers' tasks are covered by gatewayApi.test.ts.
    name: '/task/create',
    perm: ['factory:muti_cmd'],
    req: (i) => body({ content: 'WHERE#', terminalIDs: [i], area: 'factory' }),
  },
  // Factory II: transfer IP, batch commands, device batch actions, command console.
  {
    name: '/transferIp/send',
    perm: ['factory:transfer_ip'],
    req: (i) => body({ terminalIDs: [i], host: '127.0.0.1', port: 5023 }),
  },
  {
    name: '/transferIp/results',
    perm: ['factory:transfer_ip', 'factory:transfer_ip_result', 'factory:transfer_ip_results'],
    req: (i) => body({ terminalID: i }),
  },
  {
    name: '/transferIp/search',
    perm: ['factory:transfer_ip', 'factory:transfer_ip_results'],
    req: (i) => body({ terminalIDs: [i] }),
  },
  {
    name: '/transferIp/export',
    perm: ['factory:transfer_ip', 'factory:transfer_ip_results'],
    req: (i) => body({ terminalIDs: [i] }),
  },
  { name: '/mutiCmd/send', perm: ['factory:muti_cmd'], req: (i) => body({ terminalIDs: [i], content: 'WHERE#' }) },
  { name: '/mutiCmd/results', perm: ['factory:muti_cmd'], req: (i) => body({ terminalID: i }) },
  {
    name: '/mutiCmd/deviceBatchManage',
    perm: ['factory:muti_cmd'],
    req: (i) => body({ terminalIDs: [i], action: 'changeModel', deviceType: 12 }),
  },
  { name: '/cmdSend/send', perm: ['factory:cmd_send'], req: (i) => body({ terminalID: i, content: 'WHERE#' }) },
  { name: '/cmdSend/history', perm: ['factory:cmd_send'], req: (i) => body({ terminalID: i }) },
  {
    name: '/config/toHex',
    perm: ['factory:cmd_send', 'factory:config_platform', 'factory:muti_cmd'],
    req: () => body({ text: 'WHERE#' }),
  },
  // Stock, cards, QC, serial results, task read/cancel, OTA.
  ...PROD_ENDPOINTS,
  // AGPS (issue 15).
  { name: '/agps/find', perm: ['factory:agps'], req: () => body({}) },
  {
    name: '/agps/upload',
    perm: ['factory:agps'],
    req: () => body({ provider: 'matrix', kind: 'test', fileName: 'a.bin', data: 'AAAA' }),
  },
  {
    name: '/agps/source',
    perm: ['factory:agps'],
    req: () => body({ provider: 'matrix', kind: 'off', upstreamUrl: null }),
  },
  // Subscription settings (issue 15).
  { name: '/setting/subscribe/find', perm: ['factory:subscribe'], req: () => body({}) },
  { name: '/setting/subscribe/save', perm: ['factory:subscribe'], req: () => body({ serviceId: 'Command' }) },
  // Configuration platform (issue 15).
  { name: '/config/findAll', perm: ['factory:config_platform'], req: () => body({}) },
  { name: '/config/read', perm: ['factory:config_platform'], req: (i) => body({ terminalIDs: [i] }) },
  {
    name: '/config/add',
    perm: ['factory:config_platform'],
    req: () => body({ model: 30001, name: 'matrix', params: { heartbeat: 180 } }),
  },
  {
    name: '/config/update',
    perm: ['factory:config_platform'],
    req: () => body({ id: '999999999', params: { interval: 30 } }),
  },
  { name: '/config/push', perm: ['factory:config_platform'], req: (i) => body({ id: '999999999', terminalIDs: [i] }) },
  { name: '/config/results', perm: ['factory:config_platform'], req: () => body({ taskId: '999999999' }) },
  { name: '/agps/refresh', perm: ['factory:agps'], req: () => body({ id: '999999999' }) },
  { name: '/agps/delete', perm: ['factory:agps'], req: () => body({ id: '999999999' }) },
  { name: '/setting/subscribe/test', perm: ['factory:subscribe'], req: () => body({}) },
  // A recording: its device's owner (main:command) or the tape-download staff.
  {
    name: '/recording/file',
    method: 'GET',
    perm: ['main:command', 'factory:tape_download'],
    req: () => ({ url: '/recording/file?id=999999999' }),
  },
];
