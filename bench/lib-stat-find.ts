// Quick check of /api/stat/find alone (no positions, no roll-up): 1,000 devices × 31 daily rows written straight
// into stat_daily, then the HTTP call timed by phase. Not a benchmark of its own (stats.bench.ts is); a helper
// for profiling the read:  node --import tsx bench/lib-stat-find.ts

import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.ts';
import { startServer } from '../apps/server/src/main.ts';
import {
  DAILY_JSON_DAYS_SQL,
  DAILY_SORT_MEMORY,
  dailyJsonParams,
  dailyPageJson,
  pageJsonPieces,
} from '../apps/server/src/modules/stat/daily.ts';
import { selectDevices } from '../apps/server/src/modules/stat/select.ts';
import { BENCH_ADMIN_PASSWORD, percentile, round, scratchPostgres } from './lib-gateway-db.ts';

const DEVICES = 1000;
const DAYS = 30;

async function main(): Promise<void> {
  const store = await scratchPostgres('carhere_bench_statfind');
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
    const dayMs = 86_400_000;
    const end = Math.floor(Date.now() / dayMs) * dayMs - dayMs;
    const start = end - DAYS * dayMs;
    await pool.query(
      `INSERT INTO devices (terminal_id, user_id, protocol) SELECT '86100000' || lpad(g::text, 7, '0'), 2, 2 FROM generate_series(1, $1::int) g`,
      [DEVICES],
    );
    await pool.query(
      `INSERT INTO stat_daily (device_id, day, mileage, run_seconds, stop_count, stop_seconds, engine_seconds, idle_seconds, max_speed, overspeed_count, alarm_count)
       SELECT d.id, $1::date + g, 12345.6 + d.id, 3600, 3, 7200, 5000, 600, 88.5, 1, 2 FROM devices d, generate_series(0, $2::int) g`,
      [new Date(start).toISOString().slice(0, 10), DAYS],
    );
    await pool.query('ANALYZE stat_daily');
    const login = await fetch(`${running.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    const body = JSON.stringify({ userId: '2', children: true, startTime: start, endTime: end - 1, pageSize: 100_000 });
    const caller = { id: '1', role: 1, path: '/1/' } as never;
    const phases: Record<string, number[]> = { select: [], query: [], json: [], http: [] };
    for (let r = 0; r < 8; r++) {
      let s = performance.now();
      const devices = await selectDevices(running.ctx, caller, { userId: '2', children: true });
      phases.select.push(performance.now() - s);
      s = performance.now();
      const jp = dailyJsonParams(devices, start, end - 1);
      const client = await pool.connect();
      await client.query('BEGIN');
      await client.query(`SET LOCAL work_mem = '${DAILY_SORT_MEMORY}'`);
      await client.query({ text: DAILY_JSON_DAYS_SQL, values: [...jp.values, 0, 100_000], rowMode: 'array' });
      await client.query('COMMIT');
      client.release();
      phases.query.push(performance.now() - s);

      s = performance.now();
      const text = [...pageJsonPieces(await dailyPageJson(pool, devices, start, end - 1, 0, 100_000))].join('');
      phases.json.push(performance.now() - s);
      s = performance.now();
      const res = await fetch(`${running.url}/api/stat/find`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body,
      });
      const got = await res.text();
      phases.http.push(performance.now() - s);
      if (r === 0) console.log(`  ${text.length} chars, http ${got.length} chars`);
    }
    for (const [k, v] of Object.entries(phases)) {
      console.log(
        `  ${k}: p50 ${round(
          percentile(
            [...v].sort((a, b) => a - b),
            50,
          ),
        )} ms`,
      );
    }
    console.log(`  load average ${round(loadavg()[0], 2)}`);
  } finally {
    await running.stop();
    await store.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
