// Factory production on a PostgreSQL server: 100,000 IMEIs imported into stock through the API (the preset
// list import, a job polled for progress), 100,000 SIM card rows imported through the API, and the QC search
// over 1,000,000 results by IMEI prefix and date through the API. The card import is timed twice: as CSV text
// and as an xlsx workbook (the file a factory uploads).
// Targets: stock import < 10 s with progress updates seen while it runs; card import < 10 s; QC search p50 < 50 ms.
// Baselines, measured in the same run on the same server: the same rows written by a plain client in one
// INSERT … SELECT unnest(…) (no parsing, checks or job), and the QC search's page query sent by a plain client.
// The JSON line's value is the stock import through the API (ms), its baseline the plain insert of the same rows.
//
//   npm run bench -- factory   (BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; a scratch
//                               database is created and dropped, kept with BENCH_KEEP=1)
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Running, startServer } from '../apps/server/src/main.ts';

const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCRATCH = 'carhere_bench_factory';
const ROWS = 100_000;
const QC_RESULTS = 1_000_000;
const QC_IMEIS = 200_000;
const QC_DAYS = 90;
const SEARCHES = 200;
const TARGET_IMPORT_MS = 10_000;
const TARGET_SEARCH_MS = 50;
const PASSWORD = 'Admin-bench-1';

interface Job {
  id: string;
  status: string;
  processed: number;
  total: number;
  result: Record<string, number> | null;
}

async function call<T>(r: Running, cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
  const res = await r.app.inject({
    method,
    url: `/api${url}`,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  const body = res.json();
  if (!body.meta?.success) throw new Error(`${url}: ${res.statusCode} ${body.meta?.message}`);
  return body.data as T;
}

/** Starts an import job and polls it every 50 ms; answers the time to done and the distinct progress values seen. */
async function timedImport(
  r: Running,
  cookie: string,
  url: string,
  payload: unknown,
  jobUrl: string,
): Promise<{ ms: number; progress: number[]; job: Job }> {
  const t0 = performance.now();
  const started = await call<Job>(r, cookie, 'POST', url, payload);
  const progress = new Set<number>([started.processed]);
  let job = started;
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    job = await call<Job>(r, cookie, 'GET', `${jobUrl}&id=${started.id}`);
    progress.add(job.processed);
  }
  const ms = performance.now() - t0;
  if (job.status !== 'done') throw new Error(`${url} job ${job.status}`);
  return { ms, progress: [...progress].sort((a, b) => a - b), job };
}

/** An xlsx workbook of `n` SIM cards (ICCIDs 8987…, dates as date cells), written with exceljs' streaming writer. */
async function cardWorkbook(n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (b: Buffer) => parts.push(b));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('cards');
  sheet.addRow(['ICCID', 'IMSI', 'MSISDN', 'Operator', 'Plan', 'Activated', 'Expires', 'State']).commit();
  const activated = new Date(Date.UTC(2026, 0, 1));
  for (let i = 0; i < n; i++) {
    sheet
      .addRow([
        `8987${String(i).padStart(16, '0')}`,
        `46001${String(i).padStart(10, '0')}`,
        `2${String(i).padStart(10, '0')}`,
        'CU',
        '2G',
        activated,
        '2027-01-01',
        'active',
      ])
      .commit();
  }
  sheet.commit();
  await book.commit();
  return Buffer.concat(parts);
}

