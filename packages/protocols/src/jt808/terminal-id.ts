import { toHex } from '../reader.ts';

/** Luhn check digit of a number given as digits. */
export function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The terminal id from the header's BCD phone field. Some devices put the IMEI there as a 48-bit
 * binary number instead of BCD; that is recognised (non-decimal nibbles) and returned as the 15-digit
 * IMEI with its Luhn digit.
 */
export function decodeTerminalId(bytes: Uint8Array): string {
  const hex = toHex(bytes);
  if (/^[0-9]+$/.test(hex)) return hex;
  if (bytes.length >= 6) {
    const high = (bytes[0] << 8) | bytes[1];
    const low = bytes[2] * 0x1000000 + ((bytes[3] << 16) | (bytes[4] << 8) | bytes[5]);
    const imei = String(high * 0x100000000 + low);
    return imei + luhnDigit(imei);
  }
  return hex;
}

/**
 * Encodes a terminal id for a header: BCD, left-padded with zeros to `length` bytes (6 for 2011/2013,
 * 10 for 2019). A 15-digit IMEI that cannot fit in 6 BCD bytes is sent as the 48-bit number of its first
 * 14 digits, the form such devices use.
 */
export function encodeTerminalId(terminalId: string, length: number): Uint8Array {
  const digits = terminalId.replace(/\D/g, '');
  const out = new Uint8Array(length);
  if (digits.length > length * 2 && digits.length === 15 && length === 6) {
    const value = Number(digits.slice(0, 14));
    const high = Math.floor(value / 0x100000000);
    const low = value % 0x100000000;
    out[0] = (high >> 8) & 0xff;
    out[1] = high & 0xff;
    out[2] = (low >>> 24) & 0xff;
    out[3] = (low >>> 16) & 0xff;
    out[4] = (low >>> 8) & 0xff;
    out[5] = low & 0xff;
    return out;
  }
  const padded = digits.slice(-length * 2).padStart(length * 2, '0');
  for (let i = 0; i < length; i++) {
    out[i] = ((padded.charCodeAt(2 * i) - 48) << 4) | (padded.charCodeAt(2 * i + 1) - 48);
  }
  return out;
}
