// Reconnect storm: N GT06 and N JT/T 808 devices connect and log in at once, as after a restart, a failover or a
// network blip. GT06 devices send their login; JT/T 808 terminals authenticate (0x0102) with the code they hold.
// A login counts once its ACK arrived (GT06 login answer; JT/T 808 0x8001 to the authentication, result 0).
// Against a freshly started gateway process (cold directory, as after a restart; registered devices on a scratch
// PostgreSQL database) and, in the same run, against a bare Node TCP server that answers every login with a fixed
// ACK and no lookup, driven by the same client. The client is its own process (bench/lib-gateway-load.ts).
// One process may open at most ~20,000 files here, so the two protocols storm one after the other, each against
// its own fresh gateway process (10,000 sockets each); the figures are summed. The client resets its connections
// when it stops (a closed one would leave its port in TIME_WAIT, and the next storm's connects would be slowed by
// the kernel's port search: the bare server measured 1.4 s fresh and 8–16 s after two storms). Several rounds,
// the bare server and the gateway in turn (which goes first alternates); the median round is the figure.
// Target: ≥ 0.7 of the bare server.
//
// Optional, STORM_WORKERS=N (e.g. 5): afterwards, STORM_TOTAL devices (default 50,000, half GT06, half JT/T 808)
// storm `carhere serve --only gateway` with GATEWAY_WORKERS=N (a NATS server this bench starts), driven by one
// client process per 5,000 devices, all starting at once; prints that figure (no bare baseline: one bare process
// cannot hold them), with the most files each server process held open.
//
//   npm run bench -- storm     (BENCH_DATABASE_URL; STORM_DEVICES=10000 per protocol; STORM_WORKERS, STORM_TOTAL)
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startCarhere, startNats } from '../apps/server/src/ops/test-support.ts';
import { type JsonChild, spawnJsonChild } from './lib-gateway-child.ts';
import { openContext, registerDevices, report, round, scratchPostgres, terminalIds } from './lib-gateway-db.ts';

const N = Number(process.env.STORM_DEVICES ?? 10_000);
/**
 * Rounds (STORM_ROUNDS, default 3): each storms the bare server and the gateway with each protocol; the figure is
 * the median round. One storm on this 2-core machine (client, server and database share it) varies by ±20 %.
 */
const ROUNDS = Math.max(1, Number(process.env.STORM_ROUNDS ?? 3));
const WORKERS = Number(process.env.STORM_WORKERS ?? 0);
const TOTAL = Number(process.env.STORM_TOTAL ?? 50_000);
const PER_CLIENT = 5000;
/** STORM_CPU_PROF=dir: the gateway process writes a V8 CPU profile there (node --cpu-prof). */
const CPU_PROF = process.env.STORM_CPU_PROF;
const FIRST = { gt06: '868140000000000', jt808: '13900000000' } as const;
const AUTH_CODE = 'storm0auth0code0';
/** Client addresses: each has its own ephemeral port range toward a server port. */
const SOURCES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];

type Protocol = keyof typeof FIRST;
/** STORM_PROTOCOLS=gt06 (or jt808): storm only that protocol (profiling one login path). */
const PROTOCOLS = (process.env.STORM_PROTOCOLS ?? 'gt06,jt808').split(',').filter((p): p is Protocol => p in FIRST);

interface StormResult {
  logins: number;
  failed: number;
  lastAckMs: number;
  lastConnectMs: number;
  p50: number;
  p99: number;
  serverCpuMs?: number;
  /** Handshakes the kernel dropped because the server's accept queue was full (machine-wide, during this storm). */
  overflows?: number;
}

/**
 * The kernel's count of connections dropped on a full accept queue (TcpExt ListenOverflows): each such device
 * gets in only after its retransmits (1, 2, 4 … s), so a storm with many measures the kernel's timers too.
 * net.core.somaxconn caps the queue (docs/deployment.md). Null where /proc/net/netstat is not readable.
 */
function listenOverflows(): number | null {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const names = lines[at].split(/\s+/);
    const values = lines[at + 1].split(/\s+/);
    const i = names.indexOf('ListenOverflows');
    return i > 0 ? Number(values[i]) : null;
  } catch {
    return null;
  }
}

