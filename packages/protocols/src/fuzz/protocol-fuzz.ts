// Robustness harness for both protocols: random and mutated frames through the decoders, and garbage
// followed by valid frames through the splitters in random chunk sizes. Used by fuzz.test.ts (a CI-sized
// run) and scripts/fuzz-protocols.ts (≥ 1,000,000 frames).

import { readFileSync } from 'node:fs';
import { crcX25, xorChecksum } from '../checksum.ts';
import { createGt06Context, type Gt06Context } from '../gt06/context.ts';
import { decodeGt06 } from '../gt06/decoder.ts';
import { buildGt06Frame } from '../gt06/frame.ts';
import { Gt06Splitter } from '../gt06/splitter.ts';
import { createJt808Context, type Jt808Context } from '../jt808/context.ts';
import { decodeJt808 } from '../jt808/decoder.ts';
import { jt808Target } from '../jt808/encoder.ts';
import { escapeJt808Frame, unescapeJt808 } from '../jt808/escape.ts';
import { buildJt808Frame } from '../jt808/frame.ts';
import { Jt808Splitter } from '../jt808/splitter.ts';
import type { AttributeValue, DecodedMessage, DecodeResult } from '../types.ts';

export interface FuzzOptions {
  /** Frames fed to the decoders (half GT06, half JT/T 808). Each also drives one splitter round. */
  frames: number;
  seed: number;
  /** Splitter limit (bytes); buffered data must stay within 2× this. */
  maxFrameBytes?: number;
  /** Called every `progressEvery` frames with the running statistics. */
  onProgress?: (stats: FuzzStats) => void;
  progressEvery?: number;
}

export interface FuzzStats {
  frames: number;
  randomFrames: number;
  mutatedFrames: number;
  decodedOk: number;
  errorsByCode: Record<string, number>;
  /** Exceptions that escaped a decoder or splitter, or 'internal' errors: must stay 0. */
  escapedExceptions: number;
  internalErrors: number;
  /** Decoded messages with a non-finite number, an invalid Date or a missing field: must stay 0. */
  malformedOutputs: number;
  firstFailures: string[];
  splitterRounds: number;
  splitterBytes: number;
  garbageBytesDiscarded: number;
  /** Valid frames pushed after garbage, and how many of them the splitter did not return intact. */
  validFramesAfterGarbage: number;
  lostValidFrames: number;
  lostValidFramesByProtocol: { gt06: number; jt808: number };
  maxBufferedBytes: number;
  maxPendingSubpackages: number;
  heapUsedStartMB: number;
  heapUsedMaxMB: number;
  heapUsedEndMB: number;
  durationMs: number;
}

/** Deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function loadFixtureFrames(file: string): Buffer[] {
  const url = new URL(`../../fixtures/traccar/${file}`, import.meta.url);
  const cases = (JSON.parse(readFileSync(url, 'utf8')) as { cases: { hex: string }[] }).cases;
  return cases.map((c) => Buffer.from(c.hex, 'hex'));
}

function generatedGt06(rnd: () => number, count: number): Buffer[] {
  const out: Buffer[] = [];
  const types = [0x01, 0x12, 0x13, 0x15, 0x16, 0x19, 0x22, 0x26, 0x27, 0x2c, 0x94, 0xa0, 0xa4];
  for (let i = 0; i < count; i++) {
    const type = types[Math.floor(rnd() * types.length)];
    const content = Buffer.alloc(Math.floor(rnd() * 60));
    for (let j = 0; j < content.length; j++) content[j] = Math.floor(rnd() * 256);
    out.push(buildGt06Frame(type, i & 0xffff, content, rnd() < 0.2));
  }
  return out;
}

function generatedJt808(rnd: () => number, count: number): Buffer[] {
  const out: Buffer[] = [];
  const ids = [0x0001, 0x0002, 0x0100, 0x0102, 0x0104, 0x0107, 0x0200, 0x0201, 0x0704, 0x0900, 0x0801, 0x5501];
  const targets = [jt808Target('013912345678', '2013'), jt808Target('0139123456780000', '2019')];
  for (let i = 0; i < count; i++) {
    const body = Buffer.alloc(Math.floor(rnd() * 120));
    for (let j = 0; j < body.length; j++) body[j] = Math.floor(rnd() * 256);
    out.push(buildJt808Frame(ids[Math.floor(rnd() * ids.length)], targets[i % 2], i & 0xffff, body));
  }
  return out;
}

function randomBytes(rnd: () => number, max: number): Buffer {
  const b = Buffer.allocUnsafe(Math.floor(rnd() * max));
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rnd() * 256);
  return b;
}

/** Applies 1-4 random edits; re-seals the checksum half of the time so decoding goes deeper. */
function mutate(rnd: () => number, frame: Buffer, protocol: 'gt06' | 'jt808'): Buffer {
  let b = Buffer.from(protocol === 'jt808' && frame[0] === 0x7e ? unescapeFrame(frame) : frame);
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * Math.max(1, b.length));
    const op = rnd();
    if (op < 0.35 && b.length > 0) b[at] ^= 1 << Math.floor(rnd() * 8);
    else if (op < 0.55 && b.length > 0) b[at] = Math.floor(rnd() * 256);
    else if (op < 0.7) b = Buffer.concat([b.subarray(0, at), randomBytes(rnd, 8), b.subarray(at)]);
    else if (op < 0.85)
      b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + Math.floor(rnd() * 6)))]);
    else if (op < 0.93) b = b.subarray(0, at);
    else if (b.length > 4) b[2 + Math.floor(rnd() * 2)] = Math.floor(rnd() * 256); // length field
  }
  if (rnd() < 0.5) reseal(b, protocol);
  return protocol === 'jt808' && b.length >= 2 && b[0] === 0x7e && b[b.length - 1] === 0x7e ? escapeJt808Frame(b) : b;
}

