import { defineConfig } from 'vitest/config';

// Unit, database (PGlite by default, PostgreSQL when DATABASE_URL is set) and API tests.
// Browser tests live in e2e/ and run with `npm run e2e` (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One migrated PGlite cluster per run, copied by every in-memory test server (apps/server/src/testing).
    globalSetup: ['apps/server/src/testing/globalSetup.ts'],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine. These tests spend much
    // of their time waiting on sockets, timers and the database, so two run side by side in about half the time.
    maxWorkers: 2,
  },
});
