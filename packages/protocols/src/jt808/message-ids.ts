// JT/T 808 message ids (terminal → platform 0x0xxx, platform → terminal 0x8xxx) and vendor extensions.

export const Jt808Id = {
  terminalGeneralResponse: 0x0001,
  heartbeat: 0x0002,
  logout: 0x0003,
  register: 0x0100,
  auth: 0x0102,
  resendRequest: 0x0005, // 2019: terminal asks for sub-packages again
  parameterReply: 0x0104,
  upgradeResult: 0x0108,
  attributesReply: 0x0107,
  timeSyncRequest: 0x0109, // vendor
  location: 0x0200,
  locationQueryReply: 0x0201,
  locationBatch2: 0x0210, // vendor
  commandReply: 0x0701, // e-waybill, used by some devices for command replies
  driverIdentity: 0x0702,
  locationBatch: 0x0704,
  multimediaEvent: 0x0800,
  multimediaData: 0x0801,
  transparent: 0x0900,
  heartbeat2: 0x0506, // vendor
  timezoneSync: 0x1007, // vendor
  textReply: 0x1300, // vendor
  acceleration: 0x2070, // vendor
  lockLocation: 0x5501, // JT701 locks
  lockLocationBlind: 0x5502,
  textReport: 0x6006, // vendor
  photo: 0x8888, // vendor

  generalResponse: 0x8001,
  registerReply: 0x8100,
  setParameters: 0x8103,
  queryParameters: 0x8104,
  terminalControl: 0x8105,
  queryParametersById: 0x8106,
  queryAttributes: 0x8107,
  upgrade: 0x8108,
  timeSyncReply: 0x8109,
  locationQuery: 0x8201,
  textMessage: 0x8300,
  multimediaReply: 0x8800,
  transparentDownlink: 0x8900,
} as const;

const NAMES: Record<number, string> = {
  1: 'commandReply',
  2: 'heartbeat',
  3: 'logout',
  5: 'resendRequest',
  256: 'register',
  258: 'auth',
  260: 'parameters',
  263: 'attributes',
  264: 'upgradeResult',
  265: 'timeRequest',
  512: 'location',
  513: 'location',
  528: 'batch',
  1286: 'heartbeat',
  1793: 'commandReply',
  1794: 'driverIdentity',
  1796: 'batch',
  2048: 'multimediaEvent',
  2049: 'multimedia',
  2304: 'transparent',
  4103: 'timeZone',
  4864: 'commandReply',
  8304: 'acceleration',
  21761: 'location',
  21762: 'location',
  24582: 'commandReply',
  34952: 'photo',
};

export function jt808MessageType(id: number): string {
  return NAMES[id] ?? 'unknown';
}
