// The screenshot suite (e2e/screens.ts) as an agent, an end user and a factory role: every screen each opens,
// cn and en (cn only where the role forces it), desktop and phone.
import { describe, it } from 'vitest';
import { ACCOUNTS, everyScreen, screensRun } from './screens.ts';

describe('every screen, every role, cn and en, desktop and phone', () => {
  const run = screensRun('agent, user, factory');
  for (const account of ACCOUNTS.filter((a) => a.who !== 'admin')) {
    it(`${account.who}: every screen fits, names every label, logs no error and draws its maps`, async () => {
      await everyScreen(run, account);
    }, 900_000);
  }
});
