// Login rate limit: failed attempts counted per account and per client address in a sliding window.
// In-process; with several API processes each keeps its own window (a shared store is a later step).

export interface RateLimitOptions {
  windowMs: number;
  maxPerAccount: number;
  maxPerAddress: number;
}

export const defaultLoginLimits: RateLimitOptions = { windowMs: 15 * 60_000, maxPerAccount: 8, maxPerAddress: 40 };

export class LoginRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly opts: RateLimitOptions = defaultLoginLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.opts.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until another attempt is allowed, or 0 when allowed now. */
  retryAfter(account: string, address: string): number {
    const a = this.recent(`u:${account.toLowerCase()}`);
    const b = this.recent(`ip:${address}`);
    const blocked = [
      a.length >= this.opts.maxPerAccount ? a[a.length - this.opts.maxPerAccount] : undefined,
      b.length >= this.opts.maxPerAddress ? b[b.length - this.opts.maxPerAddress] : undefined,
    ].filter((t): t is number => t !== undefined);
    if (blocked.length === 0) return 0;
    return Math.max(...blocked.map((t) => t + this.opts.windowMs - this.now()));
  }

  recordFailure(account: string, address: string): void {
    const t = this.now();
    for (const key of [`u:${account.toLowerCase()}`, `ip:${address}`]) {
      const list = this.recent(key);
      list.push(t);
      this.failures.set(key, list);
    }
  }

  recordSuccess(account: string): void {
    this.failures.delete(`u:${account.toLowerCase()}`);
  }
}
