// Vehicle checks (checkCar point and area) over one day of 10,000 devices, end to end through the HTTP API, on a
// PostgreSQL server (and on PGlite with CHECKS_PGLITE=1). Fixes every CHECKS_STEP_S seconds (default 120: 720 a
// device, 7.2 million in all) of devices driving loops around their own centres spread over a 0.6° × 0.6° city.
// Target: a point check (radius 500 m, the whole day) answers in < 1 s. Baseline in the same run: the same fixes
// found by a scan of the day's positions (time range and box filters, no grid index), through the query layer.
// The reported value is the point check through the HTTP API (median of 5 after one warm-up).
//
//   npm run bench -- checks
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.ts';
import { PartitionManager } from '../apps/server/src/gateway/ingest/partitions.ts';
import { startServer } from '../apps/server/src/main.ts';
import { boxAround } from '../apps/server/src/modules/checks/grid.ts';
import { fixesInBox, fixesInBoxByScan } from '../apps/server/src/modules/checks/queries.ts';
import { BENCH_ADMIN_PASSWORD, report, round, type Store, scratchPglite, scratchPostgres } from './lib-gateway-db.ts';

const DEVICES = 10_000;
const STEP_S = Number(process.env.CHECKS_STEP_S ?? 120);
const DAY_MS = 86_400_000;
const RUNS = 5;
const TARGET_MS = 1000;
const POINT = { lat: 39.9, lon: 116.4, radius: 500 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function measure(store: Store) {
  const running = await startServer(
    {
      ...loadConfig({ ...process.env, DEMO: '0' }),
      ...store.env,
      databaseUrl: store.url,
      dataDir: store.dir ?? 'memory://',
      port: 0,
      host: '127.0.0.1',
      adminPassword: BENCH_ADMIN_PASSWORD,
      webDist: '/nonexistent',
    },
    { listen: true },
  );
  try {
    const pool = running.ctx.dbHandle.pool;
    const end = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
    const start = end - DAY_MS;
    await new PartitionManager(pool).ensure([start, end]);
    // Devices of the seeded end user (id 2, below the admin), centres spread over the city.
    await pool.query(
      `INSERT INTO devices (id, terminal_id, user_id, protocol)
       SELECT 100000 + g, '86300' || lpad(g::text, 10, '0'), 2, 2 FROM generate_series(1, $1::int) g`,
      [DEVICES],
    );
    const steps = Math.floor(DAY_MS / (STEP_S * 1000));
    const t0 = performance.now();
    // Hour by hour, every device's fixes of that hour, interleaved as live ingest writes them.
    const perHour = Math.ceil(steps / 24);
    for (let h = 0; h < 24; h++) {
      await pool.query(
        `INSERT INTO positions (device_id, time, lat, lon, speed, course, valid, location_type)
         SELECT 100000 + dev, to_timestamp(($1::float8 + i::float8 * ${STEP_S * 1000}) / 1000),
                39.6 + ((dev * 7919) % 600) / 1000.0 + 0.015 * sin(i / 15.0 + dev),
                116.1 + ((dev * 104729) % 600) / 1000.0 + 0.015 * cos(i / 19.0 + dev),
                30, (i % 360)::real, true, 'gps'
           FROM generate_series($2::int, $3::int) i, generate_series(1, $4::int) dev ORDER BY i, dev`,
        [start, h * perHour, Math.min(steps - 1, (h + 1) * perHour - 1), DEVICES],
      );
    }
    await pool.query('VACUUM ANALYZE');
    const fixes = steps * DEVICES;
    console.log(
      `  ${store.kind}: ${fixes.toLocaleString('en')} fixes of ${DEVICES} devices (every ${STEP_S} s, one day) written in ${round((performance.now() - t0) / 1000)} s`,
    );

    const login = await fetch(`${running.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    const post = async (url: string, body: unknown) => {
      const res = await fetch(`${running.url}/api${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { meta: { success: boolean; message: string }; data: { total: number } };
      if (!json.meta.success) throw new Error(`${url}: ${json.meta.message}`);
      return json.data;
    };
    const pointBody = { ...POINT, startTime: start, endTime: end };
    const box = { minLat: 39.88, maxLat: 39.92, minLon: 116.38, maxLon: 116.42 };
    const areaBody = { ...box, startTime: start, endTime: end };
    await post('/checkCar/point', pointBody);

    const pointTimes: number[] = [];
    const areaTimes: number[] = [];
    const scanTimes: number[] = [];
    const gridTimes: number[] = [];
    let pointDevices = 0;
    let areaDevices = 0;
    let rowsGrid = 0;
    let rowsScan = 0;
    const circleBox = boxAround(POINT.lat, POINT.lon, POINT.radius);
    for (let r = 0; r < RUNS; r++) {
      let t = performance.now();
      pointDevices = (await post('/checkCar/point', pointBody)).total;
      pointTimes.push(performance.now() - t);

      t = performance.now();
      areaDevices = (await post('/checkCar/area', areaBody)).total;
      areaTimes.push(performance.now() - t);

      t = performance.now();
      rowsGrid = (await fixesInBox(running.ctx, '/1/', circleBox, new Date(start), new Date(end))).rows.length;
      gridTimes.push(performance.now() - t);

      t = performance.now();
      rowsScan = (await fixesInBoxByScan(running.ctx, '/1/', circleBox, new Date(start), new Date(end))).length;
      scanTimes.push(performance.now() - t);
    }
    if (rowsGrid !== rowsScan) throw new Error(`grid read ${rowsGrid} fixes, the scan ${rowsScan}`);
    const result = {
      point: median(pointTimes),
      area: median(areaTimes),
      grid: median(gridTimes),
      scan: median(scanTimes),
      pointDevices,
      areaDevices,
      rows: rowsGrid,
    };
    console.log(
      `  ${store.kind}: point check (r ${POINT.radius} m, 24 h) ${round(result.point)} ms over HTTP (${pointDevices} devices passed), ` +
        `area check (0.04° box, 24 h) ${round(result.area)} ms (${areaDevices} devices); ` +
        `fixes of the circle's box: grid index ${round(result.grid)} ms, scan ${round(result.scan)} ms (${rowsGrid} fixes)` +
        `; target < ${TARGET_MS} ms: ${result.point < TARGET_MS ? 'met' : 'NOT met'}`,
    );
    return result;
  } finally {
    await running.stop();
  }
}

const pgStore = await scratchPostgres('carhere_bench_checks');
let pg: Awaited<ReturnType<typeof measure>>;
try {
  pg = await measure(pgStore);
} finally {
  await pgStore.drop();
}
if (process.env.CHECKS_PGLITE === '1') {
  const liteStore = scratchPglite();
  try {
    await measure(liteStore);
  } finally {
    await liteStore.drop();
  }
}
report('checks', pg.point, 'ms', pg.scan, {
  area: round(pg.area, 2),
  gridQuery: round(pg.grid, 2),
  devices: DEVICES,
  fixes: Math.floor(DAY_MS / (STEP_S * 1000)) * DEVICES,
});
