// Vitest global setup of the browser suite (vitest.e2e.config.ts): once per run, a data directory whose embedded
// PGlite cluster is made and migrated, written to a temporary folder. startPlatform() (harness.ts) copies it into
// each platform's new data directory, so `npm start` opens an existing cluster instead of running PGlite's initdb
// and every migration again (several seconds per platform). Nothing else is in it: no accounts, no secret key;
// the server's first-run seed and key file are made by each start as for a new user. fresh-start.e2e.ts starts on
// an empty directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the test process finds the folder (an environment variable: the test files run in other processes).
 * Every test file imports this module (through harness.ts) for the name alone, so the database modules are
 * imported inside setup(), not at the top: PGlite is not loaded into every test file's process.
 */
export const TEMPLATE_ENV = 'CARHERE_E2E_DATA_TEMPLATE';

export default async function setup(): Promise<() => void> {
  const { openDatabase } = await import('../apps/server/src/db/connection.ts');
  const { migrate } = await import('../apps/server/src/db/migrate.ts');
  const dir = mkdtempSync(join(tmpdir(), 'carhere-e2e-template-'));
  const db = await openDatabase({ dataDir: dir });
  try {
    await migrate(db.pool);
  } finally {
    await db.close();
  }
  process.env[TEMPLATE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
