import { crcX25 } from '../checksum.ts';
import { BufferedSplitter, type SplitterOptions } from '../splitter.ts';

const CR = 0x0d;
const LF = 0x0a;

function isHeaderAt(buf: Buffer, i: number): boolean {
  const b = buf[i];
  return (b === 0x78 || b === 0x79) && buf[i + 1] === b;
}

/** Frame size announced by the length field at `at`, or -1 if the length field is not complete yet. */
function declaredSize(buf: Buffer, at: number): number {
  if (buf[at] === 0x78) return at + 2 < buf.length ? buf[at + 2] + 5 : -1;
  return at + 3 < buf.length ? ((buf[at + 2] << 8) | buf[at + 3]) + 6 : -1;
}

/**
 * Splits a GT06 stream into 7878/7979 … 0D0A frames.
 *
 * A frame normally ends where its length field says, with 0D0A. Some packets do not follow their length
 * field (WiFi packets 0x17/0x69 put a count there; some devices send wrong lengths or no CRC); those end
 * at the first 0D0A. Garbage before a header is dropped; a header whose frame never completes is given
 * up when a well-formed frame (right length, 0D0A, valid CRC) follows it or when the buffered data
 * exceeds twice maxFrameBytes, so memory stays bounded.
 */
export class Gt06Splitter extends BufferedSplitter {
  constructor(options: SplitterOptions = {}) {
    super(options.maxFrameBytes ?? 4096);
  }

  protected split(buf: Buffer, frames: Buffer[]): number {
    const n = buf.length;
    let pos = 0;
    while (pos < n) {
      const h = this.findHeader(buf, pos);
      if (h < 0) {
        // Keep a last 0x78/0x79: it may be the first half of a header.
        const keep = buf[n - 1] === 0x78 || buf[n - 1] === 0x79 ? 1 : 0;
        this.discarded += n - keep - pos;
        return n - keep;
      }
      this.discarded += h - pos;
      pos = h;
      const size = declaredSize(buf, pos);
      if (size < 0) return pos; // length field not complete yet
      const end = pos + size;
      if (end <= n && buf[end - 2] === CR && buf[end - 1] === LF && size <= this.maxFrameBytes) {
        const inner = this.hiddenFrame(buf, pos, end);
        if (inner > 0) {
          this.discarded += inner - pos;
          pos = inner;
          continue;
        }
        frames.push(buf.subarray(pos, end));
        pos = end;
        continue;
      }
      const verdict = this.irregular(buf, pos, size);
      if (verdict > 0) {
        frames.push(buf.subarray(pos, verdict));
        pos = verdict;
      } else if (verdict < 0) {
        // Not a frame start after all: drop this header byte and look again.
        this.discarded += 1;
        pos += 1;
      } else {
        // Wait for more data, unless too much is held already.
        if (n - pos > 2 * this.maxFrameBytes) {
          this.discarded += 1;
          pos += 1;
          continue;
        }
        return pos;
      }
    }
    return pos;
  }

  /**
   * A candidate that looks complete may be garbage whose length field happens to reach the end of a real
   * frame inside it. Only when a header appears inside and the candidate's own CRC is wrong, returns the
   * inner well-formed frame's start; otherwise 0.
   */
  private hiddenFrame(buf: Buffer, pos: number, end: number): number {
    let inside = false;
    for (let i = pos + 2; i < end - 6; i++) {
      const b = buf[i];
      if ((b === 0x78 || b === 0x79) && buf[i + 1] === b) {
        inside = true;
        break;
      }
    }
    if (!inside) return 0;
    if (crcX25(buf, pos + 2, end - 4) === ((buf[end - 4] << 8) | buf[end - 3])) return 0;
    const next = this.nextWellFormedFrame(buf, pos + 1, end);
    return next > 0 ? next : 0;
  }

  private findHeader(buf: Buffer, from: number): number {
    const last = buf.length - 1;
    for (let i = from; i < last; i++) {
      const b = buf[i];
      if ((b === 0x78 || b === 0x79) && buf[i + 1] === b) return i;
    }
    return -1;
  }

  /**
   * The frame at `pos` does not end where its length says (or is not complete yet).
   * Returns the end of an irregular frame, 0 to wait for more data, or -1 to give up this header.
   */
  private irregular(buf: Buffer, pos: number, size: number): number {
    const n = buf.length;
    const limit = Math.min(n, pos + this.maxFrameBytes);
    let crlf = -1;
    for (let i = pos + (buf[pos] === 0x78 ? 4 : 5); i + 1 < limit; i++) {
      if (buf[i] === CR && buf[i + 1] === LF) {
        crlf = i;
        break;
      }
    }
    // A well-formed frame (right length, 0D0A, valid CRC) later in the buffer settles this header now
    // instead of waiting for data that would complete its (probably bogus) length.
    const next = this.nextWellFormedFrame(buf, pos + 1, limit);
    if (next >= 0 && (crlf < 0 || next < crlf)) return -1; // a proper frame starts inside: this was garbage
    if (crlf >= 0) {
      const end = crlf + 2;
      const complete = pos + size <= n || end === n || isHeaderAt(buf, end) || next >= end;
      if (complete) return end;
    }
    if (size > this.maxFrameBytes || n - pos >= this.maxFrameBytes) return -1;
    return 0;
  }

  /** First header in [from, to) whose frame is complete, 0D0A-terminated and has a valid CRC; -1 if none. */
  private nextWellFormedFrame(buf: Buffer, from: number, to: number): number {
    for (let k = from; k < to - 1; k++) {
      if (!isHeaderAt(buf, k)) continue;
      const size = declaredSize(buf, k);
      if (size < 10 || k + size > buf.length) continue;
      const end = k + size;
      if (buf[end - 2] !== CR || buf[end - 1] !== LF) continue;
      const crcAt = end - 4;
      if (crcX25(buf, k + 2, crcAt) === ((buf[crcAt] << 8) | buf[crcAt + 1])) return k;
    }
    return -1;
  }
}
