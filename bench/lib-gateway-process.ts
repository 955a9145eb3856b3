// One gateway process for the connections benchmark:  node --expose-gc --import tsx bench/lib-gateway-process.ts '<json>'
//   {"kind":"gateway","url":"postgres://…","port":N} — the real gateway (sessions, directory, state writer) on a shared database
//   {"kind":"bare","port":N}                        — a bare Node TCP server that only holds the sockets (the baseline);
//                                                     it answers a GT06 login and a JT/T 808 frame with a fixed ACK, no lookup
//   "poolSize" (gateway): database connections (default 4; the server's default is 10)
// Prints {"event":"ready","port":N,"jt808Port":N}; on SIGUSR2 prints {"event":"rss","rss":bytes,"connections":n} after a full GC.
import { createServer, type Socket } from 'node:net';
import { buildJt808Frame, jt808Target } from '@carhere/protocols';
import { startGateway } from '../apps/server/src/gateway/component.ts';
import { gatewayOptionsFrom } from '../apps/server/src/gateway/options.ts';
import { openContext } from './lib-gateway-db.ts';

const o = JSON.parse(process.argv[2] ?? '{}') as {
  kind: 'gateway' | 'bare';
  url?: string;
  port: number;
  poolSize?: number;
};
// The parent holds our stdin open; when it goes away, so do we.
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();

const out = (m: unknown) => process.stdout.write(`${JSON.stringify(m)}\n`);
const gc = (globalThis as { gc?: () => void }).gc;

/** CPU time of this process since it said it was ready (SIGUSR1 → {"event":"cpu","ms":N}). */
let readyCpu = process.cpuUsage();
process.on('SIGUSR1', () => {
  const used = process.cpuUsage(readyCpu);
  out({ event: 'cpu', ms: (used.user + used.system) / 1000 });
});

function measure(connections: () => number): void {
  process.on('SIGUSR2', async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setTimeout(r, 300));
    }
    out({
      event: 'rss',
      rss: process.memoryUsage().rss,
      heap: process.memoryUsage().heapUsed,
      connections: connections(),
    });
  });
}

const GT06_LOGIN_ACK = Buffer.from('787805010001d9dc0d0a', 'hex');
const JT808_AUTH_ACK = buildJt808Frame(
  0x8001,
  jt808Target('000000000000', '2013'),
  1,
  Uint8Array.of(0, 1, 0x01, 0x02, 0),
);

if (o.kind === 'bare') {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('data', (chunk) => {
      // answer the login so the client counts the connection as up (a fixed 10-byte ACK)
      if (chunk[0] === 0x78) s.write(GT06_LOGIN_ACK);
      // a JT/T 808 general response (0x8001) to an authentication (0x0102), result 0
      else if (chunk[0] === 0x7e) s.write(JT808_AUTH_ACK);
    });
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  server.listen({ port: o.port, host: '127.0.0.1', backlog: 65_535 }, () => {
    const port = (server.address() as { port: number }).port;
    readyCpu = process.cpuUsage();
    out({ event: 'ready', port, jt808Port: port });
  });
  measure(() => sockets.size);
} else {
  const { ctx } = await openContext({ kind: 'postgres', env: {}, url: o.url, drop: async () => {} }, o.poolSize ?? 4);
  const base = gatewayOptionsFrom(ctx.config, 'postgres', {});
  const gateway = await startGateway(
    ctx,
    { ...base, host: '127.0.0.1', gt06Port: o.port, jt808Port: 0, osmandPort: 0, idleMs: 3_600_000 },
    { onError: (e) => console.error('gateway:', e) },
  );
  readyCpu = process.cpuUsage();
  out({ event: 'ready', port: gateway.ports.gt06, jt808Port: gateway.ports.jt808 });
  measure(() => gateway.registry.boundCount);
}
