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

  it('drops a start that never ends, so memory stays bounded', () => {
    const splitter = new Jt808Splitter({ maxFrameBytes: 256 });
    for (let i = 0; i < 100; i++) {
      splitter.push(Buffer.concat([hex('7e'), Buffer.alloc(100, 0x31)]));
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(256 + 101);
    }
    expect(all(splitter, [heartbeat])).toContain(heartbeat.toString('hex'));
  });
});
