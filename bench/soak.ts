// Soak (issue 19): the roles as an operator runs them — `carhere serve --only api` and `--only gateway` on one
// PostgreSQL database (a scratch one on BENCH_DATABASE_URL's server) and a NATS server this script starts — under
// a steady load from a generator process (bench/lib-soak-load.ts): simulated GT06 devices at a fixed total rate,
// browsers (WebSocket clients) on the API process, a command through the API every few seconds.
// Every 10 s it records the RSS of every process (/proc), the sent and acknowledged rates and the live latency.
// At the end: RSS of the api and gateway processes flat (the generator's own is reported beside them), each the
// mean of the last third of the run within 10% of the mean of its second sixth: for
// 30 minutes, minutes 20–30 against minutes 5–10), the p99 live latency, acknowledged fixes lost (acknowledged by
// the gateway but not in the positions table: must be 0), a summary, and an HTML chart of RSS, rate and latency.
// Not in CI.
//
//   npm run soak    SOAK_MINUTES (30), SOAK_DEVICES (10000), SOAK_RATE (5000 positions/s), SOAK_BROWSERS (5),
//                   SOAK_COMMAND_SECONDS (5), SOAK_REPORT (HTML file; default in the temp folder), BENCH_DATABASE_URL
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type CarhereProcess, startCarhere, startNats } from '../apps/server/src/ops/test-support.ts';
import { spawnJsonChild } from './lib-gateway-child.ts';
import {
  BENCH_ADMIN_PASSWORD,
  openContext,
  registerDevices,
  round,
  scratchPostgres,
  terminalIds,
} from './lib-gateway-db.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const DEVICES = Number(process.env.SOAK_DEVICES ?? 10_000);
const RATE = Number(process.env.SOAK_RATE ?? 5000);
const BROWSERS = Number(process.env.SOAK_BROWSERS ?? 5);
const COMMAND_SECONDS = Number(process.env.SOAK_COMMAND_SECONDS ?? 5);
const SAMPLE_SECONDS = 10;
const REPORT = process.env.SOAK_REPORT ?? join(tmpdir(), `carhere-soak-${Date.now()}.html`);
const FIRST = '868500000000000';

interface Sample {
  /** Seconds since the load began. */
  t: number;
  rss: Record<string, number>;
  /** V8 heap in use, MB, per process (its /metrics; the load generator reports its own). */
  heap: Record<string, number>;
  /** Memory outside the V8 heap (Buffers, ArrayBuffers), MB, per process. */
  external: Record<string, number>;
  /** Bus publishes the gateway dropped so far (NATS behind or away; carhere_bus_publish_dropped_total). */
  busDropped: number;
  sentRate: number;
  ackRate: number;
  receivedRate: number;
  /** Live latency samples of the period (fixes the first browser got and matched to their sending). */
  latencySamples: number;
  p50: number | null;
  p99: number | null;
  connected: number;
  /** The load generator's own heap and external memory, MB. */
  loadHeapMb: number;
  loadExternalMb: number;
}

/**
 * A late period: browsers received positions but none of them could be matched to its sending within 60 s
 * (the generator forgets a sent fix after 60 s), i.e. every position arrived more than 60 s late.
 */
const isLate = (s: Sample) => s.receivedRate > 0 && s.latencySamples === 0;

/** The value of one unlabelled series in Prometheus text, or NaN. */
function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{\\})? ([^\\s]+)`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** Heap used and external memory of a Carhere process in MB, from its /metrics (prom-client's default metrics). */
async function memoryOf(baseUrl: string): Promise<{ heap: number; external: number; busDropped: number }> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
    return {
      heap: metricValue(text, 'carhere_nodejs_heap_size_used_bytes') / 2 ** 20,
      external: metricValue(text, 'carhere_nodejs_external_memory_bytes') / 2 ** 20,
      busDropped: metricValue(text, 'carhere_bus_publish_dropped_total'),
    };
  } catch {
    return { heap: Number.NaN, external: Number.NaN, busDropped: Number.NaN };
  }
}

/** Resident set size of a process in MB (Linux /proc). */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** A line chart as inline SVG: one or more series over the run's seconds. */
function chart(title: string, unit: string, samples: Sample[], series: Record<string, (s: Sample) => number>): string {
  const W = 900;
  const H = 220;
  const P = 40;
  const tMax = Math.max(1, ...samples.map((s) => s.t));
  const values = Object.values(series)
    .flatMap((f) => samples.map(f))
    .filter(Number.isFinite);
  const vMax = Math.max(1, ...values) * 1.1;
  const colours = ['#1677ff', '#d4380d', '#389e0d', '#722ed1', '#d48806'];
  const lines = Object.entries(series).map(([name, f], i) => {
    const pts = samples
      .filter((s) => Number.isFinite(f(s)))
      .map((s) => `${P + (s.t / tMax) * (W - 2 * P)},${H - P - (f(s) / vMax) * (H - 2 * P)}`)
      .join(' ');
    const colour = colours[i % colours.length];
    return `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts}"/><text x="${W - P - 150}" y="${P + 14 * i}" fill="${colour}" font-size="12">${name}</text>`;
  });
  return `<h2>${title}</h2><svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" style="border:1px solid #ddd">
<line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" stroke="#999"/><line x1="${P}" y1="${P}" x2="${P}" y2="${H - P}" stroke="#999"/>
<text x="${P}" y="${P - 8}" font-size="11">${round(vMax, 0)} ${unit}</text><text x="${W - P - 40}" y="${H - P + 16}" font-size="11">${round(tMax / 60, 1)} min</text>
${lines.join('\n')}</svg>`;
}

