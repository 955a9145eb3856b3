// Load generator for the gateway benchmarks, run as its own process so it does not share an event loop with
// the server it measures:  node --import tsx bench/lib-gateway-load.ts '<json options>'
//   mode ingest: N devices send positions as fast as the ACKs come back (window of unACKed fixes); prints the
//                ACKed rate over the measuring window.
//   mode live:   N devices send at a fixed total rate; a WebSocket client (logged in) receives the positions;
//                prints the device-to-browser latency percentiles.
//   mode idle:   opens N device connections that log in and then stay silent; prints when all are up and
//                holds them until killed.
//   mode storm:  opens N device connections all at once (a reconnect storm); each logs in (GT06 login, or a
//                JT/T 808 authentication with the code it holds) as soon as it is connected; prints the time to
//                the last login ACK and the login round trips (login sent → ACK received), then holds them.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  gt06Login,
  Jt808ServerReader,
  Jt808Terminal,
  SimulatedDevice,
  seededRandom,
  VehicleTrack,
} from '@carhere/simulator';
import WebSocket from 'ws';

interface Common {
  host: string;
  port: number;
  protocol: 'gt06' | 'jt808';
  first: string;
  devices: number;
}
interface IngestOptions extends Common {
  mode: 'ingest';
  window: number;
  warmupMs: number;
  measureMs: number;
}
interface LiveOptions extends Common {
  mode: 'live';
  ws: string;
  cookie: string;
  rate: number;
  warmupMs: number;
  measureMs: number;
}
interface IdleOptions extends Common {
  mode: 'idle';
  /** Source addresses to spread connections over (127.0.0.x), past the ephemeral port range of one. */
  sources?: string[];
}
interface StormOptions extends Common {
  mode: 'storm';
  /** JT/T 808: the authentication code every terminal holds (registered before the storm). */
  authCode?: string;
  sources?: string[];
  /** Connection attempts outstanding at once (default 1,000). */
  connecting?: number;
  /**
   * Several load processes storming together: print {"event":"ready"} and start on a "go" line on stdin, so that
   * all start at once; the result then also gives the wall-clock time (epoch ms) of the last ACK.
   */
  together?: boolean;
}
type Options = IngestOptions | LiveOptions | IdleOptions | StormOptions;

// The parent holds our stdin open; when it goes away, so do we (after `beforeExit`).
let beforeExit = () => {};
process.stdin.on('close', () => {
  beforeExit();
  process.exit(0);
});
process.stdin.resume();

const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

function ids(first: string, n: number): string[] {
  const base = BigInt(first);
  return Array.from({ length: n }, (_, i) => (base + BigInt(i)).toString().padStart(first.length, '0'));
}

function devices(o: Common): SimulatedDevice[] {
  // Fixes start an hour ago and advance a second each (a fast device catching up on today).
  const start = Date.now() - 3_600_000;
  return ids(o.first, o.devices).map(
    (terminalId, i) =>
      new SimulatedDevice({
        protocol: o.protocol,
        terminalId,
        host: o.host,
        port: o.port,
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
}

async function connectAll(list: SimulatedDevice[]): Promise<void> {
  for (let i = 0; i < list.length; i += 200) await Promise.all(list.slice(i, i + 200).map((d) => d.connect(30_000)));
}

async function ingest(o: IngestOptions): Promise<void> {
  const list = devices(o);
  await connectAll(list);
  out({ event: 'connected', devices: list.length });
  for (const d of list) void d.sendPositions(Number.MAX_SAFE_INTEGER, o.window, 1);
  const total = () => list.reduce((n, d) => n + d.stats.acked, 0);
  await new Promise((r) => setTimeout(r, o.warmupMs));
  const a0 = total();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, o.measureMs));
  const a1 = total();
  const t1 = performance.now();
  out({ event: 'result', acked: a1 - a0, seconds: (t1 - t0) / 1000, rate: (a1 - a0) / ((t1 - t0) / 1000) });
  for (const d of list) d.stop();
}

async function live(o: LiveOptions): Promise<void> {
  const list = devices(o);
  await connectAll(list);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  let received = 0;
  const ws = new WebSocket(o.ws, { headers: { cookie: o.cookie } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('message', (data) => {
    const now = performance.now();
    const m = JSON.parse(String(data)) as { type: string; terminalID?: string; time?: string };
    if (m.type !== 'position') return;
    received++;
    const key = `${m.terminalID}|${m.time}`;
    const t = sentAt.get(key);
    if (t === undefined) return;
    sentAt.delete(key);
    if (measuring) latencies.push(now - t);
  });
  out({ event: 'connected', devices: list.length });
  // A fixed total rate, round-robin over the devices: every 10 ms, whatever brings the count up to rate × elapsed.
  const began = performance.now();
  let next = 0;
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - began) / 1000) * o.rate);
    while (sent < due) {
      const d = list[next];
      next = (next + 1) % list.length;
      const fix = d.o.track.next(1);
      sentAt.set(`${d.o.terminalId}|${new Date(fix.time).toISOString()}`, performance.now());
      d.sendFix(fix);
      sent++;
    }
  }, 10);
  await new Promise((r) => setTimeout(r, o.warmupMs));
  measuring = true;
  const s0 = sent;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, o.measureMs));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 500));
  latencies.sort((a, b) => a - b);
  const pick = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
  out({
    event: 'result',
    rate: (sent - s0) / seconds,
    samples: latencies.length,
    received,
    p50: pick(50),
    p99: pick(99),
    max: latencies[latencies.length - 1],
  });
  ws.close();
  for (const d of list) d.stop();
}

