import { describe, expect, it } from 'vitest';
import { buildGt06Frame } from './frame.ts';
import { Gt06Splitter } from './splitter.ts';

const hex = (text: string) => Buffer.from(text, 'hex');
const login = hex('78780d01086471700328358100093f040d0a');
const heartbeat = buildGt06Frame(0x13, 0x0a, hex('4606040002'));
const longFrame = buildGt06Frame(0x94, 0x0b, hex('0a035985708236675805200502187214018966051912408052452f'), true);
// WiFi packet: length byte 0 (no access points), no serial/CRC, ends at 0D0A.
const wifi = hex(
  '787800691709261259400700cc0400d376714600d37a3d5000d37a3c5000d393505a00d3765d5a00d376735a00d32e6b640d0a',
);

function all(splitter: Gt06Splitter, chunks: Buffer[]): string[] {
  return chunks.flatMap((c) => splitter.push(c)).map((f) => f.toString('hex'));
}

describe('Gt06Splitter', () => {
  it('returns each complete frame of a chunk', () => {
    const frames = all(new Gt06Splitter(), [Buffer.concat([login, heartbeat, longFrame, wifi])]);
    expect(frames).toEqual([login, heartbeat, longFrame, wifi].map((f) => f.toString('hex')));
  });

  it('keeps partial data between pushes (byte by byte)', () => {
    const stream = Buffer.concat([login, wifi, heartbeat, longFrame]);
    const splitter = new Gt06Splitter();
    const bytes = [...stream].map((b) => Buffer.from([b]));
    expect(all(splitter, bytes)).toEqual([login, wifi, heartbeat, longFrame].map((f) => f.toString('hex')));
    expect(splitter.bufferedBytes).toBe(0);
    expect(splitter.discardedBytes).toBe(0);
  });

  it('drops garbage before a frame and counts it', () => {
    const splitter = new Gt06Splitter();
    const frames = all(splitter, [Buffer.concat([hex('00ff7813370d0a'), heartbeat, hex('abcd'), login])]);
    expect(frames).toEqual([heartbeat.toString('hex'), login.toString('hex')]);
    expect(splitter.discardedBytes).toBe(9);
  });

  it('gives up a bogus header when a well-formed frame follows it', () => {
    // 7979 FFFF announces a 64 KiB frame that never comes.
    const splitter = new Gt06Splitter();
    expect(all(splitter, [Buffer.concat([hex('7979ffff12'), heartbeat])])).toEqual([heartbeat.toString('hex')]);
  });

  it('ends a frame with a wrong length field at its 0D0A', () => {
    const wrongLength = hex('787808134606020002044dc5050d0a');
    expect(all(new Gt06Splitter(), [Buffer.concat([wrongLength, heartbeat])])).toEqual([
      wrongLength.toString('hex'),
      heartbeat.toString('hex'),
    ]);
  });

  it('holds at most twice maxFrameBytes, however much garbage arrives', () => {
    const splitter = new Gt06Splitter({ maxFrameBytes: 512 });
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      const chunk = Buffer.alloc(997);
      for (let j = 0; j < chunk.length; j++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        chunk[j] = j % 50 === 0 ? 0x78 : j % 50 === 1 ? 0x78 : seed >>> 24;
      }
      splitter.push(chunk);
      expect(splitter.bufferedBytes).toBeLessThanOrEqual(1024);
    }
    expect(splitter.push(heartbeat).map((f) => f.toString('hex'))).toContain(heartbeat.toString('hex'));
  });

  it('copies what it keeps, so the caller may reuse its chunk', () => {
    const splitter = new Gt06Splitter();
    const chunk = Buffer.from(login.subarray(0, 10));
    splitter.push(chunk);
    chunk.fill(0);
    expect(all(splitter, [login.subarray(10)])).toEqual([login.toString('hex')]);
  });
});