function unescapeFrame(frame: Buffer): Buffer {
  if (frame.length < 2) return frame;
  return Buffer.concat([frame.subarray(0, 1), unescapeJt808(frame, 1, frame.length - 1), frame.subarray(-1)]);
}

function reseal(b: Buffer, protocol: 'gt06' | 'jt808'): void {
  if (protocol === 'gt06' && b.length >= 8) {
    const crc = crcX25(b, 2, b.length - 4);
    b[b.length - 4] = crc >> 8;
    b[b.length - 3] = crc & 0xff;
  } else if (protocol === 'jt808' && b.length >= 4) {
    b[b.length - 2] = xorChecksum(b, 1, b.length - 2);
  }
}

function finiteValues(value: AttributeValue | undefined): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finiteValues);
  if (value !== null && typeof value === 'object') return Object.values(value).every(finiteValues);
  return true;
}

/** Every number finite, every time a real Date: what consumers of the shape rely on. */
export function wellFormed(m: DecodedMessage): boolean {
  if (!Number.isInteger(m.messageId) || !Number.isInteger(m.serial) || !Array.isArray(m.positions)) return false;
  if (!finiteValues(m.attributes)) return false;
  for (const p of m.positions) {
    if (!(p.time instanceof Date) || Number.isNaN(p.time.getTime())) return false;
    if (![p.lat, p.lon, p.altitude, p.speedKmh, p.course].every(Number.isFinite)) return false;
    if (p.satellites !== undefined && !Number.isFinite(p.satellites)) return false;
    if (!finiteValues(p.attributes)) return false;
  }
  return true;
}

