// Device-to-browser latency through the WebSocket at 5,000 positions/s: simulated JT/T 808 trackers (a separate
// process, which also holds the logged-in browser's WebSocket, so both ends read one clock) send at a fixed total
// rate; each fix is timed from the device's write to its arrival as a `position` message on /api/ws. The path
// is the real one: TCP → session → batcher → PostgreSQL commit → bus → hub → WebSocket.
// Baseline in the same run: a bare relay that decodes the same frames and forwards them to a WebSocket at once
// (no storage, no bus). Target: p99 < 200 ms.
//
//   npm run bench -- live      (LIVE_RATE=5000, LIVE_DEVICES=500, LIVE_SECONDS=15)
import { createServer } from 'node:net';
import { createJt808Context, decodeJt808, Jt808Splitter } from '@carhere/protocols';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../apps/server/src/config.ts';
import { startGateway } from '../apps/server/src/gateway/component.ts';
import { gatewayOptionsFrom } from '../apps/server/src/gateway/options.ts';
import type { ComponentStarter } from '../apps/server/src/main.ts';
import { startServer } from '../apps/server/src/main.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';
import {
  BENCH_ADMIN_PASSWORD,
  registerDevices,
  report,
  round,
  scratchPostgres,
  terminalIds,
} from './lib-gateway-db.ts';

const RATE = Number(process.env.LIVE_RATE ?? 5000);
const DEVICES = Number(process.env.LIVE_DEVICES ?? 500);
const MEASURE_MS = Number(process.env.LIVE_SECONDS ?? 15) * 1000;
const FIRST = '13600000000';

interface Latency {
  rate: number;
  samples: number;
  received: number;
  p50: number;
  p99: number;
  max: number;
}

async function drive(port: number, ws: string, cookie: string): Promise<Latency> {
  const load = spawnJsonChild('lib-gateway-load.ts', {
    mode: 'live',
    host: '127.0.0.1',
    port,
    protocol: 'jt808',
    first: FIRST,
    devices: DEVICES,
    ws,
    cookie,
    rate: RATE,
    warmupMs: 3000,
    measureMs: MEASURE_MS,
  });
  try {
    await load.next('connected', 120_000);
    return await load.next<Latency>('result', MEASURE_MS + 60_000);
  } finally {
    await load.kill();
  }
}

/** Decode and forward at once: the floor for TCP → WebSocket on this machine. */
async function bareRelay(): Promise<Latency> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const server = createServer({ noDelay: true }, (socket) => {
    const splitter = new Jt808Splitter();
    const ctx = createJt808Context();
    socket.on('data', (chunk) => {
      for (const frame of splitter.push(chunk)) {
        const res = decodeJt808(frame, ctx);
        if (!res.ok) continue;
        const m = res.message;
        if (m.reply) socket.write(m.reply);
        for (const p of m.positions) {
          const text = JSON.stringify({
            type: 'position',
            terminalID: (m.terminalId ?? '').replace(/^0+/, ''),
            time: p.time.toISOString(),
            lat: p.lat,
            lon: p.lon,
          });
          for (const c of wss.clients) c.send(text);
        }
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await drive(
      (server.address() as { port: number }).port,
      `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
      '',
    );
  } finally {
    server.close();
    wss.close();
  }
}

const bare = await bareRelay();
console.log(
  `bare relay (decode → WebSocket, no storage): p50 ${round(bare.p50)} ms, p99 ${round(bare.p99)} ms at ${Math.round(bare.rate)} positions/s`,
);

const store = await scratchPostgres('carhere_bench_live');
let gatewayStats: { committedBatches: number; committedRows: number; slowestWriteMs: number } | null = null;
let live: Latency;
try {
  let gatewayPort = 0;
  const gatewayStarter: ComponentStarter = async (ctx) => {
    const base = gatewayOptionsFrom(ctx.config, 'postgres', {});
    const gateway = await startGateway(
      ctx,
      { ...base, host: '127.0.0.1', gt06Port: 0, jt808Port: 0, osmandPort: 0 },
      { onError: (e) => console.error('gateway:', e) },
    );
    gatewayPort = gateway.ports.jt808;
    gatewayStats = gateway.batcher.stats;
    return { name: 'gateway', stop: () => gateway.stop() };
  };
  const running = await startServer(
    {
      ...loadConfig({ ...process.env, DEMO: '0' }),
      databaseUrl: store.url,
      port: 0,
      host: '127.0.0.1',
      adminPassword: BENCH_ADMIN_PASSWORD,
      webDist: '/nonexistent',
    },
    { components: [gatewayStarter] },
  );
  try {
    await registerDevices(running.ctx, terminalIds(FIRST, DEVICES), 'jt808');
    const login = await fetch(`${running.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    live = await drive(gatewayPort, `${running.url.replace('http', 'ws')}/api/ws`, cookie);
  } finally {
    await running.stop();
  }
} finally {
  await store.drop();
}
console.log(
  `gateway → PostgreSQL → bus → /api/ws: p50 ${round(live.p50)} ms, p99 ${round(live.p99)} ms, max ${round(live.max)} ms at ${Math.round(live.rate)} positions/s ` +
    `(${live.samples} timed, ${live.received} received by the browser)`,
);
if (gatewayStats) {
  const s = gatewayStats as { committedBatches: number; committedRows: number; slowestWriteMs: number };
  console.log(
    `  batches: ${s.committedBatches}, ${round(s.committedRows / Math.max(1, s.committedBatches))} rows each, slowest write ${round(s.slowestWriteMs)} ms`,
  );
}
console.log(`target p99 < 200 ms at ${RATE}/s: ${live.p99 < 200 && live.rate >= RATE * 0.95 ? 'met' : 'NOT met'}`);
report('live', live.p99, 'ms p99', bare.p99);
process.exit(0);
