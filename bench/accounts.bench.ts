// Device list of one agent whose subtree holds 5,000 accounts and 100,000 devices (plus a sibling tenant of
// 1,000 accounts and 50,000 devices), on a PostgreSQL server and on embedded PGlite: the first page and the
// full list in the spec's order, through the query layer and through the HTTP endpoint.
// Targets (PostgreSQL): first page < 50 ms, full ordered list < 500 ms. The full list is the whole subtree in one
// response in the lean 'rows' format (format: 'rows'; the web decodes it with features/device/deviceRows.ts).
// The JSON line's value is the full list through the HTTP endpoint (session, query, response); its baseline, measured
// in the same run, is PostgreSQL handing the same 100,000 rows (the same fields) to a plain client in IMEI order.
//
//   npm run bench -- accounts   (PostgreSQL: BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; a scratch
//                                database is created and dropped, kept with BENCH_KEEP=1)
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import type { Running } from '../apps/server/src/main.ts';
import { startServer } from '../apps/server/src/main.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import {
  type DeviceListQuery,
  listPage,
  listRowsJson,
  tabCounts,
} from '../apps/server/src/modules/device/listQueries.ts';
import { type DeviceRowsPage, decodeDeviceRows } from '../apps/web/src/features/device/deviceRows.ts';

const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCRATCH = 'carhere_bench_accounts';
const AGENT_ID = 1000;
const SIBLING_ID = 900_000;
const SUB_AGENTS = 50;
const USERS = 5000; // the agent, its 50 sub-agents and 4,949 end users
const DEVICES = 100_000;
const SIBLING_USERS = 1000;
const SIBLING_DEVICES = 50_000;
const PASSWORD = 'Bench-pass-1';

const TARGET_FIRST_PAGE_MS = 50;
const TARGET_FULL_LIST_MS = 500;

/** Generates the tree, devices and their last states in SQL (same statements on PostgreSQL and PGlite). */
async function generate(r: Running): Promise<void> {
  const db = r.ctx.db;
  const hash = await hashPassword(PASSWORD);
  await sql`INSERT INTO users (id, username, password_hash, role, parent_id, path)
    VALUES (${AGENT_ID}, 'bench-agent', ${hash}, 2, 1, ${`/1/${AGENT_ID}/`}),
           (${SIBLING_ID}, 'bench-sibling', ${hash}, 2, 1, ${`/1/${SIBLING_ID}/`})`.execute(db);
  // Sub-agents 1001..1050, end users 1051..(1000 + USERS - 1) spread over the sub-agents.
  await sql`INSERT INTO users (id, username, password_hash, role, parent_id, path)
    SELECT ${AGENT_ID}::int + g, 'bench-sub-' || g, ${hash}, 2, ${AGENT_ID}, ${`/1/${AGENT_ID}/`} || (${AGENT_ID}::int + g) || '/'
    FROM generate_series(1, ${SUB_AGENTS}::int) g`.execute(db);
  await sql`INSERT INTO users (id, username, password_hash, role, parent_id, path)
    SELECT ${AGENT_ID}::int + g, 'bench-user-' || g, ${hash}, 3, ${AGENT_ID}::int + 1 + (g % ${SUB_AGENTS}::int),
           ${`/1/${AGENT_ID}/`} || (${AGENT_ID}::int + 1 + (g % ${SUB_AGENTS}::int)) || '/' || (${AGENT_ID}::int + g) || '/'
    FROM generate_series(${SUB_AGENTS + 1}::int, ${USERS - 1}::int) g`.execute(db);
  await sql`INSERT INTO users (id, username, password_hash, role, parent_id, path)
    SELECT ${SIBLING_ID}::int + g, 'bench-sib-' || g, ${hash}, 3, ${SIBLING_ID}, ${`/1/${SIBLING_ID}/`} || (${SIBLING_ID}::int + g) || '/'
    FROM generate_series(1, ${SIBLING_USERS}::int) g`.execute(db);
  await sql`SELECT setval('users_id_seq', ${SIBLING_ID + SIBLING_USERS + 1})`.execute(db);
  // Devices: 20 per account of the subtree; one in ten not activated; service terms and expiries spread out.
  await sql`INSERT INTO devices (id, terminal_id, user_id, nickname, car_number, activated_at, service_term, platform_expire_at)
    SELECT g, '86' || lpad(g::text, 13, '0'), ${AGENT_ID}::int + (g % ${USERS}::int),
           CASE WHEN g % 3 = 0 THEN 'car ' || g ELSE '' END, '',
           CASE WHEN g % 10 = 0 THEN NULL ELSE now() - interval '200 days' END, g % 6,
           CASE WHEN g % 10 = 0 THEN NULL ELSE now() + ((g % 500) - 40) * interval '1 day' END
    FROM generate_series(1, ${DEVICES}::int) g`.execute(db);
  await sql`INSERT INTO devices (id, terminal_id, user_id, activated_at)
    SELECT ${DEVICES}::int + g, '87' || lpad(g::text, 13, '0'), ${SIBLING_ID}::int + 1 + (g % ${SIBLING_USERS}::int), now() - interval '10 days'
    FROM generate_series(1, ${SIBLING_DEVICES}::int) g`.execute(db);
  await sql`SELECT setval('devices_id_seq', ${DEVICES + SIBLING_DEVICES + 1})`.execute(db);
  // Last states: 40 % online with fixes from the last 10 minutes (some moving), the rest offline for up to 30 days.
  await sql`INSERT INTO device_state (device_id, online, state_time, last_seen, pos_time, lat, lon, speed, course, valid)
    SELECT d.id, (d.id % 5) < 2,
           now() - ((d.id * 7919) % 2592000) * interval '1 second',
           CASE WHEN (d.id % 5) < 2 THEN now() - ((d.id * 31) % 600) * interval '1 second'
                ELSE now() - ((d.id * 7919) % 2592000) * interval '1 second' END,
           CASE WHEN (d.id % 5) < 2 THEN now() - ((d.id * 31) % 600) * interval '1 second'
                ELSE now() - ((d.id * 7919) % 2592000) * interval '1 second' END,
           30 + (d.id % 1000) / 100.0, 110 + (d.id % 777) / 100.0, (d.id * 13) % 110, (d.id * 7) % 360, true
    FROM devices d WHERE d.activated_at IS NOT NULL`.execute(db);
  await sql`ANALYZE`.execute(db);
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p95: at(0.95), min: s[0] };
}

