import { xorChecksum } from '../checksum.ts';
import { DELIMITER, unescapeJt808Into } from './escape.ts';
import { decodeTerminalId } from './terminal-id.ts';

// Frame: 7E | header | body | XOR | 7E (escaped between the delimiters).
// Header 2011/2013: id(2) attributes(2) phone BCD(6) serial(2) [total(2) index(2)]
// Header 2019:      id(2) attributes(2) version(1) phone BCD(10) serial(2) [total(2) index(2)]
// Attributes: bits 0-9 body length, 10-12 encryption, 13 sub-package, 14 version-2019 flag.

export interface Jt808Header {
  messageId: number;
  attributes: number;
  /** Body length announced by the attributes. */
  bodyLength: number;
  encryption: number;
  /** 2019 header (version byte and 10-byte phone). */
  is2019: boolean;
  protocolVersion: number;
  terminalId: string;
  /** The un-escaped bytes the header was read from, and where the phone/terminal id is in them. */
  source: Uint8Array;
  idOffset: number;
  idLength: number;
  serial: number;
  /** Sub-package: total parts and this part's index (1-based); 0 when not sub-packaged. */
  packageTotal: number;
  packageIndex: number;
}

export interface Jt808Unpacked {
  header: Jt808Header;
  /** Un-escaped bytes holding header, body and checksum (the frame itself when nothing was escaped). */
  bytes: Uint8Array;
  bodyStart: number;
  bodyEnd: number;
  checksumOk: boolean;
}

/** Remembers the last terminal id so the same connection does not re-format it for every frame. */
export interface TerminalIdCache {
  bytes: Uint8Array;
  length: number;
  text: string;
}

export function createTerminalIdCache(): TerminalIdCache {
  return { bytes: new Uint8Array(10), length: 0, text: '' };
}

/** Vendor messages (JT701 locks) whose serial number is one byte. */
function hasShortSerial(messageId: number): boolean {
  return messageId === 0x5501 || messageId === 0x5502;
}

/**
 * Un-escapes and reads the header of a complete 7E…7E frame; returns an error text when it is not one.
 * `scratch` (internal use) receives the un-escaped bytes instead of a new array: the result is then only
 * valid until the next call with the same scratch.
 */
export function unpackJt808(frame: Uint8Array, cache?: TerminalIdCache, scratch?: Uint8Array): Jt808Unpacked | string {
  const n = frame.length;
  if (n < 2 || frame[0] !== DELIMITER || frame[n - 1] !== DELIMITER) return 'frame is not delimited by 7E';
  let escaped = false;
  for (let i = 1; i < n - 1; i++) {
    if (frame[i] === 0x7d) {
      escaped = true;
      break;
    }
  }
  if (!escaped) return unpackBytes(frame, 1, n - 1, cache);
  const target = scratch && scratch.length >= n ? scratch : new Uint8Array(n);
  const length = unescapeJt808Into(frame, 1, n - 1, target);
  const escapedForm = unpackBytes(target, 0, length, cache);
  if (typeof escapedForm !== 'string' && isConsistent(escapedForm)) return escapedForm;
  // Un-escaping breaks both the checksum and the length field: the frame was captured already
  // un-escaped (as logs and test vectors often are). Read it as it is.
  const rawForm = unpackBytes(frame, 1, n - 1, cache);
  return typeof rawForm !== 'string' && isConsistent(rawForm) ? rawForm : escapedForm;
}

/** True if the checksum matches or the body length agrees with the header's length field. */
export function isConsistent(unpacked: Jt808Unpacked): boolean {
  const header = unpacked.header;
  return (
    unpacked.checksumOk || (header.packageTotal === 0 && unpacked.bodyEnd - unpacked.bodyStart === header.bodyLength)
  );
}

function terminalIdOf(bytes: Uint8Array, at: number, length: number, cache?: TerminalIdCache): string {
  if (cache && cache.length === length) {
    let same = true;
    for (let i = 0; i < length; i++) {
      if (cache.bytes[i] !== bytes[at + i]) {
        same = false;
        break;
      }
    }
    if (same) return cache.text;
  }
  const text = decodeTerminalId(bytes.subarray(at, at + length));
  if (cache) {
    for (let i = 0; i < length; i++) cache.bytes[i] = bytes[at + i];
    cache.length = length;
    cache.text = text;
  }
  return text;
}

