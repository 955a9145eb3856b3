// Vitest global setup (vitest.config.ts): once per run, before any test file, one embedded PGlite cluster is made
// and migrated, and its data directory is written to a temporary file. Every in-memory test server (harness.ts)
// loads a copy of it instead of running PGlite's initdb and every migration again, which cost several seconds per
// server. The server still runs `migrate` at start (it finds nothing to apply) and its own first-run seed. Tests
// of the migrations themselves, servers on a data directory or on PostgreSQL (DATABASE_URL) make their own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';

/** Where the test processes find the snapshot file (an environment variable: they are other processes). */
export const SNAPSHOT_ENV = 'CARHERE_TEST_PGLITE_SNAPSHOT';

export default async function setup(): Promise<(() => void) | undefined> {
  // On PostgreSQL the test servers' databases are made there; the PGlite snapshot would go unused.
  if (process.env.DATABASE_URL) return undefined;
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
