// Profiles POST /api/stat/find for 1,000 devices × 31 days by hand (not a benchmark of its own; stats.bench.ts
// measures it): daily rows written straight into stat_daily, then 20 calls. Run with a CPU profile:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/lib-stat-find.ts
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.ts';
import { startServer } from '../apps/server/src/main.ts';
import { BENCH_ADMIN_PASSWORD, scratchPostgres } from './lib-gateway-db.ts';

/** POST with node:http, the answer's bytes counted, not kept (the client's share of the CPU stays small). */
function post(url: string, cookie: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', cookie } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => {
        n += c.length;
      });
      res.on('end', () => resolve(n));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU time (ms) the PostgreSQL backends of the database have used so far (/proc, in 10 ms ticks). */
async function databaseCpuMs(pool: import('pg').Pool): Promise<number> {
  const pids = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  let ticks = 0;
  for (const { pid } of pids.rows) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

const store = await scratchPostgres('carhere_stat_find');
const running = await startServer(
  {
    ...loadConfig({ ...process.env, DEMO: '0' }),
    databaseUrl: store.url,
    dataDir: 'memory://',
    port: 0,
    host: '127.0.0.1',
    adminPassword: BENCH_ADMIN_PASSWORD,
    webDist: '/nonexistent',
  },
  { listen: true },
);
try {
  const pool = running.ctx.dbHandle.pool;
  await pool.query(
    `INSERT INTO devices (terminal_id, user_id, protocol) SELECT '86100000' || lpad(g::text, 7, '0'), 2, 2 FROM generate_series(1, 1000) g`,
  );
  await pool.query(
    `INSERT INTO stat_daily (device_id, day, mileage, run_seconds, stop_count, row_json)
     SELECT d.id, date '2026-10-01' + g, 1000 + d.id % 97, 3600, 2,
       '"id":"' || d.id || '-' || (date '2026-10-01' + g) || '","statsticDate":"' || (date '2026-10-01' + g) ||
       '","statsticState":"final","mileage":1234,"runSeconds":3600,"stopCount":2,"stopSeconds":0,"engineSeconds":0,"idleSeconds":0,"maxSpeed":50,"overspeedCount":0,"alarmCount":0}'
     FROM devices d, generate_series(0, 30) g`,
  );
  await pool.query('VACUUM (ANALYZE) stat_daily');
  const login = await fetch(`${running.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  const cookie = String(login.headers.get('set-cookie')).split(';')[0];
  const body = JSON.stringify({
    userId: '2',
    children: true,
    startTime: Date.UTC(2026, 8, 30, 16),
    endTime: Date.UTC(2026, 9, 31, 15),
    pageSize: 100_000,
  });
  for (let r = 0; r < 20; r++) {
    const s = performance.now();
    const c = process.cpuUsage();
    const db = await databaseCpuMs(pool);
    const bytes = await post(`${running.url}/api/stat/find`, cookie, body);
    const u = process.cpuUsage(c);
    const dbUsed = (await databaseCpuMs(pool)) - db;
    console.log(
      `${bytes} bytes in ${Math.round(performance.now() - s)} ms, CPU ${Math.round((u.user + u.system) / 1000)} ms, database CPU ${dbUsed} ms`,
    );
  }
} finally {
  await running.stop();
  await store.drop();
}
