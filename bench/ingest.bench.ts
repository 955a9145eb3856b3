// Sustained acknowledged positions/s: simulated JT/T 808 trackers (a separate process) → loopback TCP →
// gateway → PostgreSQL (and PGlite, reported separately); a position counts once the device got its ACK, which
// the gateway sends only after the commit. Two ceilings measured in the same run:
//   - a bare TCP loop that splits and decodes the same frames and ACKs them at once (no database);
//   - PostgreSQL COPY of the same number of position rows into the same indexed, partitioned table.
// Targets: ≥ 30,000 durable positions/s into PostgreSQL on this machine, and ≥ 0.5 of the bare-ACK loop.
//
//   npm run bench -- ingest     (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
//                                INGEST_DEVICES, INGEST_WINDOW, INGEST_SECONDS to change the load)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createJt808Context, decodeJt808, Jt808Splitter } from '@carhere/protocols';
import { startGateway } from '../apps/server/src/gateway/component.ts';
import { PartitionManager } from '../apps/server/src/gateway/ingest/partitions.ts';
import { gatewayOptionsFrom } from '../apps/server/src/gateway/options.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';
import {
  openContext,
  registerDevices,
  report,
  round,
  type Store,
  scratchPglite,
  scratchPostgres,
  terminalIds,
} from './lib-gateway-db.ts';

const DEVICES = Number(process.env.INGEST_DEVICES ?? 200);
const WINDOW = Number(process.env.INGEST_WINDOW ?? 64);
const MEASURE_MS = Number(process.env.INGEST_SECONDS ?? 15) * 1000;
const WARMUP_MS = 3000;
const FIRST = '13700000000';
const COPY_ROWS = 1_000_000;

interface LoadResult {
  acked: number;
  seconds: number;
  rate: number;
}

async function drive(port: number, devices = DEVICES, measureMs = MEASURE_MS): Promise<LoadResult> {
  const load = spawnJsonChild('lib-gateway-load.ts', {
    mode: 'ingest',
    host: '127.0.0.1',
    port,
    protocol: 'jt808',
    first: FIRST,
    devices,
    window: WINDOW,
    warmupMs: WARMUP_MS,
    measureMs,
  });
  try {
    await load.next('connected', 120_000);
    return await load.next<LoadResult>('result', WARMUP_MS + measureMs + 60_000);
  } finally {
    await load.kill();
  }
}

/** The ceiling without storage: split, decode, ACK at once. */
async function bareAckLoop(): Promise<LoadResult> {
  const server: Server = createServer({ noDelay: true }, (socket) => {
    const splitter = new Jt808Splitter();
    const ctx = createJt808Context();
    socket.on('data', (chunk) => {
      for (const frame of splitter.push(chunk)) {
        const res = decodeJt808(frame, ctx);
        if (res.ok && res.message.reply) socket.write(res.message.reply);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    return await drive(port);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

async function throughGateway(store: Store): Promise<LoadResult & { stored: number; batches: number }> {
  const { ctx, close } = await openContext(store);
  await registerDevices(ctx, terminalIds(FIRST, DEVICES), 'jt808');
  const base = gatewayOptionsFrom(ctx.config, store.kind, {});
  const gateway = await startGateway(
    ctx,
    { ...base, host: '127.0.0.1', gt06Port: 0, jt808Port: 0, osmandPort: 0 },
    { onError: (e) => console.error('gateway:', e) },
  );
  try {
    const result = await drive(gateway.ports.jt808);
    await gateway.batcher.flush();
    const stored = await ctx.dbHandle.pool.query<{ n: string }>('SELECT count(*) AS n FROM positions');
    return { ...result, stored: Number(stored.rows[0].n), batches: gateway.batcher.stats.committedBatches };
  } finally {
    await gateway.stop();
    await close();
  }
}

/** PostgreSQL COPY of position rows (psql \copy from a CSV file) into the same table. */
async function copyCeiling(store: Store): Promise<number> {
  const { ctx, close } = await openContext(store);
  const start = Date.now() - 20 * 86_400_000;
  await new PartitionManager(ctx.dbHandle.pool).ensure([start, start + (COPY_ROWS * 1000) / DEVICES]);
  await close();
  const dir = mkdtempSync(join(tmpdir(), 'carhere-copy-'));
  const file = join(dir, 'positions.csv');
  const lines: string[] = [];
  for (let i = 0; i < COPY_ROWS; i++) {
    const device = 1 + (i % DEVICES);
    const t = new Date(start + Math.floor(i / DEVICES) * 1000).toISOString();
    lines.push(`${device},${t},${39.9 + (i % 1000) * 1e-5},${116.4 + (i % 777) * 1e-5},50,42.5,90,t,9,gps,t,${i}`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  const t0 = performance.now();
  execFileSync('psql', [
    store.url as string,
    '-q',
    '-c',
    `\\copy positions (device_id, time, lat, lon, altitude, speed, course, valid, satellites, location_type, acc, mileage) FROM '${file}' WITH (FORMAT csv)`,
  ]);
  const seconds = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return COPY_ROWS / seconds;
}

const ONLY = process.env.INGEST_ONLY; // bare | pg | pglite | copy: run one part (profiling)
const bare = ONLY && ONLY !== 'bare' ? { acked: 0, seconds: 1, rate: 1 } : await bareAckLoop();
console.log(`bare TCP ACK loop (split + decode + ACK, no storage): ${Math.round(bare.rate)} positions/s`);

const skipped = { acked: 0, seconds: 1, rate: 1, stored: 0, batches: 1 };
const pgStore = await scratchPostgres('carhere_bench_ingest');
let pg: Awaited<ReturnType<typeof throughGateway>> = skipped;
try {
  if (!ONLY || ONLY === 'pg') pg = await throughGateway(pgStore);
} finally {
  await pgStore.drop();
}
console.log(
  `gateway → PostgreSQL: ${Math.round(pg.rate)} ACKed positions/s (${DEVICES} devices, window ${WINDOW}; ` +
    `${pg.stored} rows stored, ${pg.batches} batches, ${round(pg.stored / Math.max(1, pg.batches), 0)} rows/batch) = ${round(pg.rate / bare.rate, 2)} of the bare loop`,
);

const pgliteStore = scratchPglite();
let lite: Awaited<ReturnType<typeof throughGateway>> = skipped;
try {
  if (!ONLY || ONLY === 'pglite') lite = await throughGateway(pgliteStore);
} finally {
  await pgliteStore.drop();
}
console.log(
  `gateway → PGlite (embedded, data dir): ${Math.round(lite.rate)} ACKed positions/s (${lite.stored} rows stored)`,
);

const copyStore = await scratchPostgres('carhere_bench_copy');
let copy = 1;
try {
  if (!ONLY || ONLY === 'copy') copy = await copyCeiling(copyStore);
} finally {
  await copyStore.drop();
}
console.log(
  `PostgreSQL COPY of ${COPY_ROWS} position rows: ${Math.round(copy)} rows/s (gateway = ${round(pg.rate / copy, 2)} of COPY)`,
);
console.log(
  `targets: ≥ 30000/s into PostgreSQL (${pg.rate >= 30_000 ? 'met' : 'NOT met'}), ≥ 0.5 of the bare loop (${pg.rate / bare.rate >= 0.5 ? 'met' : 'NOT met'})`,
);
report('ingest', pg.rate, 'positions/s', bare.rate);
process.exit(0);
