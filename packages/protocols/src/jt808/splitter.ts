import { BufferedSplitter, type SplitterOptions } from '../splitter.ts';

const DELIMITER = 0x7e;
const OPEN = 0x28; // '('
const CLOSE = 0x29; // ')'
const MAX_SENTENCE = 512;

/**
 * Splits a JT/T 808 stream into 7E…7E frames (still escaped, as decodeJt808 expects them) and the
 * "(…)" text sentences some devices send on the same connection.
 *
 * Each frame is cut from a 7E to the next 7E, and that closing 7E is kept as a possible opening of the
 * next frame: back-to-back frames give 7E 7E, which is skipped, while garbage holding a stray 7E comes
 * out as one bad candidate (the decoder reports why) and the real frame after it is still found. A start
 * without an end within maxFrameBytes is dropped, so memory stays bounded.
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

      if (pos + 1 < n && buf[pos + 1] === OPEN) {
        // A closing 7E followed by a text sentence (no message id starts with 0x28).
        this.discarded += 1;
        pos += 1;
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
      // The closing 7E may also open the next frame (devices that share delimiters, or garbage that
      // held a stray 7E before a real frame): keep it. A following 7E 7E is skipped above.
      pos = end;
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
