// JT/T 808 transparency: inside a frame, 0x7E is sent as 7D 02 and 0x7D as 7D 01.

export const DELIMITER = 0x7e;
const ESCAPE = 0x7d;

/**
 * Removes the escaping of bytes [start, end). Returns a view of the input when nothing is escaped
 * (the common case, no copy). A 7D followed by anything but 01/02 is kept as is.
 */
export function unescapeJt808(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  let i = start;
  while (i < end && bytes[i] !== ESCAPE) i++;
  if (i === end) return bytes.subarray(start, end);
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, i), 0);
  let o = i - start;
  while (i < end) {
    const b = bytes[i++];
    if (b === ESCAPE && i < end) {
      const next = bytes[i];
      if (next === 0x02) {
        out[o++] = DELIMITER;
        i++;
        continue;
      }
      if (next === 0x01) {
        out[o++] = ESCAPE;
        i++;
        continue;
      }
    }
    out[o++] = b;
  }
  return out.subarray(0, o);
}

/**
 * Un-escapes bytes [start, end) into `target` (at least end - start long); returns the length written.
 */
export function unescapeJt808Into(bytes: Uint8Array, start: number, end: number, target: Uint8Array): number {
  let o = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b === ESCAPE && i + 1 < end) {
      const next = bytes[i + 1];
      if (next === 0x02) {
        target[o++] = DELIMITER;
        i++;
        continue;
      }
      if (next === 0x01) {
        target[o++] = ESCAPE;
        i++;
        continue;
      }
    }
    target[o++] = b;
  }
  return o;
}

/** Escapes a complete frame: the first and last bytes stay as delimiters, everything between is escaped. */
export function escapeJt808Frame(frame: Uint8Array): Buffer {
  let extra = 0;
  for (let i = 1; i < frame.length - 1; i++) {
    const b = frame[i];
    if (b === DELIMITER || b === ESCAPE) extra++;
  }
  const out = Buffer.allocUnsafe(frame.length + extra);
  out[0] = frame[0];
  let o = 1;
  for (let i = 1; i < frame.length - 1; i++) {
    const b = frame[i];
    if (b === DELIMITER) {
      out[o++] = ESCAPE;
      out[o++] = 0x02;
    } else if (b === ESCAPE) {
      out[o++] = ESCAPE;
      out[o++] = 0x01;
    } else {
      out[o++] = b;
    }
  }
  out[o] = frame[frame.length - 1];
  return out;
}
