// A test's view of "nothing changed": every row of the given tables (ordered by their first column) and the
// number of sessions per user, as one string. Two equal snapshots around a refused call prove it wrote nothing.
import { sql } from 'kysely';
import { ROLLUP_JOB } from '../modules/stat/jobs.ts';
import { SEGMENTS_JOB } from '../modules/track/jobs.ts';
import type { TestServer } from './harness.ts';

/**
 * Jobs the server runs on its own timers (the track segments' day close two minutes after the start and every ten
 * minutes, the statistics roll-up): their progress rows are nobody's write, and a slow test may span one.
 */
const SERVER_TIMED_JOBS = [SEGMENTS_JOB, ROLLUP_JOB];

export async function snapshotTables(server: TestServer, tables: readonly string[]): Promise<string> {
  const db = server.ctx.db;
  const out: Record<string, unknown> = {};
  for (const t of tables)
    out[t] = (
      t === 'job_progress'
        ? await sql`SELECT * FROM job_progress WHERE name NOT IN (${sql.join(SERVER_TIMED_JOBS)}) ORDER BY 1`.execute(
            db,
          )
        : await sql`SELECT * FROM ${sql.table(t)} ORDER BY 1`.execute(db)
    ).rows;
  out.sessions = (
    await sql`SELECT user_id, count(*)::int AS n FROM sessions GROUP BY user_id ORDER BY 1`.execute(db)
  ).rows;
  return JSON.stringify(out);
}

/** Logs and caches that any caller's activity may add to (they hold no account's data). */
const ACTIVITY_TABLES = new Set([
  'audit_log',
  'device_log',
  // The server's own log: a refused public callback (an NB-IoT push without its token) is logged whoever sent it.
  'system_log',
  'geocode_cache',
  'sessions',
  'schema_migrations',
  'positions',
  'positions_default',
  'track_segments',
  // Sign-in bookkeeping: failed logins count against whatever account name was tried (throttling), and
  // rate-limited calls count per caller; none of it is an account's data.
  'login_throttle',
  'login_locks',
  'login_tickets',
  'request_counters',
  // Progress of background jobs (statistics exports): the job and its file belong to the caller who started it.
  'job_progress',
]);

/**
 * Every row that lies outside the subtree rooted at the account with materialized path `rootPath` ('/1/5/'), as
 * one string: accounts not under it, and rows of every other table whose user_id / device_id / parent_id is not in
 * it (tables naming neither whole), and session counts of accounts outside it (but `ignoreSessionsOf`, e.g. the
 * demo account anyone may open a session for). A caller confined to that subtree must leave this string unchanged.
 */
export async function snapshotOutsideTree(
  server: TestServer,
  rootPath: string,
  opts: { ignoreSessionsOf?: string[] } = {},
): Promise<string> {
  const db = server.ctx.db;
  const tables = (
    await sql<{ table_name: string; columns: string[] }>`
      SELECT t.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
      FROM information_schema.tables t JOIN information_schema.columns c USING (table_schema, table_name)
      WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      GROUP BY t.table_name ORDER BY t.table_name`.execute(db)
  ).rows.filter((t) => !ACTIVITY_TABLES.has(t.table_name));
  const inTree = sql`SELECT id FROM users WHERE path LIKE ${`${rootPath}%`}`;
  const devicesInTree = sql`SELECT id FROM devices WHERE user_id IN (${inTree})`;
  const out: Record<string, unknown> = {};
  for (const { table_name: t, columns } of tables) {
    let where = sql`true`;
    if (t === 'users') where = sql`path NOT LIKE ${`${rootPath}%`}`;
    else if (columns.includes('user_id')) where = sql`(user_id IS NULL OR user_id NOT IN (${inTree}))`;
    else if (columns.includes('device_id')) where = sql`device_id NOT IN (${devicesInTree})`;
    out[t] = (await sql`SELECT * FROM ${sql.table(t)} WHERE ${where} ORDER BY 1`.execute(db)).rows;
  }
  out.sessions = (
    await sql`SELECT user_id, count(*)::int AS n FROM sessions WHERE user_id NOT IN (${inTree}) GROUP BY user_id ORDER BY 1`.execute(
      db,
    )
  ).rows.filter((r) => !(opts.ignoreSessionsOf ?? []).includes(String((r as { user_id: unknown }).user_id)));
  return JSON.stringify(out);
}