async function time(runs: number, warm: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < warm; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

const fmt = (n: number) => `${n.toFixed(1)} ms`;

interface Figures {
  firstPage: number;
  firstPageHttp: number;
  fullList: number;
  fullListHttp: number;
  fullListHttpMin: number;
  decode: number;
  baseline: number;
  counts: number;
  deepPage: number;
}

/**
 * The baseline: the same rows as the full list (the same fields, the same subtree) in plain IMEI order, read by a
 * plain client as text (cast in SQL: no parsing in this process).
 */
async function rawSelect(r: Running): Promise<number> {
  const text = `SELECT d.id::text, d.terminal_id, d.nickname, d.car_number, d.activated_at::text,
      d.platform_expire_at::text, d.user_expire_at::text, d.icon_type::text, d.device_type::text, d.user_id::text,
      s.online::text, s.lat::text, s.lon::text, s.speed::text, s.course::text, s.pos_time::text, s.last_seen::text
    FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
    WHERE d.user_id IN (SELECT id FROM users WHERE path LIKE $1) ORDER BY d.terminal_id COLLATE "C"`;
  const client = await r.ctx.dbHandle.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL work_mem = '64MB'`);
    const res = await client.query({ text, values: [`/1/${AGENT_ID}/%`], rowMode: 'array' });
    await client.query('COMMIT');
    return res.rows.length;
  } finally {
    client.release();
  }
}

async function measure(label: string, r: Running): Promise<Figures> {
  const t0 = performance.now();
  await generate(r);
  console.log(
    `${label}: generated ${USERS} accounts and ${DEVICES} devices in the subtree (+${SIBLING_DEVICES} beside it) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const q: DeviceListQuery = {
    scope: { subtreePath: `/1/${AGENT_ID}/` },
    tab: 'all',
    expiry: 'all',
    now: new Date(),
  };
  const ctx = r.ctx;
  if ((await rawSelect(r)) !== DEVICES) throw new Error('baseline read the wrong rows');
  const first = await time(50, 5, () => listPage(ctx, { ...q, now: new Date() }, 0, 16));
  const counts = await time(20, 3, () => tabCounts(ctx, { ...q, now: new Date() }));
  const deep = await time(10, 2, () => listPage(ctx, { ...q, now: new Date() }, 15 * 999, 16));
  // The full list through the query layer: every device of the subtree in the spec's order, as JSON text.
  const fullList = await time(5, 1, () => listRowsJson(ctx, { ...q, now: new Date() }, 0, 200_000));
  const baseline = await time(5, 1, () => rawSelect(r));

  const login = await r.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'bench-agent', password: PASSWORD },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0];
  const call = async (payload: Record<string, unknown>) => {
    const res = await r.app.inject({ method: 'POST', url: '/api/device/findByUserId', headers: { cookie }, payload });
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
    return res;
  };
  const firstHttp = await time(30, 5, () => call({ pageSize: 15 }));
  const all = { pageSize: 100_000, format: 'rows' };
  const fullHttp = await time(5, 1, () => call(all));
  const res = await call(all);
  const bytes = res.rawPayload.length;
  // What the browser does with it: parse and decode (display names, car icon states) with the web's decoder.
  const decode = await time(5, 1, async () =>
    decodeDeviceRows((JSON.parse(res.body) as { data: DeviceRowsPage }).data),
  );
  const page = (JSON.parse(res.body) as { data: DeviceRowsPage }).data;
  const rows = decodeDeviceRows(page);
  if (rows.length !== DEVICES || page.total !== DEVICES || page.hasMore) {
    throw new Error(`full list has ${rows.length} rows (total ${page.total}), expected ${DEVICES}`);
  }
  // The same order as the paged full items (segment walk near the top, bulk sort further down).
  const top = await listPage(ctx, { ...q, now: new Date(page.now) }, 0, 500);
  const deepRows = await listPage(ctx, { ...q, now: new Date(page.now) }, 60_000, 500);
  const same = (from: number, list: { terminal_id: string }[]) =>
    list.every((d, i) => rows[from + i].terminalID === d.terminal_id);
  if (!same(0, top) || !same(60_000, deepRows)) throw new Error('the rows format lists another order than the pages');

  console.log(`${label} first page (15 rows, query):          p50 ${fmt(first.p50)}  p95 ${fmt(first.p95)}`);
  console.log(`${label} first page (HTTP, session + JSON):    p50 ${fmt(firstHttp.p50)}  p95 ${fmt(firstHttp.p95)}`);
  console.log(`${label} tab counts (separate call):            p50 ${fmt(counts.p50)}  p95 ${fmt(counts.p95)}`);
  console.log(`${label} page 1000 (rows 14985-14999, query):  p50 ${fmt(deep.p50)}`);
  console.log(`${label} full ordered list (100,000 rows, query): p50 ${fmt(fullList.p50)}  min ${fmt(fullList.min)}`);
  console.log(
    `${label} full ordered list (HTTP, ${(bytes / 1e6).toFixed(1)} MB JSON): p50 ${fmt(fullHttp.p50)}  min ${fmt(fullHttp.min)}`,
  );
  console.log(`${label} full list parsed + decoded by the web:  p50 ${fmt(decode.p50)}`);
  console.log(`${label} baseline: same rows, plain SELECT by IMEI: p50 ${fmt(baseline.p50)}  min ${fmt(baseline.min)}`);
  return {
    firstPage: first.p50,
    firstPageHttp: firstHttp.p50,
    fullList: fullList.p50,
    fullListHttp: fullHttp.p50,
    fullListHttpMin: fullHttp.min,
    decode: decode.p50,
    baseline: baseline.p50,
    counts: counts.p50,
    deepPage: deep.p50,
  };
}

