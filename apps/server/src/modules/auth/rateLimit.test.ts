import { describe, expect, it } from 'vitest';
import { LoginRateLimiter } from './rateLimit.ts';

describe('LoginRateLimiter', () => {
  it('blocks an account after the limit and frees it when the window passes', () => {
    let now = 1_000_000;
    const rl = new LoginRateLimiter({ windowMs: 60_000, maxPerAccount: 3, maxPerAddress: 100 }, () => now);
    for (let i = 0; i < 2; i++) rl.recordFailure('Bob', '1.1.1.1');
    expect(rl.retryAfter('bob', '2.2.2.2')).toBe(0);
    rl.recordFailure('bob', '1.1.1.1');
    expect(rl.retryAfter('BOB', '2.2.2.2')).toBe(60_000);
    now += 30_000;
    expect(rl.retryAfter('bob', '2.2.2.2')).toBe(30_000);
    now += 30_001;
    expect(rl.retryAfter('bob', '2.2.2.2')).toBe(0);
  });

  it('blocks an address that tries many accounts, and a success clears the account only', () => {
    const now = 5_000;
    const rl = new LoginRateLimiter({ windowMs: 10_000, maxPerAccount: 100, maxPerAddress: 2 }, () => now);
    rl.recordFailure('a', '9.9.9.9');
    rl.recordFailure('b', '9.9.9.9');
    expect(rl.retryAfter('c', '9.9.9.9')).toBeGreaterThan(0);
    expect(rl.retryAfter('c', '8.8.8.8')).toBe(0);
    rl.recordSuccess('a');
    expect(rl.retryAfter('a', '8.8.8.8')).toBe(0);
  });
});