/** Starts counting dropped handshakes; the function answers how many since (undefined where not readable). */
function countOverflows(): () => number | undefined {
  const before = listenOverflows();
  return () => {
    const after = listenOverflows();
    return before === null || after === null ? undefined : after - before;
  };
}

async function storm(server: JsonChild, protocol: Protocol): Promise<StormResult> {
  const ready = await server.next<{ port: number; jt808Port: number }>('ready', 120_000);
  const client = spawnJsonChild('lib-gateway-load.ts', {
    mode: 'storm',
    host: '127.0.0.1',
    port: protocol === 'gt06' ? ready.port : ready.jt808Port,
    protocol,
    first: FIRST[protocol],
    devices: N,
    authCode: AUTH_CODE,
    sources: SOURCES,
  });
  const dropped = countOverflows();
  try {
    const result = await client.next<StormResult>('result', 600_000);
    const overflows = dropped();
    // The server's CPU time from its start to the last login answered (the storm's whole cost in that process).
    server.process.kill('SIGUSR1');
    const cpu = await server.next<{ ms: number }>('cpu', 10_000);
    return { ...result, serverCpuMs: cpu.ms, overflows };
  } finally {
    // The client resets its connections (no TIME_WAIT left for the next storm's client ports), then the server goes.
    await client.stop();
    // The server is asked to exit (its stdin closes; a profiled one then writes its profile).
    await server.stop(15_000);
  }
}

const line = (label: string, r: StormResult) =>
  `${label.padEnd(26)} ${r.logins} logins${r.failed > 0 ? ` (${r.failed} failed)` : ''}, last ACK after ${round(r.lastAckMs / 1000, 2)} s ` +
  `(last connected after ${round(r.lastConnectMs / 1000, 2)} s), ` +
  `round trip p50 ${Math.round(r.p50)} ms, p99 ${Math.round(r.p99)} ms, ${Math.round(r.logins / (r.lastAckMs / 1000))} logins/s, ` +
  `server CPU ${Math.round(r.serverCpuMs ?? Number.NaN)} ms` +
  (r.overflows === undefined ? '' : `, accept queue overflows ${r.overflows}`);

function somaxconn(): string {
  try {
    return readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}
console.log(`accept queue cap (net.core.somaxconn): ${somaxconn()}; both servers ask for 65,535 and get the smaller`);

const store = await scratchPostgres('carhere_bench_storm');
type Pair = { bare: StormResult; gateway: StormResult };
const rounds: Record<string, Pair>[] = [];
try {
  const { ctx, close } = await openContext(store);
  const perProtocol = Math.max(N, WORKERS > 0 ? Math.ceil(TOTAL / 2) : 0);
  await registerDevices(ctx, terminalIds(FIRST.gt06, perProtocol), 'gt06');
  await registerDevices(ctx, terminalIds(FIRST.jt808, perProtocol), 'jt808');
  // The devices have been here before: JT/T 808 terminals hold a code, every device has a (stale, offline) state.
  await ctx.dbHandle.pool.query(
    `UPDATE devices SET jt808_auth_code = $1 WHERE protocol = 1 AND terminal_id LIKE '139%'`,
    [AUTH_CODE],
  );
  await ctx.dbHandle.pool.query(
    `INSERT INTO device_state (device_id, online, last_seen)
     SELECT id, false, now() - interval '1 minute' FROM devices ON CONFLICT (device_id) DO NOTHING`,
  );
  await close();
  for (let k = 0; k < ROUNDS; k++) {
    const results: Record<string, Pair> = {};
    for (const protocol of PROTOCOLS) {
      const bareServer = () => storm(spawnJsonChild('lib-gateway-process.ts', { kind: 'bare', port: 0 }), protocol);
      const gatewayServer = async () => {
        // Untimed: what the storm before left (10,000 online and offline updates, 10,000 device-log rows) is
        // vacuumed first, as autovacuum would have by then; otherwise it ran during whichever storm came next.
        await vacuum(store.url as string);
        return storm(
          spawnJsonChild('lib-gateway-process.ts', { kind: 'gateway', url: store.url, port: 0, poolSize: 10 }, {}, [
            ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
            ...(process.env.STORM_NODE_ARGS ?? '').split(' ').filter(Boolean),
          ]),
          protocol,
        );
      };
      let bare: StormResult;
      let gateway: StormResult;
      if (k % 2 === 0) {
        bare = await bareServer();
        gateway = await gatewayServer();
      } else {
        gateway = await gatewayServer();
        bare = await bareServer();
      }
      results[protocol] = { bare, gateway };
      console.log(line(`round ${k + 1} ${protocol} bare:`, bare));
      console.log(line(`round ${k + 1} ${protocol} gateway:`, gateway));
    }
    rounds.push(results);
  }
  if (WORKERS > 0) await acrossWorkers(store.url as string);
} finally {
  await store.drop();
}

async function vacuum(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE) device_state, device_log, devices');
  } finally {
    await client.end();
  }
}

