// Track query for one device over 90 days at 10 s intervals (777,600 fixes), end to end through the HTTP API
// (`/api/track/findByTerminalID`, compact encoding), on PostgreSQL with the device's fixes interleaved with two
// other devices' (as a fleet writes them), and on PGlite reported separately. Target (issue 22): the first query
// < 500 ms, the following ones unchanged. Whole ended days come from per-day compact segments (track_segments),
// built by the day-close job on the job queue (modules/track/jobs.ts) as each day ends; the fixes here are written
// all at once, so the job runs once for the 90 closed days before the queries, as it would have day by day (its
// time is printed). Today is read from positions by every query. The figures give the first query — the reported
// value — and the following ones. Baseline in the same run: the straightforward way — the same rows read as
// objects through the query builder and sent as a JSON list.
//
//   npm run bench -- track     (TRACK_CPU_PROF=dir: CPU profiles of the first two measured queries, PostgreSQL)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../apps/server/src/config.ts';
import { PartitionManager } from '../apps/server/src/gateway/ingest/partitions.ts';
import { startServer } from '../apps/server/src/main.ts';
import { decodeCompactTrack } from '../apps/server/src/modules/track/compact.ts';
import { SEGMENTS_JOB, type SegmentsJobData } from '../apps/server/src/modules/track/jobs.ts';
import { BENCH_ADMIN_PASSWORD, report, round, type Store, scratchPglite, scratchPostgres } from './lib-gateway-db.ts';

