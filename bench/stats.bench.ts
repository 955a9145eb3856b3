// Statistics (issue 13), on PostgreSQL (BENCH_DATABASE_URL or the local server):
//  1. 1,000 devices × 30 days of fixes, rolled up into daily rows by the real aggregation path (dirty marks →
//     runRollup, the code the roll-up job runs); then POST /api/stat/find for all 1,000 devices over 30 days
//     through HTTP (target p50 < 150 ms), with the query plan of the daily-rows read. Baseline in the same run:
//     the same answer computed from the raw positions (the roll-up of all 30,000 device-days).
//  2. One device's 90 days at 10 s (777,600 fixes) recomputed into stays and trips (target < 500 ms).
//  3. Ingest through the batcher with aggregation on (dirty marks in the same statement, roll-up requests to the
//     job queue, the roll-up job running) vs off, same records, same run (target ratio ≥ 0.9).
//
//   npm run bench -- stats
import { readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { findStays, findTrips } from '@carhere/domain';
import { MemoryBus } from '../apps/server/src/bus/memory.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { DeviceRef } from '../apps/server/src/gateway/directory.ts';
import { IngestBatcher } from '../apps/server/src/gateway/ingest/batcher.ts';
import { PartitionManager } from '../apps/server/src/gateway/ingest/partitions.ts';
import { DeviceStateWriter } from '../apps/server/src/gateway/ingest/state-writer.ts';
import type { IngestRecord, StoredPosition } from '../apps/server/src/gateway/ingest/types.ts';
import { startServer } from '../apps/server/src/main.ts';
import {
  DAILY_ALL_DAYS_SETTINGS,
  DAILY_JSON_ALL_DAYS_SQL,
  dailyJsonParams,
} from '../apps/server/src/modules/stat/daily.ts';
import { runExport } from '../apps/server/src/modules/stat/export.ts';
import { RollupRequester } from '../apps/server/src/modules/stat/jobs.ts';
import { markForRebuild, runRollup } from '../apps/server/src/modules/stat/rollup.ts';
import { selectDevices } from '../apps/server/src/modules/stat/select.ts';
import { BENCH_ADMIN_PASSWORD, percentile, report, round, scratchPostgres } from './lib-gateway-db.ts';

const DEVICES = 1000;
const DAYS = 30;
/** Fixes every 30 min (48 a day): 1.44 M fixes; half moving, half standing, so days have stays and trips. */
const STEP_MIN = 30;
const RUNS = 9;

/** A full garbage collection before each memory measurement (the benchmark runs without --expose-gc). */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * CPU time (ms) the PostgreSQL backends serving the bench database have used so far (utime + stime of
 * /proc/PID/stat, in clock ticks of 10 ms), when the server runs on this machine; null otherwise.
 */
async function databaseCpuMs(pool: import('pg').Pool): Promise<number | null> {
  const pids = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  let ticks = 0;
  for (const { pid } of pids.rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks * 10;
}

/**
 * POST with node:http, the answer as its chunks: a light client (undici's fetch spent about as much CPU reading
 * the 9 MB answer as the server spent writing it), so the process's CPU per call is mostly the server's.
 */
function post(url: string, cookie: string, body: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(chunks));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
}

async function main(): Promise<void> {
  const store = await scratchPostgres('carhere_bench_stats');
  const running = await startServer(
    {
      ...loadConfig({ ...process.env, DEMO: '0' }),
      databaseUrl: store.url,
      dataDir: 'memory://',
      port: 0,
      host: '127.0.0.1',
      adminPassword: BENCH_ADMIN_PASSWORD,
      webDist: '/nonexistent',
      statsRollupDelaySeconds: 1,
    },
    { listen: true },
  );
  try {
    const pool = running.ctx.dbHandle.pool;
    // ---- 1. daily rows for 1,000 devices × 30 days, then /api/stat/find
    const dayMs = 86_400_000;
    const end = Math.floor(Date.now() / dayMs) * dayMs - dayMs;
    const start = end - DAYS * dayMs;
    await new PartitionManager(pool).ensure(Array.from({ length: DAYS + 2 }, (_, d) => start + d * dayMs));
    await pool.query(
      `INSERT INTO devices (terminal_id, user_id, protocol) SELECT '86100000' || lpad(g::text, 7, '0'), 2, 2 FROM generate_series(1, $1::int) g`,
      [DEVICES],
    );
    const perDay = (24 * 60) / STEP_MIN;
    let t0 = performance.now();
    for (let d = 0; d < DAYS; d++) {
      await pool.query(
        `INSERT INTO positions (device_id, time, lat, lon, speed, course, valid, location_type, acc)
         SELECT dev.id, to_timestamp(($1::float8 + i * ${STEP_MIN * 60_000}) / 1000),
                39.9 + (dev.id % 50) * 0.01 + (i / 6) * 0.02, 116.3 + (dev.id % 37) * 0.01,
                CASE WHEN i % 6 < 3 THEN 50 ELSE 0 END, 0, true, 'gps', i % 6 < 4
           FROM generate_series(0, $2::int - 1) i, devices dev`,
        [start + d * dayMs, perDay],
      );
    }
    await pool.query('ANALYZE positions');
    const fixes = DEVICES * DAYS * perDay;
    console.log(
      `  ${fixes} fixes of ${DEVICES} devices over ${DAYS} days written in ${round((performance.now() - t0) / 1000)} s`,
    );
    t0 = performance.now();
    await markForRebuild(pool, start, end);
    const rolled = await runRollup(pool);
    const rollupMs = performance.now() - t0;
    // Vacuumed as autovacuum does after a bulk write (visibility map set): past days' rows are read by an
    // index-only scan; right after the roll-up every read would still visit the table.
    await pool.query('VACUUM (ANALYZE) stat_daily');
    console.log(
      `  roll-up (the job's code): ${rolled.devices} devices, ${rolled.days} daily rows in ${round(rollupMs / 1000)} s` +
        ` — answering from raw positions costs this much (baseline)`,
    );

    const login = await fetch(`${running.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    const body = JSON.stringify({ userId: '2', children: true, startTime: start, endTime: end - 1, pageSize: 100_000 });
    const times: number[] = [];
    /** CPU time of this process (server and client) per call: less swayed by other processes than wall time. */
    const cpuTimes: number[] = [];
    /** CPU time of the database backends per call (the query's own work, whatever else the machine runs). */
    const dbCpuTimes: number[] = [];
    let total = 0;
    let bytes = 0;
    let lastBody: Buffer[] = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const dbBefore = await databaseCpuMs(pool);
      const s = performance.now();
      const cpu = process.cpuUsage();
      // The body as bytes: decoding 9 MB of text is the client's work, not the server's (decoded once, below).
      const bytesIn = await post(`${running.url}/api/stat/find`, cookie, body);
      const took = performance.now() - s;
      const used = process.cpuUsage(cpu);
      const dbAfter = await databaseCpuMs(pool);
      if (r > 0) {
        times.push(took); // the first warms the route
        cpuTimes.push((used.user + used.system) / 1000);
        if (dbBefore !== null && dbAfter !== null) dbCpuTimes.push(dbAfter - dbBefore);
      }
      lastBody = bytesIn;
    }
    // Parsed once, after the timed calls: 31,000 parsed rows are the client's garbage, not the server's.
    total = (JSON.parse(Buffer.concat(lastBody).toString('utf8')) as { data: { total: number } }).data.total;
    bytes = lastBody.reduce((n, c) => n + c.length, 0);
    const p50 = median(times);
    console.log(`  load average (1 min) ${round(loadavg()[0], 2)} — figures measured on a shared machine`);
    console.log(
      `  /api/stat/find, ${DEVICES} devices × ${DAYS} days: ${total} rows (${round(bytes / 1e6)} MB), p50 ${round(p50)} ms, max ${round(Math.max(...times))} ms (target p50 < 150 ms); Node CPU (server + node:http client) p50 ${round(median(cpuTimes))} ms, database CPU p50 ${dbCpuTimes.length > 0 ? `${round(median(dbCpuTimes))} ms` : 'not measurable (remote server)'}`,
    );
    const ids = (await pool.query<{ id: string }>('SELECT id FROM devices ORDER BY id')).rows.map((r) => r.id);
    const statDevices = await selectDevices(running.ctx, { id: '1', role: 1, path: '/1/' } as never, {
      userId: '2',
      children: true,
    });
    const jsonParams = dailyJsonParams(statDevices, start, end - 1);
    const planClient = await pool.connect();
    await planClient.query('BEGIN');
    for (const setting of DAILY_ALL_DAYS_SETTINGS) await planClient.query(setting);
    const plan = await planClient.query(`EXPLAIN (ANALYZE, BUFFERS) ${DAILY_JSON_ALL_DAYS_SQL}`, jsonParams.values);
    await planClient.query('COMMIT');
    planClient.release();
    console.log('  query plan of the daily-rows read:');
    for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`    ${row['QUERY PLAN']}`);

    // ---- 2. stays and trips of 777,600 fixes
    const n = 777_600;
    const cols = {
      length: n,
      times: new Float64Array(n),
      lats: new Float64Array(n),
      lons: new Float64Array(n),
      speeds: new Float64Array(n),
      acc: new Int8Array(n),
    };
    for (let i = 0; i < n; i++) {
      const cycle = i % 360;
      cols.times[i] = start + i * 10_000;
      cols.speeds[i] = cycle < 180 ? 60 : 0;
      cols.lats[i] = 39.9 + Math.sin(i / 5000) * 0.05;
      cols.lons[i] = 116.3 + Math.floor(i / 360) * 0.001 + Math.min(cycle, 180) * 0.0017;
      cols.acc[i] = cycle < 190 ? 1 : 0;
    }
    const stayTimes: number[] = [];
    const stayCpu: number[] = [];
    let stays = 0;
    let trips = 0;
    for (let r = 0; r < 7; r++) {
      const s = performance.now();
      const c = process.cpuUsage();
      const found = findStays(cols);
      trips = findTrips(cols, found).length;
      stays = found.length;
      const used = process.cpuUsage(c);
      stayTimes.push(performance.now() - s);
      stayCpu.push((used.user + used.system) / 1000);
    }
    const stayMs = median(stayTimes);
    console.log(
      `  ${n} fixes → ${stays} stays and ${trips} trips in ${round(stayMs)} ms wall, ${round(median(stayCpu))} ms CPU (median of 7; target < 500 ms)`,
    );

    // ---- 2b. export (countExport) of 10,000 and 100,000 daily rows: peak memory growth while writing the xlsx
    const extraDays = 70; // 1,000 devices × 100 days = 100,000 rows
    await pool.query(
      `INSERT INTO stat_daily (device_id, day, mileage, run_seconds, stop_count, alarm_count)
       SELECT d.id, ($1::date - g), 1000 + d.id % 97, 3600, 2, 0 FROM devices d, generate_series(1, $2::int) g
       ON CONFLICT DO NOTHING`,
      [new Date(start + 8 * 3_600_000).toISOString().slice(0, 10), extraDays],
    );
    const exportStart = start - extraDays * dayMs;
    const exportOnce = async (deviceIds: string[]) => {
      const row = await pool.query<{ id: string }>(
        `INSERT INTO stat_exports (user_id, kind, params) VALUES (1, 'find', $1) RETURNING id`,
        [JSON.stringify({ deviceIds, startTime: exportStart, endTime: end - 1, pageNum: 1, pageSize: 100_000 })],
      );
      gc();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      let peakBuffers = before.arrayBuffers;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
        peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
      }, 10);
      // Live memory (what the export holds, not garbage): a full collection, then heap and buffers, after each
      // progress step (a chunk of devices written) and every 2 s.
      let liveHeap = before.heapUsed;
      let liveBuffers = before.arrayBuffers;
      const live = () => {
        gc();
        const m = process.memoryUsage();
        liveHeap = Math.max(liveHeap, m.heapUsed);
        liveBuffers = Math.max(liveBuffers, m.arrayBuffers);
      };
      const liveSampler = setInterval(live, 2000);
      const s = performance.now();
      await runExport(running.ctx, String(row.rows[0].id), async () => live());
      const ms = performance.now() - s;
      clearInterval(sampler);
      clearInterval(liveSampler);
      const done = await pool.query<{ rows: number; state: string; file: string }>(
        'SELECT rows, state, file FROM stat_exports WHERE id = $1',
        [row.rows[0].id],
      );
      const mb = (b: number) => round(b / 1_048_576, 1);
      const info = {
        rows: done.rows[0].rows,
        state: done.rows[0].state,
        rssGrowthMB: mb(peakRss - before.rss),
        heapGrowthMB: mb(peakHeap - before.heapUsed),
        buffersGrowthMB: mb(peakBuffers - before.arrayBuffers),
        liveGrowthMB: mb(liveHeap - before.heapUsed + liveBuffers - before.arrayBuffers),
        fileMB: mb(statSync(done.rows[0].file).size),
        seconds: round(ms / 1000, 1),
      };
      rmSync(done.rows[0].file, { force: true });
      return info;
    };
    const small = await exportOnce(ids.slice(0, 100));
    const large = await exportOnce(ids);
    console.log(
      `  export ${small.rows} rows: peak growth RSS ${small.rssGrowthMB} MB, heap ${small.heapGrowthMB} MB, buffers ${small.buffersGrowthMB} MB, live (after GC) ${small.liveGrowthMB} MB (${small.fileMB} MB file, ${small.seconds} s)`,
    );
    console.log(
      `  export ${large.rows} rows: peak growth RSS ${large.rssGrowthMB} MB, heap ${large.heapGrowthMB} MB, buffers ${large.buffersGrowthMB} MB, live (after GC) ${large.liveGrowthMB} MB (${large.fileMB} MB file, ${large.seconds} s) — flat if close to the 10,000-row figures`,
    );

    // ---- 3. ingest with aggregation on vs off (rows of the last round of part 1 are settled)
    const ingestDevices = 200;
    /** Long enough (some 5 s a round) for the roll-up job (1 s delay) to run while an 'on' round ingests. */
    const perDevice = 600;
    const devs = (
      await pool.query<{ id: string; terminal_id: string }>(
        'SELECT id, terminal_id FROM devices ORDER BY id LIMIT $1',
        [2 * ingestDevices],
      )
    ).rows;
    /** 'off' rounds feed the first 200 devices, 'on' rounds the next 200: an 'on' round's roll-ups never read
     * the fixes an 'off' round stored without marks. Same number of rows and devices either way. */
    const toRef = (d: { id: string; terminal_id: string }): DeviceRef => ({
      id: String(d.id),
      terminalId: d.terminal_id,
      protocol: 2,
      nbDeviceId: null,
      deviceType: 12,
      timeZone: 8,
      speedLimit: 120,
      path: '/1/2/',
      activated: true,
      deleted: false,
    });
    const offRefs = devs.slice(0, ingestDevices).map(toRef);
    const onRefs = devs.slice(ingestDevices).map(toRef);
    const ingestBase = Date.now() - 12 * 3_600_000;
    const ingest = async (round_: number, aggregation: boolean): Promise<number> => {
      const bus = new MemoryBus();
      const partitions = new PartitionManager(pool);
      await partitions.prepare();
      const state = new DeviceStateWriter(pool, bus, 250);
      const jobs = running.ctx.services.jobs;
      const requester = aggregation && jobs ? new RollupRequester(jobs, 1, () => {}) : null;
      const batcher = new IngestBatcher(pool, bus, partitions, state, {
        maxBatchRows: 5000,
        writers: 4,
        highWaterRows: 50_000,
        statistics: requester ? { onMarked: () => requester.request() } : undefined,
      });
      // 600 fixes 10 s apart: 100 minutes, all in the past; each round goes on after the one before, as devices
      // report in time order (the roll-up advances each day's state; late fixes are measured by rollup.test.ts).
      const base = ingestBase + Math.floor(round_ / 2) * perDevice * 10_000;
      const s = performance.now();
      let pending = 0;
      let resolveAll: () => void = () => {};
      const all = new Promise<void>((r) => {
        resolveAll = r;
      });
      const refs = aggregation ? onRefs : offRefs;
      for (let k = 0; k < perDevice; k++) {
        for (const device of refs) {
          const p: StoredPosition = {
            time: base + k * 10_000,
            lat: 39.9 + k * 1e-4,
            lon: 116.4,
            altitude: 0,
            speed: 40,
            course: 0,
            valid: true,
            satellites: 8,
            locationType: 'gps',
            acc: true,
            mileage: null,
            battery: null,
          };
          pending++;
          const record: IngestRecord = {
            device,
            positions: [p],
            alarms: [],
            status: null,
            receivedAt: Date.now(),
            done: () => {
              if (--pending === 0) resolveAll();
            },
          };
          if (batcher.overloaded) await batcher.whenRoom();
          batcher.submit(record);
        }
      }
      await all;
      const ms = performance.now() - s;
      await batcher.close();
      await state.stop();
      requester?.stop();
      return (ingestDevices * perDevice) / (ms / 1000);
    };
    // Between rounds (untimed) the roll-up work a round caused is let finish, so an 'off' round never pays for
    // the 'on' round before it; an 'on' round pays for the roll-ups that run while it ingests.
    const settled = async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const left = await pool.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM stat_dirty)::int + (SELECT count(*) FROM pgboss.job
             WHERE name = 'stats.rollup' AND state IN ('created', 'retry', 'active'))::int AS n`,
        );
        if (left.rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const on: number[] = [];
    /** 'on' rounds timed until the roll-up has also caught up with them (the aggregation's whole cost). */
    const onDrained: number[] = [];
    const off: number[] = [];
    let rolledDuringOn = 0;
    const timedOn = async (r: number) => {
      await settled();
      const t = new Date();
      const ingestStart = performance.now();
      on.push(await ingest(2 * r + 1, true));
      await settled();
      onDrained.push((ingestDevices * perDevice) / ((performance.now() - ingestStart) / 1000));
      const during = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM stat_daily WHERE computed_at >= $1',
        [t],
      );
      rolledDuringOn += during.rows[0].n;
    };
    const timedOff = async (r: number) => {
      await settled();
      off.push(await ingest(2 * r, false));
    };
    // One untimed round of each first (the batcher's first statements, the partitions' first pages, the job
    // queue's first run), then three of each in the order off-on, on-off, off-on: the tables grow as the rounds
    // go, and always running 'on' second charged it with that growth (measured before: 0.79–1.16 from run to run).
    await settled();
    await ingest(0, false);
    await settled();
    await ingest(1, true);
    for (let r = 1; r <= 3; r++) {
      if (r % 2 === 0) {
        await timedOn(r);
        await timedOff(r);
      } else {
        await timedOff(r);
        await timedOn(r);
      }
    }
    const onRate = median(on);
    const offRate = median(off);
    console.log(
      `  ingest ${ingestDevices * perDevice} fixes through the batcher: aggregation off ${Math.round(offRate)} fixes/s, on ${Math.round(onRate)} fixes/s → ratio ${round(onRate / offRate, 3)} (target ≥ 0.9; median of 3 each)`,
    );
    const drainedRate = median(onDrained);
    console.log(
      `  same 'on' rounds timed until the roll-up had caught up too: ${Math.round(drainedRate)} fixes/s → ratio ${round(drainedRate / offRate, 3)}`,
    );
    console.log(
      `  daily rows the roll-up job wrote for the 'on' rounds (while they ran and caught up): ${rolledDuringOn}`,
    );
    report('stats', p50, 'ms', rollupMs, {
      rows: total,
      findNodeCpuMs: round(median(cpuTimes)),
      findDbCpuMs: dbCpuTimes.length > 0 ? round(median(dbCpuTimes)) : null,
      staysTripsMs: round(stayMs),
      staysTripsCpuMs: round(median(stayCpu)),
      export100kRows: large.rows,
      export100kRssGrowthMB: large.rssGrowthMB,
      export100kHeapGrowthMB: large.heapGrowthMB,
      export100kBuffersGrowthMB: large.buffersGrowthMB,
      export100kLiveGrowthMB: large.liveGrowthMB,
      export10kLiveGrowthMB: small.liveGrowthMB,
      export10kRssGrowthMB: small.rssGrowthMB,
      export10kHeapGrowthMB: small.heapGrowthMB,
      ingestOnOffRatio: round(onRate / offRate, 3),
      ingestOnDrainedOffRatio: round(drainedRate / offRate, 3),
      rollupRowsDuringOn: rolledDuringOn,
      loadAverage1m: round(loadavg()[0], 2),
    });
  } finally {
    await running.stop();
    await store.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
