// Load generator of the soak (bench/soak.ts), run as its own process:  node --import tsx bench/lib-soak-load.ts '<json>'
// N GT06 devices send at a fixed total rate (round-robin) to the gateway process; B browsers (WebSocket clients
// of the API process, signed in) receive the live positions; every so often a command goes through the API to a
// device, which answers it. Every 10 s it prints a sample {event:'sample'} of that period (sent and acknowledged
// rates, live latency percentiles from device send to browser receipt, commands answered); at the end
// {event:'result'} with the totals. Stops sending when the parent says so (a 'stop' line on stdin), waits for the
// last acknowledgements, then answers.
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { SimulatedDevice, seededRandom, VehicleTrack } from '@carhere/simulator';
import WebSocket from 'ws';
import { percentile } from './lib-gateway-db.ts';

interface Options {
  host: string;
  gt06Port: number;
  api: string;
  cookie: string;
  first: string;
  devices: number;
  rate: number;
  browsers: number;
  commandEverySeconds: number;
  sampleSeconds: number;
}

const o = JSON.parse(process.argv[2] ?? '{}') as Options;
const out = (m: unknown) => process.stdout.write(`${JSON.stringify(m)}\n`);

function ids(first: string, n: number): string[] {
  const base = BigInt(first);
  return Array.from({ length: n }, (_, i) => (base + BigInt(i)).toString().padStart(first.length, '0'));
}

async function main(): Promise<void> {
  const start = Date.now() - 3_600_000;
  const list = ids(o.first, o.devices).map(
    (terminalId, i) =>
      new SimulatedDevice({
        protocol: 'gt06',
        terminalId,
        host: o.host,
        port: o.gt06Port,
        track: new VehicleTrack({
          centerLat: 39.915,
          centerLon: 116.404,
          radiusKm: 20,
          maxSpeed: 90,
          random: seededRandom(i + 1),
          startTime: start,
        }),
        alarmProbability: 0,
      }),
  );
  for (let i = 0; i < list.length; i += 200) await Promise.all(list.slice(i, i + 200).map((d) => d.connect(60_000)));

  // Browsers: each counts what it receives; latency is taken from the first browser's copy of each fix.
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  let received = 0;
  const sockets: WebSocket[] = [];
  for (let b = 0; b < o.browsers; b++) {
    const ws = new WebSocket(`${o.api.replace('http', 'ws')}/api/ws`, { headers: { cookie: o.cookie } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.on('message', (data) => {
      const now = performance.now();
      const m = JSON.parse(String(data)) as { type: string; terminalID?: string; time?: string };
      if (m.type !== 'position') return;
      received++;
      if (b !== 0) return;
      const key = `${m.terminalID}|${m.time}`;
      const t = sentAt.get(key);
      if (t === undefined) return;
      sentAt.delete(key);
      latencies.push(now - t);
    });
    sockets.push(ws);
  }
  out({ event: 'connected', devices: list.length, browsers: sockets.length });

  // Fixed total rate, round-robin: every 10 ms whatever brings the count up to rate × elapsed.
  const began = performance.now();
  let next = 0;
  let sent = 0;
  const sender = setInterval(() => {
    const due = Math.floor(((performance.now() - began) / 1000) * o.rate);
    while (sent < due) {
      const d = list[next];
      next = (next + 1) % list.length;
      if (!d.connected) continue;
      const fix = d.o.track.next(1);
      sentAt.set(`${d.o.terminalId}|${new Date(fix.time).toISOString()}`, performance.now());
      d.sendFix(fix);
      sent++;
    }
    // Fixes a browser never got (a lost WebSocket message would show as a growing map) are dropped after 60 s.
    if (sentAt.size > o.rate * 60) {
      const old = performance.now() - 60_000;
      for (const [k, t] of sentAt) {
        if (t >= old) break;
        sentAt.delete(k);
      }
    }
  }, 10);

  // Commands through the API, answered by the simulated devices (they reply to every command).
  const commands = { sent: 0, answered: 0, other: 0 };
  const commander = setInterval(() => {
    const d = list[Math.floor(Math.random() * list.length)];
    commands.sent++;
    fetch(`${o.api}/api/tracker_cmd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: o.cookie },
      body: JSON.stringify({ terminalID: d.o.terminalId, content: 'WHERE#', agentName: 'soak' }),
    })
      .then((r) => r.json() as Promise<{ data?: { status?: string } }>)
      .then((b) => {
        if (b.data?.status === 'answered') commands.answered++;
        else commands.other++;
      })
      .catch(() => commands.other++);
  }, o.commandEverySeconds * 1000);

  const acked = () => list.reduce((n, d) => n + d.stats.acked, 0);
  let last = { t: performance.now(), sent: 0, acked: 0, received: 0 };
  const sampler = setInterval(() => {
    const now = performance.now();
    const a = acked();
    const seconds = (now - last.t) / 1000;
    const sorted = latencies.sort((x, y) => x - y);
    const mem = process.memoryUsage();
    out({
      event: 'sample',
      sentRate: (sent - last.sent) / seconds,
      ackRate: (a - last.acked) / seconds,
      receivedRate: (received - last.received) / seconds,
      latencySamples: sorted.length,
      // null when no fix was matched (JSON has no NaN); the parent tells a late period from an idle one.
      p50: sorted.length ? percentile(sorted, 50) : null,
      p99: sorted.length ? percentile(sorted, 99) : null,
      loadHeapMb: mem.heapUsed / 2 ** 20,
      loadExternalMb: mem.external / 2 ** 20,
      commandsSent: commands.sent,
      commandsAnswered: commands.answered,
      connected: list.filter((d) => d.connected).length,
    });
    latencies = [];
    last = { t: now, sent, acked: a, received };
  }, o.sampleSeconds * 1000);

  await new Promise<void>((resolve) => {
    createInterface({ input: process.stdin }).on('line', (line) => {
      if (line.trim() === 'stop') resolve();
    });
  });
  clearInterval(sender);
  clearInterval(commander);
  clearInterval(sampler);
  // The last acknowledgements: until every device has none outstanding (at most 60 s).
  const deadline = Date.now() + 60_000;
  while (list.some((d) => d.outstanding > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  out({
    event: 'result',
    sent,
    acked: acked(),
    unacked: list.reduce((n, d) => n + d.outstanding, 0),
    received,
    commands,
  });
  for (const ws of sockets) ws.close();
  for (const d of list) d.stop();
}

main().then(
  () => process.exit(0),
  (err) => {
    out({ event: 'error', message: String(err instanceof Error ? err.message : err) });
    process.exit(1);
  },
);
