// Soak (issue 19): the roles as an operator runs them — `carhere serve --only api` and `--only gateway` on one
// PostgreSQL database (a scratch one on BENCH_DATABASE_URL's server) and a NATS server this script starts — under
// a steady load from a generator process (bench/lib-soak-load.ts): simulated GT06 devices at a fixed total rate,
// browsers (WebSocket clients) on the API process, a command through the API every few seconds.
// Every 10 s it records the RSS of every process (/proc), the sent and acknowledged rates and the live latency.
// At the end: RSS flat (the mean of the last third of the run within 10% of the mean of its second sixth: for
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
  sentRate: number;
  ackRate: number;
  receivedRate: number;
  p50: number;
  p99: number;
  connected: number;
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
      const s = await load.next<Omit<Sample, 't' | 'rss'>>('sample', SAMPLE_SECONDS * 1000 + 60_000);
      const rss: Record<string, number> = {
        api: rssMb(processes.api.child.pid),
        gateway: rssMb(processes.gateway.child.pid),
        load: rssMb(load.process.pid),
      };
      const sample = { ...s, t: (Date.now() - began) / 1000, rss };
      samples.push(sample);
      console.log(
        `  ${round(sample.t / 60, 1)} min: sent ${Math.round(s.sentRate)}/s, acked ${Math.round(s.ackRate)}/s, ` +
          `live p99 ${round(s.p99, 0)} ms, RSS api ${round(rss.api, 0)} MB, gateway ${round(rss.gateway, 0)} MB`,
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
    }
    const steady = samples.filter((s) => s.t > total / 6);
    const p99s = steady.map((s) => s.p99).filter(Number.isFinite);
    const summary = {
      minutes: MINUTES,
      devices: DEVICES,
      targetRate: RATE,
      meanSentRate: round(mean(steady.map((s) => s.sentRate)), 0),
      meanAckRate: round(mean(steady.map((s) => s.ackRate)), 0),
      liveP99WorstMs: round(Math.max(...p99s), 0),
      liveP99MedianOfPeriodsMs: round(p99s.sort((a, b) => a - b)[Math.floor(p99s.length / 2)] ?? Number.NaN, 0),
      sent: result.sent,
      acked: result.acked,
      stored,
      ackedLost: lost,
      unackedAtEnd: result.unacked,
      browsersReceived: result.received,
      commands: result.commands,
      rssMb: flat,
    };

    const html = `<!doctype html><meta charset="utf-8"><title>Carhere soak</title><body style="font-family:sans-serif">
<h1>Carhere soak: ${MINUTES} min, ${DEVICES} devices, ${RATE} positions/s</h1><pre>${JSON.stringify(summary, null, 2)}</pre>
${chart('RSS per process', 'MB', samples, { api: (s) => s.rss.api, gateway: (s) => s.rss.gateway, load: (s) => s.rss.load })}
${chart('Positions per second', '/s', samples, { sent: (s) => s.sentRate, acknowledged: (s) => s.ackRate })}
${chart('Live latency (device → browser)', 'ms', samples, { p50: (s) => s.p50, p99: (s) => s.p99 })}
</body>`;
    writeFileSync(REPORT, html);
    console.log(JSON.stringify(summary, null, 2));
    console.log(`soak: chart in ${REPORT}`);
    const ok = lost === 0 && Object.values(flat).every((f) => f.flat);
    console.log(
      JSON.stringify({
        bench: 'soak',
        value: summary.meanAckRate,
        unit: 'acknowledged positions/s',
        baseline: RATE,
        ratio: round(summary.meanAckRate / RATE, 3),
        liveP99Ms: summary.liveP99MedianOfPeriodsMs,
        ackedLost: lost,
        rssFlat: ok ? 'yes' : 'no',
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
