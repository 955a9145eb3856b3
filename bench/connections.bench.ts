// Concurrent idle device connections held across gateway processes (one process may open at most ~20,000
// files here), and the memory each costs: every connection is a GT06 device that logged in (a registered
// device, a bound session) and then stays silent. Memory per connection = growth of the gateway processes' RSS
// (after a full GC), or of their JS heap if larger, over the connections added after the first half. Baseline in
// the same run: a bare Node TCP server holding the same number of sockets per process. Targets: ≥ 50,000 connections, ≤ 8 KB per connection.
//
//   npm run bench -- connections   (CONNECTIONS_PROCESSES=3, CONNECTIONS_PER_PROCESS=17000)
import { type JsonChild, spawnJsonChild } from './lib-gateway-child.ts';
import { openContext, registerDevices, report, round, scratchPostgres, terminalIds } from './lib-gateway-db.ts';

const PROCESSES = Number(process.env.CONNECTIONS_PROCESSES ?? 3);
const PER_PROCESS = Number(process.env.CONNECTIONS_PER_PROCESS ?? 17_000);
const FIRST = '868130000000000';
const WARM_UP = 500;
/** Client addresses: each has its own ephemeral port range toward a gateway port. */
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];

interface Rss {
  rss: number;
  heap: number;
  connections: number;
}

async function rssOf(p: JsonChild): Promise<Rss> {
  const next = p.next<Rss>('rss', 60_000);
  p.process.kill('SIGUSR2');
  return next;
}

/**
 * Connects `count` devices to a server process in three steps: 500 to warm every code path and pool up, then
 * up to half, then the rest. RSS is read after full GCs at the last two steps; the growth between them over
 * the connections added is the cost per connection (the startup footprint and its garbage stay out of it).
 */
async function holdConnections(server: JsonChild, port: number, first: string, count: number): Promise<Held> {
  const clients: JsonChild[] = [];
  let opened = 0;
  const open = async (n: number) => {
    const from = (BigInt(first) + BigInt(opened)).toString();
    opened += n;
    const client = spawnJsonChild('lib-gateway-load.ts', {
      mode: 'idle',
      host: '127.0.0.1',
      port,
      protocol: 'gt06',
      first: from,
      devices: n,
      sources: SOURCES,
    });
    clients.push(client);
    const { failed } = await client.next<{ up: number; failed: number }>('up', 900_000);
    if (failed > 0) console.log(`  ${failed} connection(s) failed`);
    await new Promise((r) => setTimeout(r, 3000));
  };
  const half = Math.floor(count / 2);
  await open(WARM_UP);
  await open(half - WARM_UP);
  const before = await rssOf(server);
  await open(count - half);
  const after = await rssOf(server);
  return { before, after, clients };
}

interface Held {
  before: Rss;
  after: Rss;
  clients: JsonChild[];
}

/** Bytes per connection added after the warm-up. */
/**
 * KB per connection added: the larger of RSS growth and JS heap growth (RSS lags behind the heap when the
 * allocator reuses pages freed by earlier garbage, so the heap figure keeps the estimate honest).
 */
const perConnectionKb = (h: Held) =>
  kb(Math.max(h.after.rss - h.before.rss, h.after.heap - h.before.heap)) / (h.after.connections - h.before.connections);

const kb = (bytes: number) => bytes / 1024;

// Baseline: a bare server holding PER_PROCESS sockets.
const bare = spawnJsonChild('lib-gateway-process.ts', { kind: 'bare', port: 0 }, {}, ['--expose-gc']);
const { port: barePort } = await bare.next<{ port: number }>('ready');
const b = await holdConnections(bare, barePort, '868139000000000', PER_PROCESS);
const bareKb = perConnectionKb(b);
console.log(
  `bare Node TCP server: ${b.after.connections} sockets, ${round(bareKb, 2)} KB per connection (larger of RSS and JS heap growth over the last ${b.after.connections - b.before.connections})`,
);
await Promise.all(b.clients.map((c) => c.kill()));
await bare.kill();

// The gateway: PROCESSES processes on one PostgreSQL database, each holding PER_PROCESS logged-in devices.
const store = await scratchPostgres('carhere_bench_connections');
const gateways: JsonChild[] = [];
const clients: JsonChild[] = [];
try {
  const { ctx, close } = await openContext(store);
  await registerDevices(ctx, terminalIds(FIRST, PROCESSES * PER_PROCESS), 'gt06');
  await close();
  for (let i = 0; i < PROCESSES; i++) {
    gateways.push(
      spawnJsonChild('lib-gateway-process.ts', { kind: 'gateway', url: store.url, port: 0 }, {}, ['--expose-gc']),
    );
  }
  const ports = await Promise.all(gateways.map((g) => g.next<{ port: number }>('ready', 120_000).then((m) => m.port)));
  const t0 = Date.now();
  const held = await Promise.all(
    gateways.map((g, i) =>
      holdConnections(g, ports[i], (BigInt(FIRST) + BigInt(i * PER_PROCESS)).toString(), PER_PROCESS),
    ),
  );
  for (const h of held) clients.push(...h.clients);
  const connections = held.reduce((n, h) => n + h.after.connections, 0);
  const added = held.reduce((n, h) => n + h.after.connections - h.before.connections, 0);
  const growth = held.reduce((n, h) => n + (h.after.rss - h.before.rss), 0);
  const heapGrowth = held.reduce((n, h) => n + h.after.heap - h.before.heap, 0);
  const perConnection = kb(Math.max(growth, heapGrowth)) / added;
  console.log(
    `gateway: ${connections} devices connected and logged in across ${PROCESSES} processes in ${round((Date.now() - t0) / 1000)} s; ` +
      `over the last ${added}: RSS +${round(kb(growth) / 1024)} MB (${round(kb(growth) / added, 2)} KB each), JS heap +${round(kb(heapGrowth) / 1024)} MB ` +
      `(${round(kb(heapGrowth) / added, 2)} KB each) → ${round(perConnection, 2)} KB per connection`,
  );
  for (const [i, h] of held.entries())
    console.log(`  process ${i + 1}: ${h.after.connections} sessions, RSS ${round(h.after.rss / 1048576)} MB`);
  console.log(
    `targets: ≥ 50000 connections (${connections >= 50_000 ? 'met' : 'NOT met'}), ≤ 8 KB per connection (${perConnection <= 8 ? 'met' : 'NOT met'})`,
  );
  report('connections', perConnection, 'KB/connection', bareKb);
} finally {
  await Promise.all([...clients, ...gateways].map((c) => c.kill()));
  await store.drop();
}
process.exit(0);