/** Runs the harness; never throws for decoder problems, it counts them. */
export function runProtocolFuzz(options: FuzzOptions): FuzzStats {
  const rnd = seededRandom(options.seed);
  const maxFrameBytes = options.maxFrameBytes ?? 4096;
  const gt06Seeds = [...loadFixtureFrames('gt06-decoder.json'), ...generatedGt06(rnd, 200)];
  const jt808Seeds = [...loadFixtureFrames('huabao-decoder.json'), ...generatedJt808(rnd, 200)];
  // Frames the splitters must find after garbage: well-formed, CRC/XOR valid.
  const gt06Valid = generatedGt06(rnd, 64);
  const jt808Valid = generatedJt808(rnd, 64);

  const stats: FuzzStats = {
    frames: 0,
    randomFrames: 0,
    mutatedFrames: 0,
    decodedOk: 0,
    errorsByCode: {},
    escapedExceptions: 0,
    internalErrors: 0,
    malformedOutputs: 0,
    firstFailures: [],
    splitterRounds: 0,
    splitterBytes: 0,
    garbageBytesDiscarded: 0,
    validFramesAfterGarbage: 0,
    lostValidFrames: 0,
    lostValidFramesByProtocol: { gt06: 0, jt808: 0 },
    maxBufferedBytes: 0,
    maxPendingSubpackages: 0,
    heapUsedStartMB: process.memoryUsage().heapUsed / 2 ** 20,
    heapUsedMaxMB: 0,
    heapUsedEndMB: 0,
    durationMs: 0,
  };
  const started = Date.now();
  let gt06Ctx: Gt06Context = createGt06Context();
  let jt808Ctx: Jt808Context = createJt808Context();
  const gt06Splitter = new Gt06Splitter({ maxFrameBytes });
  const jt808Splitter = new Jt808Splitter({ maxFrameBytes });
  const fail = (what: string, input: Uint8Array) => {
    if (stats.firstFailures.length < 10)
      stats.firstFailures.push(`${what}: ${Buffer.from(input).toString('hex').slice(0, 400)}`);
  };
  const record = (result: DecodeResult, input: Uint8Array) => {
    if (result.ok) {
      stats.decodedOk++;
      if (!wellFormed(result.message)) {
        stats.malformedOutputs++;
        fail('malformed output', input);
      }
      return;
    }
    stats.errorsByCode[result.error.code] = (stats.errorsByCode[result.error.code] ?? 0) + 1;
    if (result.error.code === 'internal') {
      stats.internalErrors++;
      fail(result.error.message, input);
    }
  };

  for (let i = 0; i < options.frames; i++) {
    const protocol = i % 2 === 0 ? 'gt06' : 'jt808';
    const seeds = protocol === 'gt06' ? gt06Seeds : jt808Seeds;
    let input: Buffer;
    if (rnd() < 0.3) {
      stats.randomFrames++;
      input = randomBytes(rnd, 200);
      // Give random data a plausible start half of the time, so it reaches the decoders' bodies.
      if (rnd() < 0.5) {
        const head = protocol === 'gt06' ? (rnd() < 0.5 ? [0x78, 0x78] : [0x79, 0x79]) : [0x7e];
        input = Buffer.concat([Buffer.from(head), input, Buffer.from(protocol === 'gt06' ? [0x0d, 0x0a] : [0x7e])]);
      }
    } else {
      stats.mutatedFrames++;
      input = mutate(rnd, seeds[Math.floor(rnd() * seeds.length)], protocol);
    }
    stats.frames++;
    try {
      record(protocol === 'gt06' ? decodeGt06(input, gt06Ctx) : decodeJt808(input, jt808Ctx), input);
    } catch (thrown) {
      stats.escapedExceptions++;
      fail(`exception ${(thrown as Error).message}`, input);
    }
    if (i % 5000 === 4999) {
      // New connections from time to time (contexts would otherwise learn one device forever).
      gt06Ctx = createGt06Context();
      jt808Ctx = createJt808Context();
    }
    stats.maxPendingSubpackages = Math.max(stats.maxPendingSubpackages, jt808Ctx.pending.size);

    // Splitter round: this input as garbage, then a valid frame, cut into random chunks.
    const valid = protocol === 'gt06' ? gt06Valid[i % gt06Valid.length] : jt808Valid[i % jt808Valid.length];
    const splitter = protocol === 'gt06' ? gt06Splitter : jt808Splitter;
    // A JT/T 808 stream needs a 7E before the frame's own, as a real stream of frames has one.
    const stream = Buffer.concat(protocol === 'gt06' ? [input, valid] : [input, Buffer.from([0x7e]), valid]);
    stats.splitterRounds++;
    stats.splitterBytes += stream.length;
    stats.validFramesAfterGarbage++;
    let found = false;
    try {
      let at = 0;
      while (at < stream.length) {
        const size = 1 + Math.floor(rnd() * 700);
        for (const frame of splitter.push(stream.subarray(at, at + size))) {
          if (frame.equals(valid)) found = true;
          else {
            const ctx = protocol === 'gt06' ? gt06Ctx : jt808Ctx;
            const result =
              protocol === 'gt06' ? decodeGt06(frame, ctx as Gt06Context) : decodeJt808(frame, ctx as Jt808Context);
            if (!result.ok && result.error.code === 'internal') {
              stats.internalErrors++;
              fail(result.error.message, frame);
            }
          }
        }
        at += size;
        stats.maxBufferedBytes = Math.max(stats.maxBufferedBytes, splitter.bufferedBytes);
      }
    } catch (thrown) {
      stats.escapedExceptions++;
      fail(`splitter exception ${(thrown as Error).message}`, stream);
    }
    if (!found) {
      stats.lostValidFrames++;
      stats.lostValidFramesByProtocol[protocol]++;
      if (stats.lostValidFrames <= 3) fail(`${protocol} valid frame not found after garbage`, stream);
    }

    if (i % 10000 === 0) stats.heapUsedMaxMB = Math.max(stats.heapUsedMaxMB, process.memoryUsage().heapUsed / 2 ** 20);
    if (options.onProgress && options.progressEvery && (i + 1) % options.progressEvery === 0) {
      stats.durationMs = Date.now() - started;
      options.onProgress(stats);
    }
  }
  stats.garbageBytesDiscarded = gt06Splitter.discardedBytes + jt808Splitter.discardedBytes;
  stats.heapUsedEndMB = process.memoryUsage().heapUsed / 2 ** 20;
  stats.heapUsedMaxMB = Math.max(stats.heapUsedMaxMB, stats.heapUsedEndMB);
  stats.durationMs = Date.now() - started;
  return stats;
}
