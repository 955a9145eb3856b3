import { defineConfig } from 'vitest/config';

// Browser suite: Playwright (playwright-core) drives Debian's Chromium against `npm start`.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
