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
  },
});