function unpackBytes(bytes: Uint8Array, start: number, end: number, cache?: TerminalIdCache): Jt808Unpacked | string {
  const length = end - start;
  if (length < 13) return 'frame shorter than a JT/T 808 header';
  const messageId = (bytes[start] << 8) | bytes[start + 1];
  const attributes = (bytes[start + 2] << 8) | bytes[start + 3];
  const is2019 = (attributes & 0x4000) !== 0;
  let p = start + 4;
  let protocolVersion = 0;
  if (is2019) protocolVersion = bytes[p++];
  const idLength = is2019 ? 10 : 6;
  const serialLength = hasShortSerial(messageId) ? 1 : 2;
  const subpackaged = (attributes & 0x2000) !== 0;
  if (p - start + idLength + serialLength + (subpackaged ? 4 : 0) + 1 > length) return 'frame shorter than its header';
  const idOffset = p;
  p += idLength;
  const serial = serialLength === 1 ? bytes[p] : (bytes[p] << 8) | bytes[p + 1];
  p += serialLength;
  let packageTotal = 0;
  let packageIndex = 0;
  if (subpackaged) {
    packageTotal = (bytes[p] << 8) | bytes[p + 1];
    packageIndex = (bytes[p + 2] << 8) | bytes[p + 3];
    p += 4;
  }
  const checksumAt = end - 1;
  return {
    header: {
      messageId,
      attributes,
      bodyLength: attributes & 0x03ff,
      encryption: (attributes >> 10) & 0x07,
      is2019,
      protocolVersion,
      terminalId: terminalIdOf(bytes, idOffset, idLength, cache),
      source: bytes,
      idOffset,
      idLength,
      serial,
      packageTotal,
      packageIndex,
    },
    bytes,
    bodyStart: p,
    bodyEnd: checksumAt,
    checksumOk: xorChecksum(bytes, start, checksumAt) === bytes[checksumAt],
  };
}

export interface Jt808FrameTarget {
  /** Phone/terminal id bytes for the header (6 bytes, or 10 for 2019). */
  idBytes: Uint8Array;
  /** Write a 2019 header (version flag, version byte, 10-byte id). */
  is2019: boolean;
  /** 2019 protocol version byte (1 for JT/T 808-2019). */
  protocolVersion?: number;
}

/** The reply target for a received header: its id bytes (copied) and version. */
export function replyTarget(header: Jt808Header): Jt808FrameTarget {
  return {
    idBytes: header.source.slice(header.idOffset, header.idOffset + header.idLength),
    is2019: header.is2019,
    protocolVersion: header.protocolVersion,
  };
}

// Scratch for assembling a frame before escaping: header (17) + body (≤1023) + checksum.
const scratch = new Uint8Array(1100);

/**
 * Writes an escaped frame: 7E, header, body, XOR, 7E. The id comes from `idSource[idOffset..+idLength]`
 * so replies can copy it straight from the received frame. One allocation: the returned Buffer.
 */
export function writeJt808Frame(
  messageId: number,
  idSource: Uint8Array,
  idOffset: number,
  idLength: number,
  is2019: boolean,
  protocolVersion: number,
  serial: number,
  body: Uint8Array,
): Buffer {
  if (body.length > 0x3ff) throw new RangeError('JT/T 808 body longer than 1023 bytes');
  const raw = scratch;
  let p = 0;
  raw[p++] = messageId >> 8;
  raw[p++] = messageId & 0xff;
  const attributes = body.length | (is2019 ? 0x4000 : 0);
  raw[p++] = attributes >> 8;
  raw[p++] = attributes & 0xff;
  if (is2019) raw[p++] = protocolVersion;
  for (let i = 0; i < idLength; i++) raw[p++] = idSource[idOffset + i];
  raw[p++] = (serial >> 8) & 0xff;
  raw[p++] = serial & 0xff;
  for (let i = 0; i < body.length; i++) raw[p++] = body[i];
  let check = 0;
  let escapes = 0;
  for (let i = 0; i < p; i++) {
    const b = raw[i];
    check ^= b;
    if (b === 0x7e || b === 0x7d) escapes++;
  }
  raw[p++] = check;
  if (check === 0x7e || check === 0x7d) escapes++;
  const out = Buffer.allocUnsafe(p + escapes + 2);
  out[0] = DELIMITER;
  let o = 1;
  for (let i = 0; i < p; i++) {
    const b = raw[i];
    if (b === 0x7e) {
      out[o++] = 0x7d;
      out[o++] = 0x02;
    } else if (b === 0x7d) {
      out[o++] = 0x7d;
      out[o++] = 0x01;
    } else {
      out[o++] = b;
    }
  }
  out[o] = DELIMITER;
  return out;
}

/** Builds an escaped frame ready to send. Bodies over 1023 bytes must be sub-packaged by the caller. */
export function buildJt808Frame(messageId: number, target: Jt808FrameTarget, serial: number, body: Uint8Array): Buffer {
  return writeJt808Frame(
    messageId,
    target.idBytes,
    0,
    target.idBytes.length,
    target.is2019,
    target.protocolVersion ?? 1,
    serial,
    body,
  );
}
