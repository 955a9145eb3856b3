import type { ByteReader } from '../reader.ts';
import { wallClockToEpoch } from '../time.ts';
import type { Attributes, AttributeValue } from '../types.ts';
import { type CellTower, cellTower } from './fields.ts';
import { Gt06Type as T } from './protocol-numbers.ts';
import type { Gt06Variant } from './variant.ts';

/** Appends to an array attribute (cellTowers, wifi), creating it on first use. */
export function pushAttribute(attributes: Attributes, key: string, value: AttributeValue): void {
  const list = attributes[key];
  if (Array.isArray(list)) list.push(value);
  else attributes[key] = [value];
}

export function macAddress(r: ByteReader): string {
  const b = r.bytes(6);
  let out = '';
  for (let i = 0; i < 6; i++) {
    if (i > 0) out += ':';
    out += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  }
  return out;
}

/**
 * The serving cell that follows a GPS block: MCC, MNC (2 bytes when the MCC's top bit is set), LAC and
 * cell id. With `hasLength` a length byte (counting itself) comes first; 0 means no cell. Its value also
 * tells the 4G long format (4-byte LAC, 8-byte cell id) from the classic one (2-byte LAC, 3-byte cell id).
 */
export function readServingCell(
  r: ByteReader,
  type: number,
  variant: Gt06Variant,
  hasLength: boolean,
  attributes: Attributes,
): void {
  let inner = -1;
  if (hasLength) {
    const length = r.u8();
    if (length === 0) {
      // Some devices send length 0 followed by 45 zero bytes of placeholder cell data.
      const from = r.pos + 9;
      const to = Math.min(r.pos + 45, r.end);
      let zeroed = to > from;
      for (let i = from; i < to && zeroed; i++) zeroed = r.buf[i] === 0;
      if (zeroed) r.skip(Math.min(r.remaining, 45));
      return;
    }
    inner = length - 1;
  }
  const start = r.pos;
  const mccField = r.u16();
  const longMnc = (mccField & 0x8000) !== 0 || type === T.gpsLbs6 || variant === 'sl4x';
  const mnc = longMnc ? r.u16() : r.u8();
  const [lacSize, cidSize] = cellFieldSizes(type, variant, inner, inner - (longMnc ? 4 : 3));
  const lac = lacSize === 4 ? r.u32() : r.u16();
  const cid = cidSize === 8 ? r.u64() : cidSize === 4 ? r.u32() : r.u24();
  pushAttribute(attributes, 'cellTowers', cellTower(mccField & 0x7fff, mnc, lac, cid));
  const extra = inner - (r.pos - start);
  if (extra > 0) r.skip(Math.min(extra, r.remaining));
}

/**
 * Sizes of LAC and cell id. Vendor variants fix them; otherwise the length byte tells (12 bytes after
 * MCC/MNC: 4G long format; 6: 4-byte cell id; else the classic 2 + 3).
 */
function cellFieldSizes(type: number, variant: Gt06Variant, inner: number, rest: number): [number, number] {
  if (inner >= 0) {
    if (variant === 'sl4x') return [2, rest === 4 ? 4 : 8];
    if (variant === 'seeworld' || type === T.gpsLbs6) return [2, 4];
    if (rest >= 12) return [4, 8];
    if (rest === 6) return [2, 4];
    return [2, 3];
  }
  if (type === T.lbsAlarm || type === T.gpsLbs7 || (type === T.wifi3 && variant === 'lw4g')) return [4, 8];
  if (variant === 'sl4x') return [2, 8];
  if (type === T.gpsLbs6 || variant === 'seeworld') return [2, 4];
  return [2, 3];
}

/** Multi-cell LBS packets (0x18, 0x24, 0x28, 0x2C, 0x2E, 0x33, 0x34, 0xA1, 0xA2) with optional WiFi list. */
export function readLbsList(
  r: ByteReader,
  type: number,
  variant: Gt06Variant,
  timeZone: number,
  attributes: Attributes,
) {
  const year = 2000 + r.u8();
  const month = r.u8();
  const day = r.u8();
  const hour = r.u8();
  const minute = r.u8();
  const second = r.u8();
  attributes.deviceTime = isoOrNull(wallClockToEpoch(year, month, day, hour, minute, second, timeZone));
  const timingAdvanceFirst = variant === 'wanwayS20' || variant === 'sl4x';
  if (timingAdvanceFirst) r.skip(1);
  const mccField = r.u16();
  const mnc = (mccField & 0x8000) !== 0 || variant === 'sl4x' ? r.u16() : r.u8();
  const mcc = mccField & 0x7fff;
  const count = variant === 'wanwayS20' ? r.u8() : type === T.wifi5 ? 6 : 7;
  const towers: CellTower[] = [];
  for (let i = 0; i < count; i++) {
    let lac: number;
    let cid: number;
    if (type === T.lbs2 || type === T.wifi3) {
      lac = r.i32();
      cid = r.u64();
    } else if (type === T.wifi5 || type === T.x1Gps) {
      lac = r.u16();
      cid = r.u32();
    } else {
      lac = r.u16();
      cid = r.u24();
    }
    const rssi = -r.u8();
    if (lac > 0) towers.push(cellTower(mcc, mnc, lac, cid, rssi));
  }
  if (towers.length > 0) attributes.cellTowers = towers;
  if (!timingAdvanceFirst) r.skip(1);
  const withWifi =
    type !== T.lbsMultiple1 &&
    type !== T.lbsMultiple2 &&
    type !== T.lbsMultiple3 &&
    type !== T.lbs2 &&
    type !== T.x1Gps;
  if (withWifi && r.remaining > 0) {
    const wifiCount = r.u8();
    for (let i = 0; i < wifiCount; i++) {
      const mac = macAddress(r);
      pushAttribute(attributes, 'wifi', { mac, rssi: r.u8() });
    }
  }
}

export function isoOrNull(epoch: number): string | null {
  return Number.isFinite(epoch) ? new Date(epoch).toISOString() : null;
}