function p50(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function run(r: Running, client: pg.Client) {
  const login = await r.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: 'admin', password: PASSWORD },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0];

  // 1. 100,000 IMEIs onto the preset list through the API.
  const imeis = Array.from({ length: ROWS }, (_, i) => `8680${String(i).padStart(11, '0')}`);
  const stock = await timedImport(
    r,
    cookie,
    '/stock/importImei',
    { text: imeis.join('\n'), batch: 'BENCH' },
    '/stock/importJob?kind=stockImei',
  );
  console.log(
    `stock import of ${ROWS} IMEIs through the API: ${fmt(stock.ms)} (target < ${TARGET_IMPORT_MS} ms); success ${stock.job.result?.success}; ` +
      `progress seen: ${stock.progress.length} distinct values (${stock.progress.slice(0, 6).join(', ')}${stock.progress.length > 6 ? ', …' : ''})`,
  );
  // A regular (logged) table with the same columns, defaults and indexes: the same writes minus the product's work.
  await client.query('CREATE TABLE stock_baseline (LIKE stock_records INCLUDING DEFAULTS INCLUDING INDEXES)');
  const b0 = performance.now();
  await client.query(
    `INSERT INTO stock_baseline (imei, model, batch, preset) SELECT imei, '', 'BENCH', true FROM unnest($1::text[]) imei`,
    [imeis],
  );
  const stockBaseline = performance.now() - b0;
  console.log(`baseline: the same rows in one INSERT … unnest by a plain client: ${fmt(stockBaseline)}`);

  // 2. 100,000 SIM card rows through the API (CSV text, all columns).
  const cards = Array.from(
    { length: ROWS },
    (_, i) =>
      `8986${String(i).padStart(16, '0')},46000${String(i).padStart(10, '0')},1${String(i).padStart(10, '0')},CMCC,1G,2026-01-01,2027-01-01,active`,
  );
  const card = await timedImport(r, cookie, '/card/import', { text: cards.join('\n') }, '/card/importJob?kind=cards');
  console.log(
    `card import of ${ROWS} rows through the API: ${fmt(card.ms)} (target < ${TARGET_IMPORT_MS} ms); success ${card.job.result?.success}; ` +
      `progress seen: ${card.progress.length} distinct values`,
  );
  // The same import as a factory sends it: an xlsx workbook of 100,000 new cards (read as a stream).
  const xlsx = await cardWorkbook(ROWS);
  const cardX = await timedImport(
    r,
    cookie,
    '/card/import',
    { file: { name: 'cards.xlsx', base64: xlsx.toString('base64') } },
    '/card/importJob?kind=cards',
  );
  console.log(
    `card import of ${ROWS} rows as xlsx (${(xlsx.length / 1e6).toFixed(1)} MB) through the API: ${fmt(cardX.ms)} ` +
      `(target < ${TARGET_IMPORT_MS} ms); success ${cardX.job.result?.success}; progress seen: ${cardX.progress.length} distinct values`,
  );
  await client.query('CREATE TABLE card_baseline (LIKE sim_cards INCLUDING DEFAULTS INCLUDING INDEXES)');
  const cols = (k: number) => cards.map((c) => c.split(',')[k]);
  const c0 = performance.now();
  await client.query(
    `INSERT INTO card_baseline (iccid, imsi, msisdn, operator, plan, activated_on, expires_on, state)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::date[], $8::text[])`,
    [0, 1, 2, 3, 4, 5, 6, 7].map(cols),
  );
  const cardBaseline = performance.now() - c0;
  console.log(`baseline: the same card rows in one INSERT … unnest by a plain client: ${fmt(cardBaseline)}`);

  // 3. QC search over 1,000,000 results (200,000 IMEIs, 5 results each, over 90 days).
  const g0 = performance.now();
  await sql`INSERT INTO qc_results (kind, imei, model, batch, station, firmware, gsm, satellites, cn0, pass, tested_at)
    SELECT CASE WHEN g % 3 = 0 THEN 'v2' ELSE 'v1' END, '8691' || lpad((g % ${QC_IMEIS}::int)::text, 11, '0'), 'Gt06',
      'B' || (g % 50), 'S' || (g % 8), 'V2.1', 10 + g % 20, 4 + g % 8, 30 + g % 15, g % 17 <> 0,
      now() - ((g::bigint * 7919) % ${QC_DAYS * 86400}::bigint) * interval '1 second'
    FROM generate_series(1, ${QC_RESULTS}::int) g`.execute(r.ctx.db);
  await sql`ANALYZE qc_results`.execute(r.ctx.db);
  console.log(`generated ${QC_RESULTS} QC results in ${fmt(performance.now() - g0)}`);
  // A prefix of 12 characters covers 1,000 IMEIs (5,000 results); a 7-day window keeps ~400 of them.
  const searches = Array.from({ length: SEARCHES }, (_, i) => {
    const block = (i * 37) % (QC_IMEIS / 1000);
    const day = 1 + ((i * 13) % (QC_DAYS - 8));
    const to = new Date(Date.now() - day * 86_400_000);
    return {
      imei: `8691${String(block).padStart(8, '0')}`,
      from: new Date(to.getTime() - 7 * 86_400_000).toISOString(),
      to: to.toISOString(),
    };
  });
  const http: number[] = [];
  const plain: number[] = [];
  let matched = 0;
  for (const s of searches.slice(0, 10)) await call(r, cookie, 'POST', '/qc/find', s); // warm-up
  for (const s of searches) {
    const t0 = performance.now();
    const page = await call<{ total: number; list: unknown[] }>(r, cookie, 'POST', '/qc/find', { ...s, pageSize: 15 });
    http.push(performance.now() - t0);
    matched += page.total;
    const t1 = performance.now();
    await client.query(
      `SELECT id, kind, imei, model, batch, station, firmware, gsm, satellites, cn0, ttff, station_pass, pass, failures, tested_at
       FROM qc_results WHERE imei LIKE $1 AND tested_at >= $2 AND tested_at < $3 ORDER BY tested_at DESC, id DESC LIMIT 15`,
      [`${s.imei}%`, s.from, s.to],
    );
    plain.push(performance.now() - t1);
  }
  console.log(
    `QC search (IMEI prefix + 7-day window, page of 15 with its count) through the API: p50 ${fmt(p50(http))} ` +
      `(target < ${TARGET_SEARCH_MS} ms), mean matches ${Math.round(matched / SEARCHES)}; plain client page query p50 ${fmt(p50(plain))}`,
  );
  return { stock, stockBaseline, card, cardX, cardBaseline, searchP50: p50(http), searchBaseline: p50(plain) };
}

const admin = new pg.Client({ connectionString: PG_BASE });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${SCRATCH}`);
const url = new URL(PG_BASE);
url.pathname = `/${SCRATCH}`;
const r = await startServer(
  {
    ...loadConfig({ ...process.env, DATA_DIR: 'memory://', DEMO: '0', PORT: '0' }),
    dataDir: 'memory://',
    databaseUrl: url.toString(),
    adminPassword: PASSWORD,
    webDist: '/nonexistent',
  },
  { listen: false },
);
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  const f = await run(r, client);
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify({
      bench: 'factory',
      value: round(f.stock.ms),
      unit: 'ms',
      baseline: round(f.stockBaseline),
      ratio: round(f.stock.ms / f.stockBaseline),
      stockImportTargetMs: TARGET_IMPORT_MS,
      stockProgressUpdates: f.stock.progress.length,
      cardImportMs: round(f.card.ms),
      cardBaselineMs: round(f.cardBaseline),
      cardProgressUpdates: f.card.progress.length,
      cardXlsxImportMs: round(f.cardX.ms),
      qcSearchP50Ms: round(f.searchP50),
      qcSearchTargetMs: TARGET_SEARCH_MS,
      qcSearchPlainP50Ms: round(f.searchBaseline),
    }),
  );
} finally {
  await client.end();
  await r.stop();
  if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
  await admin.end();
}
process.exit(0);
