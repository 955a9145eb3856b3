// Ports for servers a test starts in another process (`carhere serve`, `npm start`, nats-server, a private
// PostgreSQL): the test picks the port, releases it, and the child binds it a moment later.
//
// A port from listen(0) is one of the kernel's ephemeral ports (32768–60999 by default), the same range every
// outgoing connection on the machine draws its local port from: in that moment the child's own connections to
// PostgreSQL, or a parallel test's clients, can take it (seen in CI: EADDRINUSE on the gateway's port). So the ports
// come from below the ephemeral range, where no connect() ever lands, each process walking its own stretch of it
// from a start its pid decides, and a port is handed out only if it binds right now.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOW = 10_000;

function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 0 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const HIGH = ephemeralStart() - 1;
const SPAN = HIGH - LOW + 1;
let next = SPAN > 1_000 ? LOW + ((process.pid * 7_919 + Number(process.env.VITEST_POOL_ID ?? 0) * 104_729) % SPAN) : 0;

function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
  });
}

function anyPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolvePort(port));
    });
    s.on('error', reject);
  });
}

/** A port on 127.0.0.1 that is free now and outside the ephemeral range (any free port if that range leaves no room). */
export async function freePort(): Promise<number> {
  if (next === 0) return anyPort();
  for (let tries = 0; tries < 2_000; tries++) {
    const port = next;
    next = next >= HIGH ? LOW : next + 1;
    if (await bindable(port)) return port;
  }
  return anyPort();
}
