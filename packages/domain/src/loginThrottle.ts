// Login throttling (issue 12): failures are counted per (account, address), per account over every address,
// and per address over every account. A wrong password from one address never locks the account for an
// address that has not failed: the account-wide ceiling only holds back addresses that failed before.

export interface LoginThrottlePolicy {
  /** Failures of one account from one address before the first wait. */
  freePerAddress: number;
  /** First wait (ms) once the free failures are used; each further failure doubles it. */
  baseDelayMs: number;
  /** Longest wait (ms). */
  maxDelayMs: number;
  /** Account-wide failures (all addresses) after which every address that failed before must wait. */
  accountCeiling: number;
  /** Account-wide failures per doubling of the account-wide wait beyond the ceiling. */
  accountStep: number;
  /** Failures of one address over every account before it waits (password spraying). */
  sprayerCeiling: number;
  /** Counters older than this (since the last failure) start again from zero. */
  resetAfterMs: number;
}

export const defaultLoginThrottle: LoginThrottlePolicy = {
  freePerAddress: 5,
  baseDelayMs: 15_000,
  maxDelayMs: 60 * 60_000,
  accountCeiling: 20,
  accountStep: 10,
  sprayerCeiling: 40,
  resetAfterMs: 24 * 60 * 60_000,
};

function doubling(base: number, times: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(times, 30));
}

/** Wait (ms) imposed on one account from one address after its `failures`-th failure; 0: none. */
export function addressDelayMs(failures: number, p: LoginThrottlePolicy = defaultLoginThrottle): number {
  if (failures < p.freePerAddress) return 0;
  return doubling(p.baseDelayMs, failures - p.freePerAddress, p.maxDelayMs);
}

/**
 * Wait (ms) imposed by the account-wide ceiling after the account's `failures`-th failure over all addresses.
 * It holds back only addresses that have failed for this account (see `accountLockApplies`).
 */
export function accountDelayMs(failures: number, p: LoginThrottlePolicy = defaultLoginThrottle): number {
  if (failures < p.accountCeiling) return 0;
  return doubling(p.baseDelayMs * 4, Math.floor((failures - p.accountCeiling) / p.accountStep), p.maxDelayMs);
}

/** Wait (ms) of one address over every account after its `failures`-th failure. */
export function sprayerDelayMs(failures: number, p: LoginThrottlePolicy = defaultLoginThrottle): number {
  if (failures < p.sprayerCeiling) return 0;
  return doubling(p.baseDelayMs * 4, Math.floor((failures - p.sprayerCeiling) / p.accountStep), p.maxDelayMs);
}

/** The account-wide lock applies to an address only if that address has failed for the account before. */
export function accountLockApplies(addressFailures: number): boolean {
  return addressFailures > 0;
}
