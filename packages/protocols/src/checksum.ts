// Checksums used by the protocols: CRC-ITU (CRC-16/X-25) for GT06 and XOR for JT/T 808.

const X25_TABLE = buildX25Table();

function buildX25Table(): Uint16Array {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    table[n] = c;
  }
  return table;
}

/** CRC-16/X-25 (GT06's "CRC-ITU"): reflected poly 0x1021, init 0xFFFF, final xor 0xFFFF. */
export function crcX25(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ X25_TABLE[(crc ^ bytes[i]) & 0xff];
  return ~crc & 0xffff;
}

/** XOR of the bytes in [start, end). */
export function xorChecksum(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= bytes[i];
  return x;
}
