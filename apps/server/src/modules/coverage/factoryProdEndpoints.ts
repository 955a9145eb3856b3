// The production side's endpoints for the factory authorization matrix (factoryMatrix.test.ts): stock, SIM cards,
// QC and serial results, the task model's read and cancel operations, and OTA. Each with the permissions of
// which one is needed (as the route declares them) and a valid request.
import type { FactoryEndpoint } from './factoryEndpoints.ts';

const body = (b: unknown) => ({ body: b });
/** A job id no job has: the job endpoints answer 404 to a caller they let in. */
const NO_JOB = '00000000-0000-4000-8000-000000000000';
const STOCK_JOBS = ['factory:stock_import_imei', 'factory:stock_import_device', 'factory:stock_in'];
// The routes also open to main:command / main:command_batch, but only for the caller's own subtree's tasks: the
// admin's factory task is reachable with the factory permissions alone (customers' tasks: tasks.test.ts).
const TASK_READ = ['factory:muti_cmd', 'factory:log_cmd_task'];
const TASK_CANCEL = ['factory:muti_cmd'];

export const PROD_ENDPOINTS: FactoryEndpoint[] = [
  // Stock
  {
    name: '/stock/find',
    perm: ['factory:stock', 'factory:stock_in', 'factory:stock_unused', 'factory:stock_out'],
    req: (i) => body({ imei: i }),
  },
  { name: '/stock/importImei', perm: ['factory:stock_import_imei'], req: (i) => body({ text: i, batch: 'M' }) },
  {
    name: '/stock/importDevice',
    perm: ['factory:stock_import_device', 'factory:stock_in'],
    req: (i) => body({ text: `${i},Gt06` }),
  },
  {
    name: '/stock/importJob',
    method: 'GET',
    perm: STOCK_JOBS,
    req: () => ({ url: `/stock/importJob?kind=stockImei&id=${NO_JOB}` }),
  },
  {
    name: '/stock/importRejected',
    method: 'GET',
    perm: STOCK_JOBS,
    req: () => ({ url: `/stock/importRejected?kind=stockDevice&id=${NO_JOB}` }),
  },
  { name: '/stock/agents', perm: ['factory:stock_out'], req: () => body({ keyword: '' }) },
  { name: '/stock/out', perm: ['factory:stock_out'], req: (i, fx) => body({ agentId: fx.agentId, text: i }) },
  {
    name: '/stock/factoryChecks',
    method: 'GET',
    perm: ['main:system_config', 'factory:stock', 'factory:stock_import_device'],
    req: () => ({}),
  },
  // SIM cards
  { name: '/card/find', perm: ['factory:card_search'], req: () => body({ iccid: '8986' }) },
  {
    name: '/card/import',
    perm: ['factory:card_search'],
    req: () => body({ text: '89860000000000000001,460000000000001,13800000001' }),
  },
  {
    name: '/card/importJob',
    method: 'GET',
    perm: ['factory:card_search'],
    req: () => ({ url: `/card/importJob?kind=cards&id=${NO_JOB}` }),
  },
  {
    name: '/card/importRejected',
    method: 'GET',
    perm: ['factory:card_search'],
    req: () => ({ url: `/card/importRejected?kind=cards&id=${NO_JOB}` }),
  },
  {
    name: '/card/export',
    method: 'GET',
    perm: ['factory:card_search'],
    req: () => ({ url: '/card/export?iccid=8986' }),
  },
  { name: '/card/check', perm: ['factory:card_search'], req: (i) => body({ imeis: [i] }) },
  { name: '/card/clear', perm: ['factory:card_clear'], req: (i) => body({ imeis: [i] }) },
  // Customers (main:devices_sim_check) read the numbers of their own devices; the matrix's device has no owner.
  {
    name: '/card/findDeviceNumberList',
    perm: ['factory:card_search', 'main:devices_sim_check'],
    req: (i) => body({ imeis: [i] }),
  },
  // QC and serial results
  { name: '/qc/find', perm: ['factory:qc'], req: (i) => body({ imei: i.slice(0, 8) }) },
  { name: '/qc/export', method: 'GET', perm: ['factory:qc'], req: (i) => ({ url: `/qc/export?imei=${i}` }) },
  { name: '/serials/find', perm: ['factory:serial_result'], req: () => body({ kind: 'v1' }) },
  {
    name: '/serials/config/find',
    perm: ['factory:test_config', 'factory:serial_result', 'factory:qc'],
    req: () => body({}),
  },
  {
    name: '/serials/config/save',
    perm: ['factory:test_config'],
    req: () => body({ model: 'Matrix', minSatellites: 4, minCn0: 30, minGsm: 10, firmware: null }),
  },
  { name: '/serials/config/delete', perm: ['factory:test_config'], req: () => body({ model: 'Matrix' }) },
  // The shared task model, on a factory task the admin created.
  { name: '/task/get', perm: TASK_READ, req: (_i, fx) => body({ id: fx.taskId }) },
  { name: '/task/items', perm: TASK_READ, req: (_i, fx) => body({ id: fx.taskId }) },
  { name: '/task/cancel', perm: TASK_CANCEL, req: (_i, fx) => body({ id: fx.taskId }) },
  // OTA (Factory back office II)
  { name: '/ota/firmware/find', perm: ['factory:ota', 'factory:ota_user'], req: () => body({}) },
  {
    name: '/ota/firmware/upload',
    perm: ['factory:ota'],
    req: () => body({ model: 2, version: 'M-1', fileName: 'm.bin', data: Buffer.from('firmware').toString('base64') }),
  },
  {
    name: '/ota/firmware/download',
    method: 'GET',
    perm: ['factory:ota'],
    req: () => ({ url: '/ota/firmware/download?id=999999999' }),
  },
  { name: '/ota/firmware/delete', perm: ['factory:ota'], req: () => body({ id: '999999999' }) },
  { name: '/ota/push', perm: ['factory:ota'], req: (i) => body({ firmwareId: '999999999', terminalIDs: [i] }) },
  { name: '/ota/results', perm: ['factory:ota'], req: (i) => body({ terminalID: i }) },
  { name: '/user_ota', perm: ['factory:ota', 'factory:ota_user'], req: (i) => body({ terminalID: i }) },
];
