/** Cuts a TCP byte stream into frames. One instance per connection. */
export interface FrameSplitter {
  /**
   * Appends a chunk and returns the complete frames found, in order. Frames are views: they may share
   * memory with the chunk (copy them if you reuse the chunk's memory). Partial data is kept for the next
   * call; bytes that cannot start a frame are dropped and counted in discardedBytes.
   */
  push(chunk: Uint8Array): Buffer[];
  /** Bytes held back waiting for the rest of a frame (never more than the configured limit). */
  readonly bufferedBytes: number;
  /** Bytes dropped so far because they were not part of any frame. */
  readonly discardedBytes: number;
  /** Forgets buffered data (e.g. after the connection is re-used). */
  reset(): void;
}

export interface SplitterOptions {
  /** Largest frame accepted; a longer candidate is treated as garbage. */
  maxFrameBytes?: number;
}

/** Shared bookkeeping: pending bytes between pushes and the discarded-byte counter. */
export abstract class BufferedSplitter implements FrameSplitter {
  protected pending: Buffer | null = null;
  protected discarded = 0;
  protected readonly maxFrameBytes: number;

  constructor(maxFrameBytes: number) {
    this.maxFrameBytes = maxFrameBytes;
  }

  get bufferedBytes(): number {
    return this.pending ? this.pending.length : 0;
  }

  get discardedBytes(): number {
    return this.discarded;
  }

  reset(): void {
    this.pending = null;
  }

  push(chunk: Uint8Array): Buffer[] {
    const input = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buf = this.pending ? Buffer.concat([this.pending, input]) : input;
    const frames: Buffer[] = [];
    const consumed = this.split(buf, frames);
    const left = buf.length - consumed;
    // Keep a copy of the tail, so the caller may reuse its chunk; the tail is bounded by split().
    this.pending = left > 0 ? Buffer.from(buf.subarray(consumed)) : null;
    return frames;
  }

  /** Finds frames in buf, appends them, and returns how many bytes were consumed (frames and garbage). */
  protected abstract split(buf: Buffer, frames: Buffer[]): number;
}
