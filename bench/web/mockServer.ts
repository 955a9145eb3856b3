// Serves the built web app with a mocked API: a logged-in admin, 10,000 devices from /api/location/findV2 and
// a WebSocket at /api/ws pushing `updatesPerSecond` position messages (in 20 batches a second).
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer } from 'ws';
import { type FleetDevice, moveMessage, prng, toLocation } from './fleet.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export const ok = (data: unknown) => JSON.stringify({ meta: { success: true, message: 'ok', code: 200 }, data });

export interface MockServer {
  url: string;
  setUpdateRate(perSecond: number): void;
  close(): Promise<void>;
}

/** `distDir` is served at /, each of `extraRoots` ({'/baseline/': dir}) under its prefix. */
export async function startMockServer(
  distDir: string,
  fleet: FleetDevice[],
  extraRoots: Record<string, string> = {},
  /** The answer of /api/track/find (JSON text), when the benchmark plays a track. */
  trackAnswer: () => string = () => ok([]),
): Promise<MockServer> {
  const session = {
    userInfo: {
      id: '1',
      username: 'admin',
      nickname: 'Bench',
      role: 1,
      ancestors: '',
      parentId: null,
      telephone: '',
      email: '',
      address: '',
      mark: '',
      lang: 'cn',
      timeZone: '+08:00',
      expireAt: null,
    },
    permissions: ['*:*:*'],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) {
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/session') return res.end(ok(session));
      if (url.pathname === '/api/location/findV2') {
        const now = Date.now();
        return res.end(ok({ total: fleet.length, list: fleet.map((d) => toLocation(d, now)) }));
      }
      if (url.pathname === '/api/map/getKey') return res.end(ok(null));
      if (url.pathname === '/api/track/find') return res.end(trackAnswer());
      return res.end(ok({ total: 0, list: [] }));
    }
    const prefix = Object.keys(extraRoots).find((p) => url.pathname.startsWith(p));
    const root = prefix ? extraRoots[prefix] : distDir;
    const rel = prefix ? url.pathname.slice(prefix.length - 1) : url.pathname;
    const file = normalize(join(root, rel));
    let path = file.startsWith(root) ? file : join(root, 'index.html');
    try {
      if (!statSync(path).isFile()) path = join(root, 'index.html');
    } catch {
      path = join(root, 'index.html');
    }
    res.setHeader('content-type', TYPES[extname(path)] ?? 'application/octet-stream');
    res.end(readFileSync(path));
  });
  const wss = new WebSocketServer({ server, path: '/api/ws' });
  let rate = 0;
  const rnd = prng(11);
  const timer = setInterval(() => {
    const n = Math.round(rate / 20);
    if (n === 0) return;
    const now = Date.now();
    const frames: string[] = [];
    for (let i = 0; i < n; i++) frames.push(moveMessage(fleet[Math.floor(rnd() * fleet.length)], rnd, now));
    for (const client of wss.clients) for (const f of frames) client.send(f);
  }, 50);
  wss.on('connection', (ws) =>
    ws.send(JSON.stringify({ type: 'hello', userId: '1', serverTime: new Date().toISOString() })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setUpdateRate: (perSecond) => {
      rate = perSecond;
    },
    close: async () => {
      clearInterval(timer);
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
}
