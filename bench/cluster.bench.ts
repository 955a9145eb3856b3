// Gateway workers: acknowledged positions/s and connections through `carhere serve --only gateway` as an
// operator starts it, with GATEWAY_WORKERS=1, 2 and 4, against the same command without workers (one process)
// in the same run, on the same PostgreSQL server (a scratch database each) and a NATS server this bench starts.
// The load generator is its own process (bench/lib-gateway-load.ts, JT/T 808 devices sending as fast as their
// ACKs come back, a window of unacknowledged fixes each). A fix counts once its ACK arrived: after the commit.
//
//   npm run bench -- cluster    (BENCH_DATABASE_URL; CLUSTER_DEVICES, CLUSTER_SECONDS, CLUSTER_WORKERS=1,2,4)

import { startCarhere, startNats } from '../apps/server/src/ops/test-support.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';
import { openContext, registerDevices, report, round, scratchPostgres, terminalIds } from './lib-gateway-db.ts';

const DEVICES = Number(process.env.CLUSTER_DEVICES ?? 400);
const MEASURE_MS = Number(process.env.CLUSTER_SECONDS ?? 10) * 1000;
const WORKERS = (process.env.CLUSTER_WORKERS ?? '1,2,4').split(',').map(Number);
const WINDOW = 32;
const WARMUP_MS = 3000;
const FIRST = '13800000000';

interface Outcome {
  label: string;
  workers: number;
  rate: number;
  connections: number;
}

async function run(workers: number, natsUrl: string): Promise<Outcome> {
  const store = await scratchPostgres('carhere_bench_cluster');
  const label = workers === 0 ? 'one process' : `${workers} workers`;
  try {
    const { ctx, close } = await openContext(store);
    await registerDevices(ctx, terminalIds(FIRST, DEVICES), 'jt808');
    await close();
    const server = await startCarhere(['--only', 'gateway'], {
      DATABASE_URL: store.url as string,
      BUS_URL: natsUrl,
      GATEWAY_WORKERS: String(workers),
      LOG_HTTP: '0',
    });
    try {
      // Workers listen a moment after the primary answers: wait until every one listens on the JT/T 808 port.
      const deadline = Date.now() + 180_000;
      const listening = new RegExp(`gateway worker \\d+ listening on port ${server.jt808Port}\\b`, 'g');
      while ((server.output().match(listening) ?? []).length < workers) {
        if (Date.now() > deadline) throw new Error(`workers did not start:\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const load = spawnJsonChild('lib-gateway-load.ts', {
        mode: 'ingest',
        host: '127.0.0.1',
        port: server.jt808Port,
        protocol: 'jt808',
        first: FIRST,
        devices: DEVICES,
        window: WINDOW,
        warmupMs: WARMUP_MS,
        measureMs: MEASURE_MS,
      });
      try {
        await load.next('connected', 180_000);
        const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
        const connections = Number(/carhere_device_connections\{protocol="jt808"\} (\d+)/.exec(metrics)?.[1] ?? 0);
        const result = await load.next<{ rate: number }>('result', WARMUP_MS + MEASURE_MS + 60_000);
        return { label, workers, rate: result.rate, connections };
      } finally {
        await load.kill();
      }
    } finally {
      await server.stop();
    }
  } finally {
    await store.drop();
  }
}

const nats = await startNats();
const outcomes: Outcome[] = [];
try {
  for (const workers of [0, ...WORKERS]) {
    const o = await run(workers, nats.url);
    outcomes.push(o);
    console.log(
      `${o.label.padEnd(12)} ${Math.round(o.rate).toString().padStart(7)} ACKed positions/s, ${o.connections} connections on /metrics`,
    );
  }
} finally {
  await nats.stop();
}
const one = outcomes[0];
const best = outcomes.slice(1).reduce((a, b) => (b.rate > a.rate ? b : a), outcomes[1] ?? one);
console.log(
  `best: ${best.label}, ${round(best.rate / one.rate, 2)}× one process (${DEVICES} devices, window ${WINDOW}, ${MEASURE_MS / 1000} s each)`,
);
report('cluster', best.rate, 'ACKed positions/s', one.rate, {
  ...Object.fromEntries(outcomes.map((o) => [o.label, Math.round(o.rate)])),
  connections: best.connections,
});
