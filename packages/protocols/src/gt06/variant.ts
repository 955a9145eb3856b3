import { Gt06Type as T } from './protocol-numbers.ts';

/**
 * Vendor variants that reuse a standard protocol number with another layout. They are recognised from
 * the header, protocol number and length field, as nothing else in the frame tells them apart.
 */
export type Gt06Variant =
  | 'standard'
  | 'vxt01'
  | 'wanwayS20'
  | 'sr411Mini'
  | 'gt06eCard'
  | 'benway'
  | 's5'
  | 'space10x'
  | 'obd6'
  | 'wetrust'
  | 'jc400'
  | 'sl4x'
  | 'seeworld'
  | 'rfid'
  | 'lw4g'
  | 'imeiReport' // NT20 / XT40: 0x22 and 0x25 reports that start with 01 + IMEI
  | 'qh302r' // 0x12 with the IMEI before the GPS block
  | 'vl103'; // 0x36 as a GPS + LBS + status report

export function detectGt06Variant(
  frame: Uint8Array,
  extended: boolean,
  type: number,
  length: number,
  model: string,
): Gt06Variant {
  if (extended) return 'standard';
  switch (type) {
    case T.gpsLbs1:
      if (length === 0x27 || model === 'QH302R') return 'qh302r';
      if (length === 0x24) return 'vxt01';
      if (length >= 0x71) return 'gt06eCard';
      if (length === 0x21) return 'benway';
      if (length === 0x2b) return 's5';
      if (length === 0x29) return 'wetrust';
      return 'standard';
    case T.gpsLbsStatus1:
      if (length === 0x24) return 'vxt01';
      if (length === 0x26) return 'seeworld';
      return 'standard';
    case T.lbsMultiple3:
      if (length === 0x31) return 'wanwayS20';
      if (length === 0x2e) return 'sr411Mini';
      return 'standard';
    case T.lbsStatus:
      return length >= 0x17 ? 'space10x' : 'standard';
    case T.status:
      return length === 0x13 ? 'obd6' : 'standard';
    case T.alarm:
      return frame.length > 5 && frame[4] === 0xff && frame[5] === 0xff ? 'jc400' : 'standard';
    case T.x1Gps:
      return length === 0x37 ? 'sl4x' : 'standard';
    case T.gpsLbs5:
      return length === 0x2a ? 'sl4x' : 'standard';
    case T.gpsLbsStatus4:
      return length === 0x27 || length === 0x29 ? 'sl4x' : 'standard';
    case T.gpsLbs2:
    case 0x25:
      if (model === 'NT20' || model === 'XT40' || (length >= 0x3c && frame[4] === 0x01)) return 'imeiReport';
      return type === T.gpsLbs2 && length === 0x2f ? 'seeworld' : 'standard';
    case T.status2:
      return model === 'VL103' || length >= 0x2c ? 'vl103' : 'standard';
    case T.wifi:
      return length === 0x28 ? 'rfid' : 'standard';
    case T.wifi3:
      return length === 0x40 ? 'lw4g' : 'standard';
    default:
      return 'standard';
  }
}