/** TOTAL devices, half of each protocol, at once against GATEWAY_WORKERS=WORKERS; one client per 5,000. */
async function acrossWorkers(url: string): Promise<void> {
  const nats = await startNats();
  const server = await startCarhere(['--only', 'gateway'], {
    DATABASE_URL: url,
    BUS_URL: nats.url,
    GATEWAY_WORKERS: String(WORKERS),
    LOG_HTTP: '0',
  });
  const clients: JsonChild[] = [];
  try {
    const deadline = Date.now() + 180_000;
    const listening = new RegExp(`gateway worker \\d+ listening on port ${server.jt808Port}\\b`, 'g');
    while ((server.output().match(listening) ?? []).length < WORKERS) {
      if (Date.now() > deadline) throw new Error(`workers did not start:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const half = Math.ceil(TOTAL / 2);
    for (const protocol of ['gt06', 'jt808'] as const) {
      for (let from = 0; from < half; from += PER_CLIENT) {
        clients.push(
          spawnJsonChild('lib-gateway-load.ts', {
            mode: 'storm',
            host: '127.0.0.1',
            port: protocol === 'gt06' ? server.gt06Port : server.jt808Port,
            protocol,
            first: (BigInt(FIRST[protocol]) + BigInt(from)).toString(),
            devices: Math.min(PER_CLIENT, half - from),
            authCode: AUTH_CODE,
            sources: SOURCES,
            connecting: 200,
            together: true,
          }),
        );
      }
    }
    // Every load process is started (tsx, a few seconds each on a loaded box) before any of them storms.
    await Promise.all(clients.map((c) => c.next('ready', 300_000)));
    const peaks = watchFiles(server.child.pid as number);
    const dropped = countOverflows();
    const startedAt = Date.now();
    for (const c of clients) c.process.stdin?.write('go\n');
    const rs = await Promise.all(clients.map((c) => c.next<StormResult & { lastAckAt: number }>('result', 900_000)));
    peaks.stop();
    const logins = rs.reduce((n, r) => n + r.logins, 0);
    const failed = rs.reduce((n, r) => n + r.failed, 0);
    const last = Math.max(...rs.map((r) => r.lastAckAt)) - startedAt;
    console.log(
      `${TOTAL} devices across ${WORKERS} gateway workers: ${logins} logins${failed > 0 ? ` (${failed} failed)` : ''}, ` +
        `last ACK after ${round(last / 1000, 2)} s, ${Math.round(logins / (last / 1000))} logins/s; per client round trip ` +
        `p50 ${Math.round(Math.min(...rs.map((r) => r.p50)))}–${Math.round(Math.max(...rs.map((r) => r.p50)))} ms, ` +
        `p99 up to ${Math.round(Math.max(...rs.map((r) => r.p99)))} ms`,
    );
    const overflows = dropped();
    if (overflows !== undefined)
      console.log(`  accept queue overflows (handshakes dropped, retried by the devices): ${overflows}`);
    console.log(`  open files at most (per server process, limit ${fileLimit()}): ${peaks.describe()}`);
    const trouble = server
      .output()
      .split('\n')
      .filter((l) => /error|EMFILE|ENFILE|too many/i.test(l));
    if (trouble.length > 0)
      console.log(`  server said (${trouble.length} lines):\n  ${trouble.slice(0, 10).join('\n  ')}`);
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await server.stop();
    await nats.stop();
  }
}

const rate = (r: StormResult) => r.logins / (r.lastAckMs / 1000);
/** The soft open-files limit of this process (the server processes inherit it). */
function fileLimit(): string {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return line?.split(/\s{2,}/)[1] ?? '?';
}

/** Samples the open files of a process and its descendants every 250 ms (Linux /proc), keeping each one's peak. */
function watchFiles(root: number): { stop(): void; describe(): string } {
  const peak = new Map<number, number>();
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const sample = () => {
    const stack = [root];
    while (stack.length > 0) {
      const pid = stack.pop() as number;
      try {
        const n = readdirSync(`/proc/${pid}/fd`).length;
        peak.set(pid, Math.max(peak.get(pid) ?? 0, n));
      } catch {}
      stack.push(...children(pid));
    }
  };
  const timer = setInterval(sample, 250);
  return {
    stop: () => clearInterval(timer),
    describe: () =>
      [...peak]
        .filter(([, n]) => n > 50)
        .map(([pid, n]) => `${pid}: ${n}`)
        .join(', '),
  };
}

const sum = (results: Record<string, Pair>, which: 'bare' | 'gateway') => {
  const rs = Object.values(results).map((r) => r[which]);
  const logins = rs.reduce((n, r) => n + r.logins, 0);
  const seconds = rs.reduce((n, r) => n + r.lastAckMs / 1000, 0);
  return { logins, seconds, rate: logins / seconds };
};
const median = <T>(items: T[], by: (t: T) => number): T =>
  [...items].sort((a, b) => by(a) - by(b))[(items.length - 1) >> 1];
const verdict = (ratio: number) => `target ≥ 0.7, ${ratio >= 0.7 ? 'met' : 'NOT met'}`;
const extra: Record<string, number> = { rounds: rounds.length };
for (const protocol of PROTOCOLS) {
  const pairs = rounds.map((r) => r[protocol]);
  const ratioOf = (p: Pair) => rate(p.gateway) / rate(p.bare);
  const mid = median(pairs, ratioOf);
  console.log(
    `${protocol}: ratio per round ${pairs.map((p) => round(ratioOf(p), 2)).join(', ')}; median round: gateway ` +
      `${Math.round(rate(mid.gateway))} logins/s (last ACK ${round(mid.gateway.lastAckMs / 1000, 2)} s), bare ` +
      `${Math.round(rate(mid.bare))}/s (${round(mid.bare.lastAckMs / 1000, 2)} s): ${round(ratioOf(mid), 2)} of the bare server (${verdict(ratioOf(mid))})`,
  );
  extra[`${protocol}Ratio`] = round(ratioOf(mid), 3);
  extra[`${protocol}LastAckS`] = round(mid.gateway.lastAckMs / 1000, 2);
  extra[`${protocol}BareLastAckS`] = round(mid.bare.lastAckMs / 1000, 2);
  extra[`${protocol}P50Ms`] = Math.round(mid.gateway.p50);
  extra[`${protocol}P99Ms`] = Math.round(mid.gateway.p99);
}
const overall = rounds.map((r) => ({ g: sum(r, 'gateway'), b: sum(r, 'bare') }));
const mid = median(overall, (o) => o.g.rate / o.b.rate);
console.log(
  `all: ratio per round ${overall.map((o) => round(o.g.rate / o.b.rate, 2)).join(', ')}; median round: gateway ${mid.g.logins} logins in ` +
    `${round(mid.g.seconds, 2)} s (${Math.round(mid.g.rate)}/s), bare ${mid.b.logins} in ${round(mid.b.seconds, 2)} s ` +
    `(${Math.round(mid.b.rate)}/s): ${round(mid.g.rate / mid.b.rate, 2)} of the bare server (${verdict(mid.g.rate / mid.b.rate)})`,
);
report('storm', mid.g.rate, 'logins/s', mid.b.rate, extra);
process.exit(0);