async function main(): Promise<void> {
  console.log(
    `soak: ${MINUTES} min, ${DEVICES} devices at ${RATE} positions/s in total, ${BROWSERS} browsers, a command every ${COMMAND_SECONDS} s`,
  );
  const nats = await startNats();
  const store = await scratchPostgres('carhere_soak');
  const processes: Record<string, CarhereProcess> = {};
  let load: ReturnType<typeof spawnJsonChild> | null = null;
  try {
    const { ctx, close } = await openContext(store);
    await registerDevices(ctx, terminalIds(FIRST, DEVICES), 'gt06');
    await close();
    const env = { DATABASE_URL: store.url as string, BUS_URL: nats.url, LOG_HTTP: '0' };
    processes.api = await startCarhere(['--only', 'api'], env, { timeoutMs: 180_000, direct: true });
    processes.gateway = await startCarhere(['--only', 'gateway'], env, { timeoutMs: 180_000, direct: true });
    const login = await fetch(`${processes.api.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    if (!cookie.startsWith('carhere_sid=')) throw new Error(`login refused (${login.status})`);

    load = spawnJsonChild('lib-soak-load.ts', {
      host: '127.0.0.1',
      gt06Port: processes.gateway.gt06Port,
      api: processes.api.baseUrl,
      cookie,
      first: FIRST,
      devices: DEVICES,
      rate: RATE,
      browsers: BROWSERS,
      commandEverySeconds: COMMAND_SECONDS,
      sampleSeconds: SAMPLE_SECONDS,
    });
    await load.next('connected', 600_000);
    console.log('soak: devices and browsers connected; load running');
    const began = Date.now();
    const samples: Sample[] = [];
    const end = began + MINUTES * 60_000;
    while (Date.now() < end) {
      const s = await load.next<Omit<Sample, 't' | 'rss' | 'heap' | 'external' | 'busDropped'>>(
        'sample',
        SAMPLE_SECONDS * 1000 + 60_000,
      );
      const rss: Record<string, number> = {
        api: rssMb(processes.api.child.pid),
        gateway: rssMb(processes.gateway.child.pid),
        load: rssMb(load.process.pid),
      };
      const [apiMem, gatewayMem] = await Promise.all([
        memoryOf(processes.api.baseUrl),
        memoryOf(processes.gateway.baseUrl),
      ]);
      const heap = { api: apiMem.heap, gateway: gatewayMem.heap, load: s.loadHeapMb };
      const external = { api: apiMem.external, gateway: gatewayMem.external, load: s.loadExternalMb };
      const busDropped = gatewayMem.busDropped;
      const sample: Sample = { ...s, t: (Date.now() - began) / 1000, rss, heap, external, busDropped };
      samples.push(sample);
      const latency = isLate(sample)
        ? 'live LATE (positions received, none within 60 s)'
        : `live p99 ${s.p99 === null ? '–' : round(s.p99, 0)} ms`;
      const mem = (name: string) =>
        `${name} ${round(rss[name], 0)}/${round(heap[name], 0)}/${round(external[name], 0)}`;
      console.log(
        `  ${round(sample.t / 60, 1)} min: sent ${Math.round(s.sentRate)}/s, acked ${Math.round(s.ackRate)}/s, ` +
          `received ${Math.round(s.receivedRate)}/s, ${latency} (${s.latencySamples} samples), ` +
          `MB rss/heap/external: ${mem('api')}, ${mem('gateway')}, ${mem('load')}` +
          (busDropped > 0 ? `, bus publishes dropped ${busDropped}` : ''),
      );
    }
    load.process.stdin?.write('stop\n');
    const result = await load.next<{
      sent: number;
      acked: number;
      unacked: number;
      received: number;
      commands: { sent: number; answered: number; other: number };
    }>('result', 120_000);

    // Acknowledged fixes lost: acknowledged by the gateway (after its commit) but not stored.
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    const stored = Number(
      (
        await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.terminal_id >= $1`,
          [FIRST],
        )
      ).rows[0].n,
    );
    await client.end();
    const lost = Math.max(0, result.acked - stored);

    // RSS flat: the last third of the run against its second sixth (minutes 20–30 against 5–10 of 30).
    const total = MINUTES * 60;
    const windowOf = (from: number, to: number) => samples.filter((s) => s.t > from * total && s.t <= to * total);
    const flat: Record<string, { early: number; late: number; change: number; flat: boolean }> = {};
    /** Heap used and external memory, the same windows (tells a heap leak from buffers and from the allocator). */
    const memory: Record<string, Record<'heap' | 'external', { early: number; late: number; max: number }>> = {};
    for (const name of Object.keys(samples[0]?.rss ?? {})) {
      const early = mean(windowOf(1 / 6, 2 / 6).map((s) => s.rss[name]));
      const late = mean(windowOf(2 / 3, 1).map((s) => s.rss[name]));
      const change = (late - early) / early;
      flat[name] = {
        early: round(early, 0),
        late: round(late, 0),
        change: round(change * 100, 1),
        flat: change <= 0.1,
      };
      const of = (kind: 'heap' | 'external') => {
        const pick = (xs: Sample[]) => xs.map((s) => s[kind][name]).filter(Number.isFinite);
        return {
          early: round(mean(pick(windowOf(1 / 6, 2 / 6))), 0),
          late: round(mean(pick(windowOf(2 / 3, 1))), 0),
          max: round(Math.max(...pick(samples)), 0),
        };
      };
      memory[name] = { heap: of('heap'), external: of('external') };
    }
    const steady = samples.filter((s) => s.t > total / 6);
    const p99s = steady.map((s) => s.p99).filter((v): v is number => v !== null && Number.isFinite(v));
    const summary = {
      minutes: MINUTES,
      devices: DEVICES,
      targetRate: RATE,
      meanSentRate: round(mean(steady.map((s) => s.sentRate)), 0),
      meanAckRate: round(mean(steady.map((s) => s.ackRate)), 0),
      liveP99WorstMs: round(Math.max(...p99s), 0),
      liveP99MedianOfPeriodsMs: round(p99s.sort((a, b) => a - b)[Math.floor(p99s.length / 2)] ?? Number.NaN, 0),
      /** Periods (after the first sixth) whose positions all reached the browsers more than 60 s late. */
      livePeriods: steady.length,
      liveLatePeriods: steady.filter(isLate).length,
      liveSamplesMin: Math.min(...steady.map((s) => s.latencySamples)),
      sent: result.sent,
      acked: result.acked,
      stored,
      ackedLost: lost,
      unackedAtEnd: result.unacked,
      browsersReceived: result.received,
      commands: result.commands,
      rssMb: flat,
      memoryMb: memory,
      gatewayBusPublishesDropped: samples.at(-1)?.busDropped ?? Number.NaN,
    };

    const html = `<!doctype html><meta charset="utf-8"><title>Carhere soak</title><body style="font-family:sans-serif">
<h1>Carhere soak: ${MINUTES} min, ${DEVICES} devices, ${RATE} positions/s</h1><pre>${JSON.stringify(summary, null, 2)}</pre>
${chart('RSS per process', 'MB', samples, { api: (s) => s.rss.api, gateway: (s) => s.rss.gateway, load: (s) => s.rss.load })}
${chart('Gateway memory', 'MB', samples, { rss: (s) => s.rss.gateway, 'heap used': (s) => s.heap.gateway, external: (s) => s.external.gateway })}
${chart('API memory', 'MB', samples, { rss: (s) => s.rss.api, 'heap used': (s) => s.heap.api, external: (s) => s.external.api })}
${chart('Positions per second', '/s', samples, { sent: (s) => s.sentRate, acknowledged: (s) => s.ackRate, 'received (all browsers)': (s) => s.receivedRate })}
${chart('Live latency (device → browser); late periods drawn at 60 s', 'ms', samples, { p50: (s) => s.p50 ?? Number.NaN, p99: (s) => (isLate(s) ? 60_000 : (s.p99 ?? Number.NaN)) })}
${chart('Live latency samples per period', '', samples, { samples: (s) => s.latencySamples })}
</body>`;
    writeFileSync(REPORT, html);
    console.log(JSON.stringify(summary, null, 2));
    console.log(`soak: chart in ${REPORT}`);
    // Flat is asked of the platform's processes; the generator ('load', the bench's own client) is reported beside
    // them (its map of fixes awaiting their browser copy and its sockets' buffers follow the load, not the platform).
    const platformFlat = Object.entries(flat)
      .filter(([name]) => name !== 'load')
      .every(([, f]) => f.flat);
    const ok = lost === 0 && platformFlat;
    console.log(
      JSON.stringify({
        bench: 'soak',
        value: summary.meanAckRate,
        unit: 'acknowledged positions/s',
        baseline: RATE,
        ratio: round(summary.meanAckRate / RATE, 3),
        liveP99Ms: summary.liveP99MedianOfPeriodsMs,
        ackedLost: lost,
        rssFlat: platformFlat ? 'yes' : 'no',
        generatorRssChangePercent: flat.load?.change ?? null,
      }),
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await load?.kill();
    await Promise.all(Object.values(processes).map((p) => p.stop()));
    await store.drop();
    await nats.stop();
  }
}

await main();
