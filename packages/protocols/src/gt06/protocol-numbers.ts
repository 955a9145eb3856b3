// GT06 / Concox protocol numbers (the byte after the length). Several vendors reuse numbers; the
// comments name the device family a number comes from when it is not the original GT06.

export const Gt06Type = {
  login: 0x01,
  heartbeatOld: 0x08,
  gps: 0x10,
  gpsLbs6: 0x11,
  gpsLbs1: 0x12,
  status: 0x13,
  satellite: 0x14,
  string: 0x15,
  gpsLbsStatus1: 0x16,
  wifi: 0x17, // also GPS + LBS + RFID on some models
  lbsExtend: 0x18,
  lbsStatus: 0x19,
  gpsPhone: 0x1a,
  gpsLbsExtend: 0x1e, // JI09
  stringInfo: 0x21, // extended frames only
  gpsLbs2: 0x22,
  heartbeat: 0x23, // GK310
  lbsMultiple3: 0x24,
  gpsLbsStatus2: 0x26,
  gpsLbsStatus3: 0x27,
  lbsMultiple1: 0x28,
  addressRequest: 0x2a, // GK310
  lbsWifi: 0x2c,
  gpsLbs4: 0x2d,
  lbsMultiple2: 0x2e,
  gpsLbs5: 0x31, // AZ735, SL4X
  gpsLbsStatus4: 0x32, // AZ735, SL4X (extended: AZ735 GPS)
  wifi5: 0x33, // AZ735, SL4X (extended: AZ735 alarm)
  x1Gps: 0x34, // also SL4X LBS
  x1PhotoInfo: 0x35,
  status2: 0x36, // Jimi 4G status (extended: X1 photo data)
  gpsLbs3: 0x37,
  bms: 0x40, // WD-209
  multimedia: 0x41, // WD-209
  dtc: 0x65,
  pid: 0x66,
  wifi2: 0x69,
  gpsModular: 0x70,
  command0: 0x80,
  command1: 0x81,
  command2: 0x82,
  timeRequest: 0x8a, // GK310
  obd: 0x8c,
  info: 0x94,
  alarm: 0x95, // JC100 / JC400
  addressResponse: 0x97,
  serial: 0x9b,
  gpsLbs7: 0xa0, // GK310, JM-VL03 (4G)
  lbs2: 0xa1,
  wifi3: 0xa2, // also GPS + LBS + status on LW 4G models
  fenceSingle: 0xa3,
  fenceMulti: 0xa4,
  lbsAlarm: 0xa5,
  lbsAddress: 0xa7,
  wifi4: 0xf3,
} as const;

const NAMES: Record<number, string> = {
  1: 'login',
  8: 'heartbeat',
  16: 'location',
  17: 'location',
  18: 'location',
  19: 'heartbeat',
  20: 'satellites',
  21: 'commandReply',
  22: 'alarm',
  23: 'wifi',
  24: 'lbs',
  25: 'lbsAlarm',
  26: 'location',
  30: 'location',
  31: 'timeSync',
  33: 'commandReply',
  34: 'location',
  35: 'heartbeat',
  36: 'lbs',
  37: 'location',
  38: 'alarm',
  39: 'alarm',
  40: 'lbs',
  42: 'addressRequest',
  44: 'lbsWifi',
  45: 'location',
  46: 'lbs',
  49: 'location',
  50: 'alarm',
  51: 'wifi',
  52: 'location',
  53: 'photoInfo',
  54: 'heartbeat',
  55: 'location',
  56: 'location',
  64: 'battery',
  65: 'multimedia',
  97: 'location',
  101: 'dtc',
  102: 'obd',
  105: 'wifi',
  112: 'location',
  128: 'command',
  129: 'command',
  130: 'command',
  138: 'timeRequest',
  140: 'obd',
  148: 'info',
  149: 'alarm',
  155: 'transparent',
  160: 'location',
  161: 'lbs',
  162: 'wifi',
  163: 'alarm',
  164: 'alarm',
  165: 'lbsAlarm',
  167: 'lbs',
  241: 'status',
  242: 'status',
  243: 'wifi',
};

export function gt06MessageType(type: number): string {
  return NAMES[type] ?? 'unknown';
}
