import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (measured in a whole-suite run with two workers on the shared 2-core
 * machine, 2026-11-27: 216 s down to 53 s, not counting each file's ~20-40 s of platform start). The workers take
 * files in the order the sequencer gives, so these start first and the short files fill the gaps at the end;
 * without it a clean clone (no vitest cache) starts the largest files first, and a long file starting last holds
 * up the run. A file missing here only runs later; a stale entry costs only balance.
 */
const SLOWEST_FIRST = [
  'screens-admin',
  'screens-roles',
  'xss',
  'screens-languages',
  'factoryShell',
  'stats',
  'factoryLanguages',
  'customerMap',
  'monitor',
  'routesByRole',
  'customerSelf',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/e2e/${name}.e2e.ts`));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep vitest's own order (cached durations, else size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Browser suite: Playwright (playwright-core) drives Debian's Chromium against `npm start`.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Two files at a time: each file starts its own platform (own data directory, own ports) and its own browser,
    // so files share nothing but the machine.
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    // A browser test that fails is run once more before the suite fails: on a busy machine a whole-suite run saw a
    // test pass in one clean clone and fail in another on the same commit. A test that fails twice still fails.
    retry: 1,
    pool: 'forks',
    // expect.poll waits 1 s by default: on a loaded machine a browser can take longer to re-render after a click
    // (seen: a drawer still closing after 1 s). A poll that matches returns at once, so this only lengthens a
    // failure.
    expect: { poll: { timeout: 15_000 } },
    // One migrated data directory per run, copied into each platform's (e2e/globalSetup.ts).
    globalSetup: ['e2e/globalSetup.ts'],
  },
});
