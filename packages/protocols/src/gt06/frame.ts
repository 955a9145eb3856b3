import { crcX25 } from '../checksum.ts';

// GT06 frame: 7878 | length(1) | protocol(1) | content | serial(2) | crc(2) | 0D0A
//          or 7979 | length(2) | protocol(1) | content | serial(2) | crc(2) | 0D0A
// length counts protocol..crc; the CRC-ITU covers length..serial.

export const START_SHORT = 0x78;
export const START_LONG = 0x79;

/**
 * Where the parts of one frame are. A frame is "regular" when its length field matches its size; some
 * devices send frames whose length field is wrong or that lack serial/CRC/0D0A. Those are read
 * positionally up to the end of the frame (content may then run into the serial/CRC bytes), with the
 * serial and CRC taken from the end, as devices and the reference server do.
 */
export interface Gt06FrameLayout {
  extended: boolean;
  type: number;
  /** First content byte (after the protocol number). */
  contentStart: number;
  /** End of content (exclusive). */
  contentEnd: number;
  /** The length field as sent. */
  declaredLength: number;
  regular: boolean;
  serial: number;
  checksumOk: boolean;
}

/** Reads the frame layout, or returns an error text if the bytes are not a GT06 frame. */
export function readGt06Layout(frame: Uint8Array): Gt06FrameLayout | string {
  const n = frame.length;
  if (n < 5) return 'frame shorter than 5 bytes';
  const b0 = frame[0];
  if (b0 !== frame[1] || (b0 !== START_SHORT && b0 !== START_LONG)) return 'frame does not start with 7878 or 7979';
  const extended = b0 === START_LONG;
  const headerLength = extended ? 4 : 3;
  if (n < headerLength + 1) return 'frame has no protocol number';
  const declaredLength = extended ? (frame[2] << 8) | frame[3] : frame[2];
  const type = frame[headerLength];
  const contentStart = headerLength + 1;
  const hasTrailer = frame[n - 2] === 0x0d && frame[n - 1] === 0x0a;
  const end = hasTrailer ? n - 2 : n;
  const regular = hasTrailer && headerLength + declaredLength + 2 === n;
  if (end - contentStart < 4) {
    // No room for serial and CRC (e.g. 787801080D0A).
    return {
      extended,
      type,
      contentStart,
      contentEnd: Math.max(end, contentStart),
      declaredLength,
      regular,
      serial: 0,
      checksumOk: false,
    };
  }
  const crcAt = end - 2;
  const serialAt = end - 4;
  return {
    extended,
    type,
    contentStart,
    contentEnd: regular ? serialAt : end,
    declaredLength,
    regular,
    serial: (frame[serialAt] << 8) | frame[serialAt + 1],
    checksumOk: crcX25(frame, 2, crcAt) === ((frame[crcAt] << 8) | frame[crcAt + 1]),
  };
}

/** Builds a complete frame: header, length, protocol, content, serial, CRC, 0D0A. */
export function buildGt06Frame(type: number, serial: number, content: Uint8Array | null, extended = false): Buffer {
  const contentLength = content ? content.length : 0;
  const length = 5 + contentLength; // protocol + content + serial + crc
  const headerLength = extended ? 4 : 3;
  const out = Buffer.allocUnsafe(headerLength + length + 2);
  out[0] = extended ? START_LONG : START_SHORT;
  out[1] = out[0];
  if (extended) {
    out[2] = (length >> 8) & 0xff;
    out[3] = length & 0xff;
  } else {
    out[2] = length & 0xff;
  }
  let p = headerLength;
  out[p++] = type;
  if (content) {
    out.set(content, p);
    p += contentLength;
  }
  out[p++] = (serial >> 8) & 0xff;
  out[p++] = serial & 0xff;
  const crc = crcX25(out, 2, p);
  out[p++] = crc >> 8;
  out[p++] = crc & 0xff;
  out[p++] = 0x0d;
  out[p] = 0x0a;
  return out;
}
