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
 * next frame. Devices send frames either with their own flags (7E…7E 7E…7E) or sharing one flag between
 * two frames (7E…7E…7E); both give the same frames and neither counts as discarded: a closing 7E that
 * turns out not to open anything (it is followed by another 7E or by a "(" sentence) is dropped without
 * being counted. Garbage holding a stray 7E comes out as one bad candidate (the decoder reports why) and the
 * real frame after it is still found. A start without an end within maxFrameBytes is dropped, so memory
 * stays bounded.
 */
export class Jt808Splitter extends BufferedSplitter {
  /** The first held byte is the 7E that closed the last frame returned (not garbage if it opens nothing). */
  private heldClosingFlag = false;

  constructor(options: SplitterOptions = {}) {
    super(options.maxFrameBytes ?? 4096);
  }

  override reset(): void {
    super.reset();
    this.heldClosingFlag = false;
  }

  protected split(buf: Buffer, frames: Buffer[]): number {
    const n = buf.length;
    let pos = 0;
    // Index of the 7E that closed the last frame returned, or -1.
    let closing = this.heldClosingFlag ? 0 : -1;
    while (pos < n) {
      let start = pos;
      while (start < n && buf[start] !== DELIMITER && buf[start] !== OPEN) start++;
      this.discarded += start - pos;
      pos = start;
      if (pos >= n) break;

      if (buf[pos] === OPEN) {
        const close = this.sentenceEnd(buf, pos);
        if (close > 0) {
          frames.push(buf.subarray(pos, close + 1));
          pos = close + 1;
        } else if (close === 0) {
          break; // wait for the rest of the sentence
        } else {
          this.discarded += 1;
          pos += 1;
        }
        continue;
      }

      // A 7E that closed the previous frame is not garbage when it turns out to open nothing.
      const garbageFlag = pos === closing ? 0 : 1;
      if (pos + 1 < n && buf[pos + 1] === OPEN) {
        // A closing 7E followed by a text sentence (no message id starts with 0x28).
        this.discarded += garbageFlag;
        pos += 1;
        continue;
      }
      const end = buf.indexOf(DELIMITER, pos + 1);
      if (end < 0) {
        if (n - pos > this.maxFrameBytes) {
          this.discarded += garbageFlag;
          pos += 1;
          continue;
        }
        break; // wait for the closing 7E
      }
      if (end === pos + 1) {
        // 7E 7E: back-to-back frames (the first closed the previous frame), or the end of an unseen frame.
        this.discarded += garbageFlag;
        pos = end;
        continue;
      }
      if (end - pos + 1 > this.maxFrameBytes) {
        this.discarded += end - pos - 1 + garbageFlag;
        pos = end;
        continue;
      }
      frames.push(buf.subarray(pos, end + 1));
      // The closing 7E may also open the next frame (devices that share delimiters, or garbage that
      // held a stray 7E before a real frame): keep it.
      pos = end;
      closing = end;
    }
    this.heldClosingFlag = pos < n && pos === closing;
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
