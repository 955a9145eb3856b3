// JT/T 808 remote upgrade: the platform's 0x8108 (upgrade type, manufacturer, version, package length, package)
// is longer than one frame, so it travels as sub-packages (header attribute bit 13, then total WORD and index
// WORD after the serial; each sub-package has its own consecutive serial). The terminal answers each part with a
// 0x0001; a 2019 terminal may ask for missing parts with 0x0005 (first serial WORD, count WORD, part ids WORD[]);
// once upgraded it reports 0x0108 (type BYTE, result BYTE: 0 success, 1 failure, 2 cancelled).
import type { Jt808Version } from './context.ts';
import { jt808Target } from './encoder.ts';
import { escapeJt808Frame } from './escape.ts';
import { encodeGbk } from './gbk.ts';

/** Body bytes carried by one sub-package (the standard allows up to 1023). */
export const JT808_UPGRADE_PART_BYTES = 1000;

export interface Jt808UpgradeSpec {
  /** 0 terminal, 12 road transport IC card reader, 52 satellite positioning module. */
  type: number;
  /** Manufacturer id: 5 bytes in 2011/2013, 11 bytes in 2019 (padded with zeros). */
  manufacturer: string;
  version: string;
  firmware: Uint8Array;
}

/** The whole 0x8108 body for a terminal speaking `version`. */
export function jt808UpgradeBody(spec: Jt808UpgradeSpec, version: Jt808Version): Uint8Array {
  const makerLength = version === '2019' ? 11 : 5;
  const maker = new Uint8Array(makerLength);
  maker.set(encodeGbk(spec.manufacturer).subarray(0, makerLength));
  const ver = encodeGbk(spec.version).subarray(0, 255);
  const body = new Uint8Array(1 + makerLength + 1 + ver.length + 4 + spec.firmware.length);
  let p = 0;
  body[p++] = spec.type;
  body.set(maker, p);
  p += makerLength;
  body[p++] = ver.length;
  body.set(ver, p);
  p += ver.length;
  const n = spec.firmware.length;
  body[p++] = (n >>> 24) & 0xff;
  body[p++] = (n >>> 16) & 0xff;
  body[p++] = (n >>> 8) & 0xff;
  body[p++] = n & 0xff;
  body.set(spec.firmware, p);
  return body;
}

/** Number of sub-packages a body of `length` bytes needs. */
export function jt808PartCount(length: number, partBytes = JT808_UPGRADE_PART_BYTES): number {
  return Math.max(1, Math.ceil(length / partBytes));
}

/**
 * One sub-package frame (index 1-based) of a long message `messageId` whose whole body is `body`, for the
 * terminal `terminalId`; `serial` is this part's own serial.
 */
export function jt808SubPackage(
  messageId: number,
  terminalId: string,
  version: Jt808Version,
  serial: number,
  body: Uint8Array,
  index: number,
  partBytes = JT808_UPGRADE_PART_BYTES,
): Buffer {
  const total = jt808PartCount(body.length, partBytes);
  if (index < 1 || index > total) throw new RangeError(`sub-package ${index} of ${total}`);
  const chunk = body.subarray((index - 1) * partBytes, Math.min(body.length, index * partBytes));
  const target = jt808Target(terminalId, version);
  const idLength = target.idBytes.length;
  // 7E, header (with the package fields), body, XOR, 7E; escaped at the end.
  const raw = new Uint8Array(1 + 4 + (target.is2019 ? 1 : 0) + idLength + 2 + 4 + chunk.length + 1 + 1);
  raw[0] = 0x7e;
  let p = 1;
  raw[p++] = messageId >> 8;
  raw[p++] = messageId & 0xff;
  const attributes = chunk.length | 0x2000 | (target.is2019 ? 0x4000 : 0);
  raw[p++] = attributes >> 8;
  raw[p++] = attributes & 0xff;
  if (target.is2019) raw[p++] = target.protocolVersion ?? 1;
  raw.set(target.idBytes, p);
  p += idLength;
  raw[p++] = (serial >> 8) & 0xff;
  raw[p++] = serial & 0xff;
  raw[p++] = (total >> 8) & 0xff;
  raw[p++] = total & 0xff;
  raw[p++] = (index >> 8) & 0xff;
  raw[p++] = index & 0xff;
  raw.set(chunk, p);
  p += chunk.length;
  let check = 0;
  for (let i = 1; i < p; i++) check ^= raw[i];
  raw[p++] = check;
  raw[p] = 0x7e;
  return escapeJt808Frame(raw);
}

/** Reads the 0x8108 body a terminal reassembled: the firmware and what the platform said about it. */
export function readJt808UpgradeBody(
  body: Uint8Array,
  version: Jt808Version,
): { type: number; manufacturer: string; version: string; firmware: Uint8Array } | null {
  const makerLength = version === '2019' ? 11 : 5;
  if (body.length < 1 + makerLength + 1 + 4) return null;
  let p = 0;
  const type = body[p++];
  const manufacturer = Buffer.from(body.subarray(p, p + makerLength))
    .toString('latin1')
    .replace(/\0+$/, '');
  p += makerLength;
  const verLength = body[p++];
  const ver = Buffer.from(body.subarray(p, p + verLength)).toString('latin1');
  p += verLength;
  if (p + 4 > body.length) return null;
  const n = ((body[p] << 24) >>> 0) + (body[p + 1] << 16) + (body[p + 2] << 8) + body[p + 3];
  p += 4;
  if (p + n !== body.length) return null;
  return { type, manufacturer, version: ver, firmware: body.subarray(p) };
}
