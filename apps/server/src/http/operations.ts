// Which API operations write. One list decides it for the demo's read-only sessions and for the audit log:
// every GET is a read; a POST (or any other method) is a write unless it is listed in READ_OPERATIONS.
// So a new endpoint is treated as a write (refused to the demo, audited) until someone lists it here.

/** Operations that only read, named as in the OpenAPI document: 'POST /api/device/findById'. */
export const READ_OPERATIONS: ReadonlySet<string> = new Set([
  // Factory II (transfer IP, batch commands, command console): searches and exports.
  'POST /api/transferIp/results',
  'POST /api/transferIp/search',
  'POST /api/transferIp/export',
  'POST /api/mutiCmd/results',
  'POST /api/cmdSend/history',
  'POST /api/config/toHex',
  'POST /api/ota/firmware/find',
  'POST /api/ota/results',
  'POST /api/user_ota',
  'POST /api/agps/find',
  'POST /api/config/findAll',
  'POST /api/config/results',
  'POST /api/setting/subscribe/find',
  'POST /api/setting/subscribe/test',
  'POST /api/user/findById',
  'POST /api/user/findAllUser',
  'POST /api/user/findAllUserV2',
  'POST /api/user/findAllAgentByIdV2',
  'POST /api/user/findUsername',
  'POST /api/user/findLike',
  'POST /api/user/getFamily',
  'POST /api/user/userRelationimportNum',
  'POST /api/user/findImportNumRecord',
  'POST /api/fence/find',
  'POST /api/fence/findById',
  'POST /api/fence/findDevices',
  'POST /api/fence/findByDevice',
  'POST /api/fence/findAlarmFences',
  // Customer map (issue 16): vehicle checks, risk point lists and visits, grants.
  'POST /api/checkCar/area',
  'POST /api/checkCar/point',
  'POST /api/riskPoint/find',
  'POST /api/riskPoint/visits',
  'POST /api/user/findGrants',
  'POST /api/map/getKey',
  'POST /api/deviceType/findAll',
  'POST /api/deviceType/find',
  'POST /api/deviceType/detail',
  'POST /api/deviceType/ofDevice',
  'POST /api/deviceType/list',
  'POST /api/map/findKeys',
  'POST /api/map/findProviders',
  'POST /api/map/findGeocoder',
  // Geocoding fills a shared address cache, which is not anybody's data.
  'POST /api/map/getKeyAddress',
  'POST /api/map/getSuggestion',
  'POST /api/notice/find',
  // Share links and maintenance (issue 18): lists.
  'POST /api/share/find',
  'POST /api/maintenance/find',
  'POST /api/maintenance/dueList',
  'POST /api/system/demoAccount/find',
  'POST /api/system/apiKey/find',
  'POST /api/device/findByUserId',
  'POST /api/device/countByUserId',
  'POST /api/device/findById',
  'POST /api/device/findByImeis',
  'POST /api/agent/export',
  'POST /api/location/find',
  'POST /api/location/findV2',
  'POST /api/location/findArea',
  'POST /api/track/find',
  'POST /api/track/findByTerminalID',
  'POST /api/deviceAlarms/findAll',
  'POST /api/deviceAlarms/findAllById',
  'POST /api/deviceAlarms/export',
  'POST /api/command/find',
  // Tasks, factory logs and tools (fshell): searches and reads.
  'POST /api/task/find',
  'POST /api/task/get',
  'POST /api/task/items',
  'POST /api/log/device/find',
  'POST /api/log/frames',
  'POST /api/log/system/find',
  'POST /api/log/audit/find',
  'POST /api/log/deviceState',
  'POST /api/factory/search',
  'POST /api/idManager/find',
  'POST /api/command/findLog',
  'POST /api/command/findAndOffline',
  'POST /api/order/find',
  'POST /api/tire/find',
  'POST /api/battery',
  'POST /api/audit/find',
  // Statistics (modules/stat); an export only creates the caller's own job and file.
  'POST /api/gateway/modelSettings/find',
  'POST /api/stat/find',
  'POST /api/stat/findAllMileage',
  'POST /api/stat/findByUserIds',
  'POST /api/stay/find',
  'POST /api/stat/trips',
  'POST /api/stat/fenceVisits',
  'POST /api/stat/alarms',
  'POST /api/stat/pastDue',
  'POST /api/stat/battery',
  'POST /api/stat/export',
  'POST /api/device/speedLimit',
  'POST /api/stat/batteryAlarms',
  // Factory production (stock, cards, QC).
  'POST /api/stock/find',
  'POST /api/stock/agents',
  'POST /api/card/find',
  'POST /api/card/findDeviceNumberList',
  'POST /api/qc/find',
  'POST /api/serials/find',
  'POST /api/serials/config/find',
  // Customer self-service (custself): special-brand accounts, drivers, batch-edit preview, import preview.
  'POST /api/system/specialBrand/find',
  'POST /api/driver/find',
  'POST /api/driver/history',
  'POST /api/device/updateAllPreview',
  'POST /api/task/findResults',
  'POST /api/device/dataImportPreview',
]);

/**
 * Writes a demo ("try it out") session may make: commands. The command endpoints themselves check that every
 * target device lies in the caller's tree, so the demo reaches only its own simulated devices.
 */
export const DEMO_ALLOWED_WRITES: ReadonlySet<string> = new Set([
  'POST /api/tracker_cmd',
  'POST /api/command/add',
  'POST /api/command/addBatch',
  'POST /api/command/insertOffline',
  'POST /api/command/cancelOffline',
]);

/** 'POST /api/device/findById' for a method and a route path (the route's pattern, not the raw URL). */
export function operationName(method: string, routePath: string): string {
  return `${method.toUpperCase()} ${routePath}`;
}

/** True unless the operation is a GET / HEAD / OPTIONS or listed as a read. */
export function isWriteOperation(operation: string): boolean {
  const method = operation.slice(0, operation.indexOf(' '));
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return !READ_OPERATIONS.has(operation);
}
