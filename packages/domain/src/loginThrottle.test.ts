import { describe, expect, it } from 'vitest';
import {
  accountDelayMs,
  accountLockApplies,
  addressDelayMs,
  defaultLoginThrottle as p,
  sprayerDelayMs,
} from './loginThrottle.ts';

describe('login throttle policy', () => {
  it('lets a few failures through, then waits that double up to a ceiling', () => {
    for (let f = 0; f < p.freePerAddress; f++) expect(addressDelayMs(f)).toBe(0);
    const waits = [0, 1, 2, 3].map((i) => addressDelayMs(p.freePerAddress + i));
    expect(waits[0]).toBe(p.baseDelayMs);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBe(waits[i - 1] * 2);
    expect(addressDelayMs(10_000)).toBe(p.maxDelayMs);
  });

  it('the account-wide ceiling grows per step and holds back only addresses that failed before', () => {
    expect(accountDelayMs(p.accountCeiling - 1)).toBe(0);
    const first = accountDelayMs(p.accountCeiling);
    expect(first).toBeGreaterThan(0);
    expect(accountDelayMs(p.accountCeiling + p.accountStep)).toBe(first * 2);
    expect(accountLockApplies(0)).toBe(false);
    expect(accountLockApplies(1)).toBe(true);
  });

  it('an address failing over many accounts waits too', () => {
    expect(sprayerDelayMs(p.sprayerCeiling - 1)).toBe(0);
    expect(sprayerDelayMs(p.sprayerCeiling)).toBeGreaterThan(0);
    expect(sprayerDelayMs(1e9)).toBe(p.maxDelayMs);
  });
});
