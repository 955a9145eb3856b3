// CI-sized robustness run (the full ≥ 1,000,000-frame run is `npx tsx scripts/fuzz-protocols.ts`).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGt06Context } from '../gt06/context.ts';
import { decodeGt06 } from '../gt06/decoder.ts';
import { buildGt06Frame } from '../gt06/frame.ts';
import { Gt06Splitter } from '../gt06/splitter.ts';
import { createJt808Context } from '../jt808/context.ts';
import { decodeJt808 } from '../jt808/decoder.ts';
import { jt808Target } from '../jt808/encoder.ts';
import { buildJt808Frame } from '../jt808/frame.ts';
import { Jt808Splitter } from '../jt808/splitter.ts';
import { runProtocolFuzz } from './protocol-fuzz.ts';

describe('protocol fuzz (seeded, 30,000 frames)', () => {
  const stats = runProtocolFuzz({ frames: 30_000, seed: 20_240_601, maxFrameBytes: 4096 });

  it('lets no exception escape and reports no internal decoder error', () => {
    expect(stats.firstFailures).toEqual([]);
    expect(stats.escapedExceptions).toBe(0);
    expect(stats.internalErrors).toBe(0);
  });

  it('only returns well-formed messages (finite numbers, real dates)', () => {
    expect(stats.malformedOutputs).toBe(0);
  });

  it('exercised both paths: many inputs decoded, many rejected with typed errors', () => {
    expect(stats.frames).toBe(30_000);
    expect(stats.decodedOk).toBeGreaterThan(5_000);
    expect(stats.errorsByCode.bad_frame).toBeGreaterThan(1_000);
    expect(stats.errorsByCode.truncated).toBeGreaterThan(100);
  });

  it('finds every valid frame that follows garbage', () => {
    expect(stats.validFramesAfterGarbage).toBe(30_000);
    expect(stats.lostValidFrames).toBe(0);
    expect(stats.garbageBytesDiscarded).toBeGreaterThan(0);
  });

  it('keeps splitter buffers and reassembly bounded', () => {
    expect(stats.maxBufferedBytes).toBeLessThanOrEqual(2 * 4096);
    expect(stats.maxPendingSubpackages).toBeLessThanOrEqual(4);
  });
});

describe('properties', () => {
  const gt06Ctx = createGt06Context();
  const jt808Ctx = createJt808Context();

  it('decoders return a result for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const buf = Buffer.from(bytes);
        const a = decodeGt06(buf, gt06Ctx);
        const b = decodeJt808(buf, jt808Ctx);
        return (a.ok || a.error.code !== 'internal') && (b.ok || b.error.code !== 'internal');
      }),
      { seed: 42, numRuns: 2_000 },
    );
  });

  it('splitting a stream of frames at any points gives back exactly those frames, discarding nothing', () => {
    const target = jt808Target('013912345678', '2013');
    // long (GT06 7979) / shared (JT/T 808: this frame shares its opening 7E with the previous frame's closing one)
    const frame = fc.tuple(
      fc.boolean(),
      fc.uint8Array({ maxLength: 80 }),
      fc.integer({ min: 0, max: 0xffff }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        fc.array(frame, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 })),
        (specs, cuts) => {
          const gt06 = specs.map(([long, body, serial]) => buildGt06Frame(0x12, serial, body, long));
          const jt808 = specs.map(([, body, serial]) => buildJt808Frame(0x0200, target, serial, body));
          const jt808Wire = jt808.map((f, i) => (i > 0 && specs[i][3] ? f.subarray(1) : f));
          for (const [frames, wire, splitter] of [
            [gt06, gt06, new Gt06Splitter()],
            [jt808, jt808Wire, new Jt808Splitter()],
          ] as const) {
            const stream = Buffer.concat(wire);
            const out: Buffer[] = [];
            let at = 0;
            for (let i = 0; at < stream.length; i++) {
              const size = cuts.length > 0 ? cuts[i % cuts.length] : stream.length;
              out.push(...splitter.push(stream.subarray(at, at + size)));
              at += size;
            }
            if (out.length !== frames.length || out.some((f, i) => !f.equals(frames[i]))) return false;
            if (splitter.discardedBytes !== 0) return false;
          }
          return true;
        },
      ),
      { seed: 7, numRuns: 500 },
    );
  });
});
