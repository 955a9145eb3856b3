// The screenshot suite (e2e/screens.ts) as the admin: every screen, cn and en, desktop and phone.
import { describe, it } from 'vitest';
import { ACCOUNTS, everyScreen, screensRun } from './screens.ts';

describe('every screen, every role, cn and en, desktop and phone', () => {
  const run = screensRun('admin');
  const admin = ACCOUNTS.find((a) => a.who === 'admin');
  it('admin: every screen fits, names every label, logs no error and draws its maps', async () => {
    if (!admin) throw new Error('no admin account');
    await everyScreen(run, admin);
  }, 900_000);
});
