import { BufferedSplitter, type SplitterOptions } from '../splitter.ts';

const DELIMITER = 0x7e;
const OPEN = 0x28; // '('
const CLOSE = 0x29; // ')'
const MAX_SENTENCE = 512;

/**
 * Splits a JT/T 808 stream into 7E…7E frames (still escaped, as decodeJt808 expects them) and the
 * "(…)" text sentences some devices send on the same connection.
 *
 * Each frame has its own opening and closing 7E. When the bytes between two 7E are not a plausible
 * message (bad checksum and length), the candidate is still returned (the decoder reports why) but its
 * closing 7E is re-used as the opening of the next frame, so a frame that follows garbage containing a
 * stray 7E is not lost. A start without an end within maxFrameBytes is dropped (bounded memory).
 */
export class Jt808Splitter extends BufferedSplitter {
  constructor(options: SplitterOptions = {}) {
    super(options.maxFrameBytes ?? 4096);
  }

  protected split(buf: Buffer, frames: Buffer[]): number {
    const n = buf.length;
    let pos = 0;
    while (pos < n) {
      let start = pos;
      while (start < n && buf[start] !== DELIMITER && buf[start] !== OPEN) start++;
      this.discarded += start - pos;
      pos = start;
      if (pos >= n) return n;

      if (buf[pos] === OPEN) {
        const close = this.sentenceEnd(buf, pos);
        if (close > 0) {
          frames.push(buf.subarray(pos, close + 1));
          pos = close + 1;
        } else if (close === 0) {
          return pos; // wait for the rest of the sentence
        } else {
          this.discarded += 1;
          pos += 1;
        }
        continue;
      }

      const end = buf.indexOf(DELIMITER, pos + 1);
      if (end < 0) {
        if (n - pos > this.maxFrameBytes) {
          this.discarded += 1;
          pos += 1;
          continue;
        }
        return pos; // wait for the closing 7E
      }
      if (end === pos + 1) {
        // 7E 7E: the first one closed something we never saw.
        this.discarded += 1;
        pos = end;
        continue;
      }
      if (end - pos + 1 > this.maxFrameBytes) {
        this.discarded += end - pos;
        pos = end;
        continue;
      }
      frames.push(buf.subarray(pos, end + 1));
      pos = isPlausible(buf, pos, end) ? end + 1 : end;
    }
    return pos;
  }

  /** Index of the ')' closing a printable sentence at `at`; 0 if not complete yet; -1 if not a sentence. */
  private sentenceEnd(buf: Buffer, at: number): number {
    const limit = Math.min(buf.length, at + MAX_SENTENCE);
    for (let i = at + 1; i < limit; i++) {
      const b = buf[i];
      if (b === CLOSE) return i;
      if (b < 0x20 || b > 0x7e) return -1;
    }
    return limit - at >= MAX_SENTENCE ? -1 : 0;
  }
}

/**
 * Whether buf[start..end] (7E…7E) looks like a real message: its XOR check matches, or its body length
 * agrees with the header. Un-escapes on the fly, without allocating.
 */
function isPlausible(buf: Buffer, start: number, end: number): boolean {
  let xor = 0;
  let count = 0;
  let previous = -1;
  let id = 0;
  let attributes = 0;
  for (let i = start + 1; i < end; i++) {
    let b = buf[i];
    if (b === 0x7d && i + 1 < end) {
      const next = buf[i + 1];
      if (next === 0x02) {
        b = 0x7e;
        i++;
      } else if (next === 0x01) {
        i++;
      }
    }
    if (count < 2) id = (id << 8) | b;
    else if (count < 4) attributes = (attributes << 8) | b;
    if (previous >= 0) xor ^= previous;
    previous = b;
    count++;
  }
  if (count < 13) return false;
  if (xor === previous) return true;
  if ((attributes & 0x2000) !== 0) return false;
  const serialLength = id === 0x5501 || id === 0x5502 ? 1 : 2;
  const headerLength = (attributes & 0x4000) !== 0 ? 4 + 1 + 10 + serialLength : 4 + 6 + serialLength;
  return count - 1 - headerLength === (attributes & 0x03ff);
}