function serverConfig(databaseUrl: string | undefined) {
  return {
    ...loadConfig({ ...process.env, DATA_DIR: 'memory://', DEMO: '0', PORT: '0' }),
    dataDir: 'memory://',
    databaseUrl,
    adminPassword: 'Admin-bench-1',
    webDist: '/nonexistent',
  };
}

async function onPostgres(): Promise<Figures> {
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${SCRATCH}`);
  const url = new URL(PG_BASE);
  url.pathname = `/${SCRATCH}`;
  const r = await startServer(serverConfig(url.toString()), { listen: false });
  try {
    return await measure('PostgreSQL', r);
  } finally {
    await r.stop();
    if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await admin.end();
  }
}

async function onPglite(): Promise<Figures> {
  const r = await startServer(serverConfig(undefined), { listen: false });
  try {
    return await measure('PGlite', r);
  } finally {
    await r.stop();
  }
}

const postgres = await onPostgres();
const pglite = await onPglite();
const round = (n: number) => Math.round(n * 10) / 10;
console.log(
  `PostgreSQL full list (HTTP) ${fmt(postgres.fullListHttp)} vs target ${TARGET_FULL_LIST_MS} ms; PGlite ${fmt(pglite.fullListHttp)}`,
);
console.log(
  JSON.stringify({
    bench: 'accounts',
    value: round(postgres.fullListHttp),
    unit: 'ms',
    baseline: round(postgres.baseline),
    ratio: round(postgres.fullListHttp / postgres.baseline),
    fullListTargetMs: TARGET_FULL_LIST_MS,
    fullListHttpMinMs: round(postgres.fullListHttpMin),
    fullListQueryMs: round(postgres.fullList),
    webDecodeMs: round(postgres.decode),
    firstPageMs: round(postgres.firstPage),
    firstPageTargetMs: TARGET_FIRST_PAGE_MS,
    firstPageHttpMs: round(postgres.firstPageHttp),
    countsMs: round(postgres.counts),
    page1000Ms: round(postgres.deepPage),
    pglite: {
      fullListHttpMs: round(pglite.fullListHttp),
      fullListQueryMs: round(pglite.fullList),
      baselineMs: round(pglite.baseline),
      firstPageMs: round(pglite.firstPage),
      firstPageHttpMs: round(pglite.firstPageHttp),
      countsMs: round(pglite.counts),
    },
  }),
);
process.exit(0);
