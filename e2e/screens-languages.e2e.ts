// The screenshot suite (e2e/screens.ts): the admin's main screens in the other nine languages, and three lists
// caught loading.
import { describe, it } from 'vitest';
import { otherLanguagesAndSkeletons, screensRun } from './screens.ts';

describe('every screen, every role, cn and en, desktop and phone', () => {
  const run = screensRun('nine more languages');
  it('admin: the main screens fit and name every label in the other nine languages; lists load with a skeleton', async () => {
    await otherLanguagesAndSkeletons(run);
  }, 900_000);
});
