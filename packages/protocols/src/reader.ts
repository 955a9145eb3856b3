import { DecodeError } from './errors.ts';

interface TextDecoding {
  decode(bytes: Uint8Array): string;
}

// Fallback when the runtime has no GBK decoder (WHATWG "latin1" is windows-1252).
const latin1: TextDecoding = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');
const utf16be = new TextDecoder('utf-16be');
let gbk: TextDecoding | null = null;

/** GBK/GB18030 text (JT/T 808 strings); falls back to latin1 if the runtime lacks the encoding. */
function gbkDecoder(): TextDecoding {
  if (gbk === null) {
    try {
      gbk = new TextDecoder('gb18030');
    } catch {
      gbk = latin1;
    }
  }
  return gbk;
}

export type TextEncoding = 'ascii' | 'utf8' | 'utf16be' | 'gbk';

/**
 * Big-endian cursor over a byte range with bounds checks. Every read past `end` throws a DecodeError
 * ('truncated'), which the decoders turn into an error value.
 */
export class ByteReader {
  readonly buf: Uint8Array;
  pos: number;
  end: number;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  need(count: number, what = 'field'): void {
    if (count < 0 || this.pos + count > this.end) {
      throw new DecodeError(
        'truncated',
        `frame ends inside ${what} (need ${count} bytes at ${this.pos}, have ${this.end - this.pos})`,
      );
    }
  }

  u8(): number {
    if (this.pos >= this.end) this.need(1);
    return this.buf[this.pos++];
  }

  i8(): number {
    const v = this.u8();
    return v > 127 ? v - 256 : v;
  }

  u16(): number {
    if (this.pos + 2 > this.end) this.need(2);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 2;
    return (b[p] << 8) | b[p + 1];
  }

  i16(): number {
    const v = this.u16();
    return v > 0x7fff ? v - 0x10000 : v;
  }

  u24(): number {
    if (this.pos + 3 > this.end) this.need(3);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 3;
    return (b[p] << 16) | (b[p + 1] << 8) | b[p + 2];
  }

  u32(): number {
    if (this.pos + 4 > this.end) this.need(4);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]);
  }

  i32(): number {
    const v = this.u32();
    return v > 0x7fffffff ? v - 0x100000000 : v;
  }

  u32le(): number {
    if (this.pos + 4 > this.end) this.need(4);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return b[p + 3] * 0x1000000 + ((b[p + 2] << 16) | (b[p + 1] << 8) | b[p]);
  }

  /** Unsigned 64-bit value as a number (exact up to 2^53). */
  u64(): number {
    const high = this.u32();
    return high * 0x100000000 + this.u32();
  }

  skip(count: number): void {
    this.need(count);
    this.pos += count;
  }

  /** A view (no copy) of the next `count` bytes. */
  bytes(count: number): Uint8Array {
    this.need(count);
    const view = this.buf.subarray(this.pos, this.pos + count);
    this.pos += count;
    return view;
  }

  hex(count: number): string {
    return toHex(this.bytes(count));
  }

  text(count: number, encoding: TextEncoding = 'ascii'): string {
    return decodeText(this.bytes(count), encoding);
  }

  peek(offset = 0): number {
    const p = this.pos + offset;
    if (p >= this.end) this.need(offset + 1);
    return this.buf[p];
  }

  /** A reader over the next `count` bytes; this reader moves past them. */
  sub(count: number): ByteReader {
    this.need(count);
    const reader = new ByteReader(this.buf, this.pos, this.pos + count);
    this.pos += count;
    return reader;
  }
}

export function decodeText(bytes: Uint8Array, encoding: TextEncoding = 'ascii'): string {
  switch (encoding) {
    case 'utf8':
      return utf8.decode(bytes);
    case 'utf16be':
      return utf16be.decode(bytes);
    case 'gbk':
      return gbkDecoder().decode(bytes);
    default:
      return latin1Text(bytes);
  }
}

/** One character per byte (ISO-8859-1), as devices mean their "ASCII" fields. */
function latin1Text(bytes: Uint8Array): string {
  if (bytes.length > 64) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

/** Trims every control character and space from both ends (devices pad with NUL and other bytes). */
export function trimControl(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === text.length ? text : text.substring(start, end);
}

const HEX_DIGITS = '0123456789abcdef';

/** Lower-case hex of the bytes (never used on the location hot path). */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    out += HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15];
  }
  return out;
}

/** Parses hex (whitespace allowed); returns null if it is not an even-length hex string. */
export function fromHex(text: string): Buffer | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  return Buffer.from(clean, 'hex');
}

/** True if every byte is printable ASCII (or CR/LF/TAB). */
export function isPrintable(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b < 0x20 || b > 0x7e) && b !== 0x0d && b !== 0x0a && b !== 0x09) return false;
  }
  return true;
}
