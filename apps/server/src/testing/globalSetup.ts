// Vitest global setup (vitest.config.ts): once per run, before any test file, one database is made and migrated.
// On PGlite (the default) it is an embedded cluster whose data directory is written to a temporary file: every
// in-memory test server (harness.ts) loads a copy of it instead of running PGlite's initdb and every migration
// again, which cost several seconds per server. On PostgreSQL (DATABASE_URL) it is a template database: every test
// server's database is created from it (CREATE DATABASE … TEMPLATE, a file copy) instead of running the 35
// migrations again (about a second per server). Either way the server still runs `migrate` at start (it finds
// nothing to apply) and its own first-run seed. Tests of the migrations themselves, servers on a data directory
// and the spawned `carhere serve` processes (ops/test-support.ts) make their own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';

/** Where the test processes find the snapshot file (an environment variable: they are other processes). */
export const SNAPSHOT_ENV = 'CARHERE_TEST_PGLITE_SNAPSHOT';
/** The name of the migrated template database on the PostgreSQL server of DATABASE_URL. */
export const TEMPLATE_ENV = 'CARHERE_TEST_PG_TEMPLATE';

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A migrated template database on PostgreSQL; answers the teardown that drops it. */
async function postgresTemplate(baseUrl: string): Promise<() => Promise<void>> {
  const name = `carhere_test_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(pool);
  } finally {
    // No connection may stay open to a template while databases are created from it.
    await pool.end();
  }
  process.env[TEMPLATE_ENV] = name;
  return () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export default async function setup(): Promise<(() => void | Promise<void>) | undefined> {
  if (process.env.DATABASE_URL) return postgresTemplate(process.env.DATABASE_URL);
  const dir = mkdtempSync(join(tmpdir(), 'carhere-test-template-'));
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(db.pool);
    const dump = await db.pglite?.dumpDataDir('none');
    if (!dump) throw new Error('an in-memory database without PGlite');
    const file = join(dir, 'pglite.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    // The test processes are started after this and inherit the variable.
    process.env[SNAPSHOT_ENV] = file;
  } finally {
    await db.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
