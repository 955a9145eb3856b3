import { xorChecksum } from '../checksum.ts';
import { DELIMITER, escapeJt808Frame, unescapeJt808 } from './escape.ts';
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
  /** The phone/terminal id bytes as sent, echoed in replies. */
  idBytes: Uint8Array;
  terminalId: string;
  serial: number;
  /** Sub-package: total parts and this part's index (1-based); 0 when not sub-packaged. */
  packageTotal: number;
  packageIndex: number;
}

export interface Jt808Unpacked {
  header: Jt808Header;
  /** Unescaped header + body + checksum. */
  bytes: Uint8Array;
  bodyStart: number;
  bodyEnd: number;
  checksumOk: boolean;
}

/** Vendor messages (JT701 locks) whose serial number is one byte. */
function hasShortSerial(messageId: number): boolean {
  return messageId === 0x5501 || messageId === 0x5502;
}

/** Unescapes and reads the header of a complete 7E…7E frame; returns an error text when it is not one. */
export function unpackJt808(frame: Uint8Array): Jt808Unpacked | string {
  const n = frame.length;
  if (n < 2 || frame[0] !== DELIMITER || frame[n - 1] !== DELIMITER) return 'frame is not delimited by 7E';
  const unescaped = unescapeJt808(frame, 1, n - 1);
  const escapedForm = unpackBytes(unescaped);
  if (unescaped.length === n - 2 || (typeof escapedForm !== 'string' && isConsistent(escapedForm))) return escapedForm;
  // The frame holds 7D bytes, yet un-escaping it breaks the checksum and the length field: it was
  // captured already un-escaped (as logs and test vectors often are). Read it as it is.
  const rawForm = unpackBytes(frame.subarray(1, n - 1));
  return typeof rawForm !== 'string' && isConsistent(rawForm) ? rawForm : escapedForm;
}

function isConsistent(unpacked: Jt808Unpacked): boolean {
  const header = unpacked.header;
  return (
    unpacked.checksumOk || (header.packageTotal === 0 && unpacked.bodyEnd - unpacked.bodyStart === header.bodyLength)
  );
}

function unpackBytes(bytes: Uint8Array): Jt808Unpacked | string {
  const length = bytes.length;
  if (length < 13) return 'frame shorter than a JT/T 808 header';
  const messageId = (bytes[0] << 8) | bytes[1];
  const attributes = (bytes[2] << 8) | bytes[3];
  const is2019 = (attributes & 0x4000) !== 0;
  let p = 4;
  let protocolVersion = 0;
  if (is2019) protocolVersion = bytes[p++];
  const idLength = is2019 ? 10 : 6;
  const serialLength = hasShortSerial(messageId) ? 1 : 2;
  const subpackaged = (attributes & 0x2000) !== 0;
  const headerLength = p + idLength + serialLength + (subpackaged ? 4 : 0);
  if (headerLength + 1 > length) return 'frame shorter than its header';
  const idBytes = bytes.subarray(p, p + idLength);
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
  const checksumAt = length - 1;
  return {
    header: {
      messageId,
      attributes,
      bodyLength: attributes & 0x03ff,
      encryption: (attributes >> 10) & 0x07,
      is2019,
      protocolVersion,
      idBytes,
      terminalId: decodeTerminalId(idBytes),
      serial,
      packageTotal,
      packageIndex,
    },
    bytes,
    bodyStart: p,
    bodyEnd: checksumAt,
    checksumOk: xorChecksum(bytes, 0, checksumAt) === bytes[checksumAt],
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

/** Builds an escaped frame ready to send. Bodies over 1023 bytes must be sub-packaged by the caller. */
export function buildJt808Frame(messageId: number, target: Jt808FrameTarget, serial: number, body: Uint8Array): Buffer {
  if (body.length > 0x3ff) throw new RangeError('JT/T 808 body longer than 1023 bytes');
  const headerLength = target.is2019 ? 5 + target.idBytes.length + 2 : 4 + target.idBytes.length + 2;
  const raw = new Uint8Array(1 + headerLength + body.length + 2);
  raw[0] = DELIMITER;
  raw[1] = messageId >> 8;
  raw[2] = messageId & 0xff;
  const attributes = body.length | (target.is2019 ? 0x4000 : 0);
  raw[3] = attributes >> 8;
  raw[4] = attributes & 0xff;
  let p = 5;
  if (target.is2019) raw[p++] = target.protocolVersion ?? 1;
  raw.set(target.idBytes, p);
  p += target.idBytes.length;
  raw[p++] = (serial >> 8) & 0xff;
  raw[p++] = serial & 0xff;
  raw.set(body, p);
  p += body.length;
  raw[p] = xorChecksum(raw, 1, p);
  raw[p + 1] = DELIMITER;
  return escapeJt808Frame(raw);
}