async function idle(o: IdleOptions): Promise<void> {
  const sockets: Socket[] = [];
  // Asked to stop (stdin closed), the connections are reset rather than closed: a closed connection leaves its
  // client port in TIME_WAIT for a minute, and tens of thousands of those make the kernel's port search slow for
  // the next storm's connects (measured: the same bare server answered 10,000 logins in 1.4 s, or in 8–16 s
  // after two earlier storms), which would measure this client's history instead of the server.
  beforeExit = () => {
    for (const s of sockets) if (!s.destroyed) s.resetAndDestroy();
  };
  const sources = o.sources ?? ['127.0.0.1'];
  const list = ids(o.first, o.devices);
  let up = 0;
  let failed = 0;
  const one = (terminalId: string, i: number) =>
    new Promise<void>((resolve) => {
      const s = connect({ host: o.host, port: o.port, localAddress: sources[i % sources.length] });
      s.setNoDelay(true);
      let done = false;
      const finish = (ok: boolean) => {
        if (done) return;
        done = true;
        if (ok) up++;
        else failed++;
        resolve();
      };
      s.on('connect', () => s.write(gt06Login(terminalId, 1)));
      s.once('data', () => finish(true)); // the login ACK
      s.on('error', () => finish(false));
      s.on('close', () => finish(false));
      sockets.push(s);
    });
  for (let i = 0; i < list.length; i += 500) {
    await Promise.all(list.slice(i, i + 500).map((t, k) => one(t, i + k)));
  }
  out({ event: 'up', up, failed });
  // Hold until the parent kills this process.
  setInterval(() => {}, 1 << 30);
}

/** Resolves on a "go" line on stdin. */
function go(): Promise<void> {
  return new Promise((resolve) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += String(chunk);
      if (!buffer.includes('go\n')) return;
      process.stdin.off('data', onData);
      resolve();
    };
    process.stdin.on('data', onData);
  });
}

async function storm(o: StormOptions): Promise<void> {
  if (o.together) {
    const started = go();
    out({ event: 'ready' });
    await started;
  }
  const sockets: Socket[] = [];
  // Asked to stop (stdin closed), the connections are reset rather than closed: a closed connection leaves its
  // client port in TIME_WAIT for a minute, and tens of thousands of those make the kernel's port search slow for
  // the next storm's connects (measured: the same bare server answered 10,000 logins in 1.4 s, or in 8–16 s
  // after two earlier storms), which would measure this client's history instead of the server.
  beforeExit = () => {
    for (const s of sockets) if (!s.destroyed) s.resetAndDestroy();
  };
  const sources = o.sources ?? ['127.0.0.1'];
  const list = ids(o.first, o.devices);
  const rtts: number[] = [];
  let failed = 0;
  let lastAck = 0;
  let lastConnect = 0;
  const began = performance.now();
  await new Promise<void>((resolve) => {
    let pending = list.length;
    const settle = () => {
      if (--pending === 0) resolve();
    };
    // At most `connecting` connection attempts outstanding: beyond the kernel's SYN queue (2,048 here) a flood of
    // SYNs is dropped and retried after 1, 3, 7 s…, and the figure would measure the kernel's retry timers
    // rather than the server. Logins are not limited: each goes out as soon as its connection is up.
    let next = 0;
    const startNext = () => {
      if (next < list.length) open(list[next], next++);
    };
    const open = (terminalId: string, i: number) => {
      const s = connect({ host: o.host, port: o.port, localAddress: sources[i % sources.length] });
      s.setNoDelay(true);
      let sentAt = 0;
      let done = false;
      const finish = (ok: boolean) => {
        if (done) return;
        done = true;
        if (ok) {
          const now = performance.now();
          rtts.push(now - sentAt);
          lastAck = now;
        } else failed++;
        settle();
      };
      const reader = o.protocol === 'jt808' ? new Jt808ServerReader() : null;
      s.on('connect', () => {
        sentAt = performance.now();
        lastConnect = Math.max(lastConnect, sentAt);
        startNext();
        s.write(reader ? new Jt808Terminal(terminalId).auth(1, o.authCode ?? '') : gt06Login(terminalId, 1));
      });
      s.on('data', (chunk: Buffer) => {
        if (!reader) return finish(true); // the GT06 login ACK
        // JT/T 808: the platform's general response (0x8001) to the authentication (0x0102), result 0.
        for (const f of reader.push(chunk)) if (f.answered?.messageId === 0x0102) finish(f.answered.result === 0);
      });
      s.on('error', () => {
        if (sentAt === 0) startNext();
        finish(false);
      });
      s.on('close', () => finish(false));
      sockets.push(s);
    };
    for (let k = 0; k < Math.min(o.connecting ?? 1000, list.length); k++) startNext();
  });
  rtts.sort((a, b) => a - b);
  const pick = (p: number) => rtts[Math.min(rtts.length - 1, Math.max(0, Math.ceil((p / 100) * rtts.length) - 1))];
  out({
    event: 'result',
    lastAckAt: Date.now() - (performance.now() - lastAck),
    logins: rtts.length,
    failed,
    lastAckMs: lastAck - began,
    lastConnectMs: lastConnect - began,
    p50: pick(50),
    p99: pick(99),
  });
  // Hold until the parent kills this process.
  setInterval(() => {}, 1 << 30);
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const run =
  options.mode === 'ingest'
    ? ingest(options)
    : options.mode === 'live'
      ? live(options)
      : options.mode === 'storm'
        ? storm(options)
        : idle(options);
run.then(
  () => {
    if (options.mode !== 'idle' && options.mode !== 'storm') process.exit(0);
  },
  (err) => {
    out({ event: 'error', message: String(err instanceof Error ? err.message : err) });
    process.exit(1);
  },
);
