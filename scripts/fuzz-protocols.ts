// Full robustness run for @carhere/protocols: `npx tsx scripts/fuzz-protocols.ts [--frames N] [--seed S]`
// (default 1,000,000 frames). Feeds random and mutated GT06 / JT/T 808 frames to the decoders, and each
// one as garbage before a valid frame through the splitters in random chunk sizes. Fails (exit 1) if an
// exception escapes, a decoder reports an internal error, a valid frame after garbage is not found, or
// buffers grow beyond their bounds. Run with `node --expose-gc --import tsx` for exact heap figures.

import { runProtocolFuzz } from '../packages/protocols/src/fuzz/protocol-fuzz.ts';

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const frames = argument('--frames', 1_000_000);
const seed = argument('--seed', 1);
const maxFrameBytes = 4096;
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();

console.log(`fuzzing ${frames.toLocaleString('en-US')} frames, seed ${seed}`);
const stats = runProtocolFuzz({
  frames,
  seed,
  maxFrameBytes,
  progressEvery: 100_000,
  onProgress: (s) =>
    console.log(
      `  ${s.frames.toLocaleString('en-US').padStart(10)} frames  ${(s.durationMs / 1000).toFixed(1)} s  ` +
        `heap ≤ ${s.heapUsedMaxMB.toFixed(1)} MB  exceptions ${s.escapedExceptions}  internal ${s.internalErrors}  ` +
        `lost ${s.lostValidFrames}`,
    ),
});
gc?.();
const heapAfterGc = process.memoryUsage().heapUsed / 2 ** 20;

const problems: string[] = [];
if (stats.escapedExceptions > 0) problems.push(`${stats.escapedExceptions} exceptions escaped`);
if (stats.internalErrors > 0) problems.push(`${stats.internalErrors} internal decoder errors`);
if (stats.malformedOutputs > 0) problems.push(`${stats.malformedOutputs} malformed decoded messages`);
if (stats.lostValidFrames > 0) problems.push(`${stats.lostValidFrames} valid frames lost after garbage`);
if (stats.maxBufferedBytes > 2 * maxFrameBytes) problems.push(`splitter held ${stats.maxBufferedBytes} bytes`);
if (stats.maxPendingSubpackages > 4) problems.push(`${stats.maxPendingSubpackages} sub-packaged messages pending`);
if (stats.heapUsedMaxMB - stats.heapUsedStartMB > 128)
  problems.push(`heap grew by ${stats.heapUsedMaxMB - stats.heapUsedStartMB} MB`);

const rate = Math.round((stats.frames * 1000) / Math.max(1, stats.durationMs));
console.log(`
frames fed to decoders      ${stats.frames.toLocaleString('en-US')} (random ${stats.randomFrames.toLocaleString('en-US')}, mutated ${stats.mutatedFrames.toLocaleString('en-US')})
decoded ok / typed errors   ${stats.decodedOk.toLocaleString('en-US')} / ${JSON.stringify(stats.errorsByCode)}
escaped exceptions          ${stats.escapedExceptions}
internal decoder errors     ${stats.internalErrors}
malformed decoded messages  ${stats.malformedOutputs}
splitter rounds             ${stats.splitterRounds.toLocaleString('en-US')} (${(stats.splitterBytes / 2 ** 20).toFixed(1)} MiB in random chunks, ${stats.garbageBytesDiscarded.toLocaleString('en-US')} garbage bytes dropped)
valid frames after garbage  ${stats.validFramesAfterGarbage.toLocaleString('en-US')} pushed, ${stats.lostValidFrames} not found
max splitter buffer         ${stats.maxBufferedBytes} bytes (bound ${2 * maxFrameBytes})
max pending sub-packages    ${stats.maxPendingSubpackages}
heap used                   start ${stats.heapUsedStartMB.toFixed(1)} MB, max ${stats.heapUsedMaxMB.toFixed(1)} MB, end ${heapAfterGc.toFixed(1)} MB${gc ? ' (after GC)' : ''}
time                        ${(stats.durationMs / 1000).toFixed(1)} s (${rate.toLocaleString('en-US')} frames/s incl. splitting)`);
if (stats.firstFailures.length > 0) console.log(`first failures:\n  ${stats.firstFailures.join('\n  ')}`);
console.log(problems.length === 0 ? 'OK' : `FAILED: ${problems.join('; ')}`);
process.exitCode = problems.length === 0 ? 0 : 1;