const POINTS = 777_600;
const STEP_S = 10;
const DAYS = 90;
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function measure(
  store: Store,
  interleaved: number,
): Promise<{
  cold: number;
  api: number;
  naive: number;
  list: number;
  bytes: number;
  count: number;
  jobSeconds: number;
  /** The first query of a device whose segments the job did not build (as before issue 22); null with one device. */
  withoutJob: number | null;
}> {
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
    const end = Math.floor(Date.now() / 1000) * 1000;
    const start = end - (POINTS - 1) * STEP_S * 1000;
    await new PartitionManager(pool).ensure(Array.from({ length: DAYS + 2 }, (_, d) => start + d * 86_400_000));
    await pool.query(
      `INSERT INTO devices (id, terminal_id, user_id, protocol) SELECT g, '8600000000000' || lpad(g::text, 2, '0'), 2, 2 FROM generate_series(1, $1::int) g`,
      [interleaved],
    );
    const t0 = performance.now();
    // Day by day, every device's fixes of that day: rows of the devices interleave on disk as live ingest writes them.
    for (let d = 0; d <= DAYS; d++) {
      await pool.query(
        `INSERT INTO positions (device_id, time, lat, lon, speed, course, valid, location_type)
         SELECT dev, to_timestamp(($1::float8 + i::float8 * ${STEP_S * 1000}) / 1000), 39.9 + sin(i / 500.0) * 0.05 + dev * 0.001,
                116.4 + cos(i / 700.0) * 0.05, (i % 90)::real, (i % 360)::real, true, 'gps'
           FROM generate_series($2::int, $3::int) i, generate_series(1, $4::int) dev ORDER BY i, dev`,
        [start, d * 8640, Math.min(POINTS - 1, (d + 1) * 8640 - 1), interleaved],
      );
    }
    // As autovacuum leaves insert-only partitions: visibility map set, so tracks are index-only scans.
    await pool.query('VACUUM ANALYZE positions');
    console.log(
      `  ${store.kind}: ${POINTS * interleaved} fixes of ${interleaved} device(s) written in ${round((performance.now() - t0) / 1000)} s`,
    );

    // The devices' last state, as ingest leaves it; then the day-close job, through the queue, for the closed days.
    await pool.query(
      'INSERT INTO device_state (device_id, online, last_seen, pos_time) SELECT g, true, $2, $2 FROM generate_series(1, $1::int) g',
      [interleaved, new Date(end)],
    );
    const jobs = running.ctx.services.jobs;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const tj = performance.now();
    const jobId = await jobs.enqueue<SegmentsJobData>(SEGMENTS_JOB, { from: day(start), to: day(end - 86_400_000) });
    if (!jobId) throw new Error('the segments job was not queued');
    for (;;) {
      const state = (await jobs.progressOf(SEGMENTS_JOB, jobId))?.state;
      if (state === 'completed') break;
      if (state === 'failed' || state === 'cancelled') throw new Error(`segments job ${state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const jobSeconds = (performance.now() - tj) / 1000;
    const segments = await pool.query<{ n: string }>('SELECT count(*) AS n FROM track_segments WHERE data IS NOT NULL');
    console.log(
      `  ${store.kind}: day-close job built ${segments.rows[0].n} device-day segments in ${round(jobSeconds)} s (queue wait included)`,
    );

    const login = await fetch(`${running.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    const url = (format: string) =>
      `${running.url}/api/track/findByTerminalID?terminalID=860000000000001&startTime=${start}&endTime=${end}&format=${format}`;

    // Warm the process (route, schemas, serializer, connections, the code that joins segments) as a running
    // server is: with another device's track when there is one (PostgreSQL), else an hour before the track
    // starts. The first measured query is the first of the measured device's data.
    const warmUrl =
      interleaved > 1
        ? `${running.url}/api/track/findByTerminalID?terminalID=860000000000002&startTime=${start}&endTime=${end}&format=compact`
        : `${running.url}/api/track/findByTerminalID?terminalID=860000000000001&startTime=${start - 7_200_000}&endTime=${start - 3_600_000}&format=compact`;
    const warm = await fetch(warmUrl, { headers: { cookie } });
    if (!warm.ok) throw new Error(`warm-up query failed: ${warm.status}`);
    await warm.text();

    const apiTimes: number[] = [];
    const listTimes: number[] = [];
    const naiveTimes: number[] = [];
    let bytes = 0;
    let count = 0;
    const profiling = process.env.TRACK_CPU_PROF && interleaved > 1 ? new Session() : null;
    if (profiling) {
      // Are the job's segments still in PostgreSQL's buffers? (another device's, read as the query reads them)
      const plan = await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT sum(length(data::text)) FROM track_segments WHERE device_id = $1`,
        [interleaved],
      );
      console.log(
        `  segments of device ${interleaved} read in full:\n    ${plan.rows.map((r) => r['QUERY PLAN']).join('\n    ')}`,
      );
      profiling.connect();
      await profiling.post('Profiler.enable');
      await profiling.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    for (let r = 0; r < RUNS; r++) {
      if (profiling && r < 2) await profiling.post('Profiler.start');
      let t = performance.now();
      const res = await fetch(url('compact'), { headers: { cookie } }).catch(async (err) => {
        // The baseline below can take longer than the server's keep-alive on a loaded machine: the kept socket is
        // then gone (ECONNRESET before any answer). Ask again on a new one; the time counts from that request.
        if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
        t = performance.now();
        return fetch(url('compact'), { headers: { cookie } });
      });
      const text = await res.text();
      const body = JSON.parse(text) as { data: { count: number; compact: Parameters<typeof decodeCompactTrack>[0] } };
      apiTimes.push(performance.now() - t);
      if (profiling && r < 2) {
        const { profile } = await profiling.post('Profiler.stop');
        const file = join(process.env.TRACK_CPU_PROF as string, `track-query-${r + 1}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        console.log(`  query ${r + 1}: ${round(apiTimes[r])} ms, profile ${file}`);
      }
      bytes = text.length;
      count = body.data.count;
      if (r === 0 && decodeCompactTrack(body.data.compact).length !== count)
        throw new Error('compact track does not decode to its count');

      t = performance.now();
      const listRes = await fetch(url('list'), { headers: { cookie } }).catch(async (err) => {
        if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
        t = performance.now();
        return fetch(url('list'), { headers: { cookie } });
      });
      JSON.parse(await listRes.text());
      listTimes.push(performance.now() - t);

      // The straightforward way: rows as objects through the query builder, sent as JSON.
      t = performance.now();
      const rows = await running.ctx.db
        .selectFrom('positions')
        .select(['time', 'lat', 'lon', 'speed', 'course'])
        .where('device_id', '=', '1')
        .where('time', '>=', new Date(start))
        .where('time', '<=', new Date(end))
        .where('valid', '=', true)
        .orderBy('time')
        .execute();
      JSON.parse(JSON.stringify(rows));
      naiveTimes.push(performance.now() - t);
    }
    // For comparison in the same run: the last device's track with its segments removed, as a first query met
    // it before the day-close job (the query reads the 90 days of fixes and stores the segments after answering).
    let withoutJob: number | null = null;
    if (interleaved > 1) {
      await pool.query('DELETE FROM track_segments WHERE device_id = $1', [interleaved]);
      const lastUrl = `${running.url}/api/track/findByTerminalID?terminalID=8600000000000${String(interleaved).padStart(2, '0')}&startTime=${start}&endTime=${end}&format=compact`;
      let t = performance.now();
      const res = await fetch(lastUrl, { headers: { cookie } }).catch(async (err) => {
        if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
        t = performance.now();
        return fetch(lastUrl, { headers: { cookie } });
      });
      if (!res.ok) throw new Error(`track query failed: ${res.status}`);
      await res.text();
      withoutJob = performance.now() - t;
    }
    return {
      withoutJob,
      cold: apiTimes[0],
      api: median(apiTimes.slice(1)),
      naive: median(naiveTimes),
      list: median(listTimes),
      bytes,
      count,
      jobSeconds,
    };
  } finally {
    await running.stop();
  }
}

const pgStore = await scratchPostgres('carhere_bench_track');
let pg: Awaited<ReturnType<typeof measure>>;
try {
  pg = await measure(pgStore, 3);
} finally {
  await pgStore.drop();
}
console.log(
  `PostgreSQL: ${pg.count} fixes over ${DAYS} days through the API (compact, ${round(pg.bytes / 1e6, 2)} MB): first query ${round(pg.cold)} ms ` +
    `(day segments built by the day-close job, today from positions), second and later ${round(pg.api)} ms (median of ${RUNS - 1}); ` +
    `a first query without the job's segments: ${round(pg.withoutJob ?? 0)} ms; ` +
    `as a JSON list: ${round(pg.list)} ms; baseline (rows as objects, JSON): ${round(pg.naive)} ms`,
);

const liteStore = scratchPglite();
try {
  const lite = await measure(liteStore, 1);
  console.log(
    `PGlite: ${lite.count} fixes through the API (compact): first query ${round(lite.cold)} ms, second and later ${round(lite.api)} ms; as a JSON list: ${round(lite.list)} ms; baseline: ${round(lite.naive)} ms`,
  );
} finally {
  await liteStore.drop();
}
console.log(
  `target on PostgreSQL: first query < 500 ms: ${round(pg.cold)} ms (${pg.cold < 500 ? 'met' : 'NOT met'}); ` +
    `second and later: ${round(pg.api)} ms`,
);
report('track', pg.cold, 'ms', pg.naive, { warm: round(pg.api, 2) });
process.exit(0);
