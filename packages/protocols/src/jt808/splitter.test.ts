import { describe, expect, it } from 'vitest';
import { createJt808Context } from './context.ts';
import { decodeJt808 } from './decoder.ts';
import { jt808Target } from './encoder.ts';
import { buildJt808Frame } from './frame.ts';
import { Jt808Splitter } from './splitter.ts';

const hex = (text: string) => Buffer.from(text, 'hex');
const terminal = jt808Target('013912345678', '2013');
const heartbeat = buildJt808Frame(0x0002, terminal, 1, Buffer.alloc(0));
const escaped = buildJt808Frame(0x0002, terminal, 0x7e7d, Buffer.alloc(0)); // serial needs escaping
const sentence = Buffer.from('(740190311185,1,001,ELOCK,3,529439)', 'ascii');

function all(splitter: Jt808Splitter, chunks: Buffer[]): string[] {
  return chunks.flatMap((c) => splitter.push(c)).map((f) => f.toString('hex'));
}

describe('Jt808Splitter', () => {
  it('returns escaped frames and text sentences in order', () => {
    expect(escaped.includes(0x7d)).toBe(true);
    const frames = all(new Jt808Splitter(), [Buffer.concat([heartbeat, escaped, sentence, heartbeat])]);
    expect(frames).toEqual([heartbeat, escaped, sentence, heartbeat].map((f) => f.toString('hex')));
  });

  it('keeps partial data between pushes (byte by byte)', () => {
    const stream = Buffer.concat([escaped, sentence, heartbeat]);
    const splitter = new Jt808Splitter();
    expect(
      all(
        splitter,
        [...stream].map((b) => Buffer.from([b])),
      ),
    ).toEqual([escaped, sentence, heartbeat].map((f) => f.toString('hex')));
    expect(splitter.bufferedBytes).toBe(1); // the last closing 7E, kept as a possible opening
  });

  it('finds a frame that follows garbage containing a stray 7E', () => {
    const splitter = new Jt808Splitter();
    const frames = splitter.push(Buffer.concat([hex('2424aa7e0102030405'), heartbeat]));
    // The garbage between the stray 7E and the frame comes out as one bad candidate, then the real frame.
    const ctx = createJt808Context();
    const results = frames.map((f) => decodeJt808(f, ctx));
    expect(results.at(-1)?.ok).toBe(true);
    expect(frames.at(-1)?.toString('hex')).toBe(heartbeat.toString('hex'));
    expect(results.slice(0, -1).every((r) => !r.ok)).toBe(true);
  });

  it('treats 7E 7E as the end of an unseen frame followed by a start', () => {
    const splitter = new Jt808Splitter();
    expect(all(splitter, [Buffer.concat([hex('7e'), heartbeat])])).toEqual([heartbeat.toString('hex')]);
    expect(splitter.discardedBytes).toBe(1);
  });

  describe('back-to-back frames', () => {
    const location = buildJt808Frame(0x0200, terminal, 2, Buffer.alloc(28, 0x7e)); // body bytes all escaped
    const frames = [heartbeat, escaped, location, heartbeat];
    const expected = frames.map((f) => f.toString('hex'));
    // 7E…7E 7E…7E: each frame has its own flags.
    const ownFlags = Buffer.concat(frames);
    // 7E…7E…7E: consecutive frames share one flag.
    const shared = Buffer.concat(frames.map((f, i) => (i === 0 ? f : f.subarray(1))));
    // Both ways mixed, with a text sentence after a closing flag.
    const mixed = Buffer.concat([heartbeat, escaped.subarray(1), location, sentence, heartbeat.subarray(0)]);
    const mixedExpected = [heartbeat, escaped, location, sentence, heartbeat].map((f) => f.toString('hex'));

    const streams: [string, Buffer, string[]][] = [
      ['own flags (7E…7E 7E…7E)', ownFlags, expected],
      ['a shared flag (7E…7E…7E)', shared, expected],
      ['own and shared flags with a sentence', mixed, mixedExpected],
    ];

    it.each(streams)('%s: whole stream, no discarded bytes', (_name, stream, want) => {
      const splitter = new Jt808Splitter();
      expect(all(splitter, [stream])).toEqual(want);
      expect(splitter.discardedBytes).toBe(0);
    });

    it.each(streams)('%s: cut into two chunks at every offset', (_name, stream, want) => {
      for (let cut = 0; cut <= stream.length; cut++) {
        const splitter = new Jt808Splitter();
        const got = all(splitter, [stream.subarray(0, cut), stream.subarray(cut)]);
        expect({ cut, got, discarded: splitter.discardedBytes }).toEqual({ cut, got: want, discarded: 0 });
      }
    });

    it.each(streams)('%s: cut into three chunks at every pair of offsets', (_name, stream, want) => {
      for (let a = 0; a <= stream.length; a++) {
        for (let b = a; b <= stream.length; b++) {
          const splitter = new Jt808Splitter();
          const got = all(splitter, [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)]);
          if (got.length !== want.length || got.some((f, i) => f !== want[i]) || splitter.discardedBytes !== 0) {
            expect({ a, b, got, discarded: splitter.discardedBytes }).toEqual({ a, b, got: want, discarded: 0 });
          }
        }
      }
    });

    it.each(streams)('%s: byte by byte', (_name, stream, want) => {
      const splitter = new Jt808Splitter();
      expect(
        all(
          splitter,
          [...stream].map((b) => Buffer.from([b])),
        ),
      ).toEqual(want);
      expect(splitter.discardedBytes).toBe(0);
    });

    it('frames from both streams decode', () => {
      const ctx = createJt808Context();
      for (const stream of [ownFlags, shared]) {
        const results = new Jt808Splitter().push(stream).map((f) => decodeJt808(f, ctx));
        expect(results.map((r) => (r.ok ? r.message.messageId : r.error.code))).toEqual([2, 2, 0x200, 2]);
      }
    });

    it('still counts real garbage between back-to-back frames, and a lone 7E before the first', () => {
      const splitter = new Jt808Splitter();
      const stream = Buffer.concat([hex('7e'), heartbeat, hex('0d0a2424'), heartbeat, heartbeat]);
      const frames = all(splitter, [stream]);
      expect(frames.at(0)).toBe(heartbeat.toString('hex'));
      expect(frames.slice(-2)).toEqual([heartbeat.toString('hex'), heartbeat.toString('hex')]);
      // The lone 7E is garbage; the bytes after a closing flag come out as one bad candidate (7E 0D0A2424 7E)
      // which the decoder rejects, and the frame after them is still found.
      expect(splitter.discardedBytes).toBe(1);
      expect(frames).toHaveLength(4);
      expect(decodeJt808(Buffer.from(frames[1], 'hex'), createJt808Context()).ok).toBe(false);
    });

    it('forgets a held closing flag on reset', () => {
      const splitter = new Jt808Splitter();
      splitter.push(heartbeat);
      expect(splitter.bufferedBytes).toBe(1);
      splitter.reset();
      expect(all(splitter, [Buffer.concat([hex('7e'), heartbeat])])).toEqual([heartbeat.toString('hex')]);
      expect(splitter.discardedBytes).toBe(1);
    });
  });

  it('drops a start that never ends, so memory stays bounded', () => {
    const splitter = new Jt808Splitter({ maxFrameBytes: 256 });
    for (let i = 0; i < 100; i++) {
      splitter.push(Buffer.concat([hex('7e'), Buffer.alloc(100, 0x31)]));
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(256 + 101);
    }
    expect(all(splitter, [heartbeat])).toContain(heartbeat.toString('hex'));
  });
});
