// One code path for both stores: Kysely → node-postgres `pg.Pool`, backed either by a PostgreSQL server
// (DATABASE_URL) or by embedded PGlite through PGlite's node-postgres adapter (data in DATA_DIR).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// bigint (int8) columns come back as strings by default; ids stay strings, counts are cast in SQL.
// numeric → number is safe for our use (mileage, quotas), timestamps stay Date.
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DbHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  kind: 'pglite' | 'postgres';
  /** The embedded instance when kind is 'pglite' (for COPY and maintenance). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  /** Directory for PGlite's data; 'memory://' keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /**
   * PGlite in memory only: start from this data-directory snapshot (PGlite's dumpDataDir) instead of a new
   * cluster. The test harness passes one migrated cluster made once per run, which spares each test server the
   * embedded initdb and the migrations.
   */
  snapshot?: Blob;
}

export async function openDatabase(opts: DbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client whose server connection ends (restart, failover, an administrator's terminate) emits
    // 'error' on the pool; without a listener that would crash the process. The pool replaces the client.
    pool.on('error', (err) => {
      process.emitWarning(`PostgreSQL idle connection closed: ${err.message}`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    return {
      db,
      pool,
      kind: 'postgres',
      close: async () => {
        await db.destroy();
      },
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  let dataPath = dir;
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    dataPath = join(dir, 'pglite');
  }
  const pglite = await PGlite.create(
    dataPath,
    opts.snapshot && dir.startsWith('memory://') ? { loadDataDir: opts.snapshot } : {},
  );
  const pool = new pg.Pool(createPgConfig(pglite) as unknown as pg.PoolConfig);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    kind: 'pglite',
    pglite,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}
