// Login throttling kept in the database (table login_throttle), so every API process sharing it sees the same
// counters. The rules are the domain's (loginThrottle.ts): growing waits per (account, address), an account-wide
// ceiling that holds back only addresses that failed before, and a ceiling per address over every account.
// Every lock is written to login_locks, to the audit log and to the server log.
import {
  accountDelayMs,
  accountLockApplies,
  addressDelayMs,
  defaultLoginThrottle,
  type LoginThrottlePolicy,
  sprayerDelayMs,
} from '@carhere/domain';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { LockScope } from '../../db/tables/security.ts';

const ANY = '*';

/** The account key of a login name ('imei:' + IMEI for the device login). */
export const accountKey = (name: string): string => name.trim().toLowerCase();

export class LoginThrottle {
  constructor(
    private readonly ctx: AppContext,
    private readonly policy: LoginThrottlePolicy = defaultLoginThrottle,
    private readonly now: () => number = Date.now,
  ) {}

  private fresh(row: { last_failure_at: Date } | undefined): boolean {
    return row !== undefined && this.now() - row.last_failure_at.getTime() < this.policy.resetAfterMs;
  }

  /** Milliseconds this address must still wait before trying this account; 0: it may try now. */
  async retryAfter(account: string, address: string): Promise<number> {
    const rows = await this.ctx.db
      .selectFrom('login_throttle')
      .select(['account', 'address', 'failures', 'last_failure_at', 'locked_until'])
      .where((eb) =>
        eb.or([
          eb.and([eb('account', '=', account), eb('address', 'in', [address, ANY])]),
          eb.and([eb('account', '=', ANY), eb('address', '=', address)]),
        ]),
      )
      .execute();
    const pair = rows.find((r) => r.account === account && r.address === address);
    const wide = rows.find((r) => r.account === account && r.address === ANY);
    const sprayer = rows.find((r) => r.account === ANY && r.address === address);
    const until: number[] = [];
    if (this.fresh(pair) && pair?.locked_until) until.push(pair.locked_until.getTime());
    if (this.fresh(sprayer) && sprayer?.locked_until) until.push(sprayer.locked_until.getTime());
    if (this.fresh(wide) && wide?.locked_until && accountLockApplies(this.fresh(pair) ? (pair?.failures ?? 0) : 0))
      until.push(wide.locked_until.getTime());
    const wait = Math.max(0, ...until.map((t) => t - this.now()));
    return wait;
  }

  /** Counts a failure in the three counters; sets (and records) a lock where a counter reaches a wait. */
  async recordFailure(account: string, address: string, log?: FastifyBaseLogger): Promise<void> {
    const at = new Date(this.now());
    const staleBefore = new Date(this.now() - this.policy.resetAfterMs);
    const keys: [string, string, LockScope, (n: number, p: LoginThrottlePolicy) => number][] = [
      [account, address, 'address', addressDelayMs],
      [account, ANY, 'account', accountDelayMs],
      [ANY, address, 'sprayer', sprayerDelayMs],
    ];
    for (const [acc, addr, scope, delayOf] of keys) {
      const row = await this.ctx.db
        .insertInto('login_throttle')
        .values({ account: acc, address: addr, failures: 1, last_failure_at: at })
        .onConflict((oc) =>
          oc.columns(['account', 'address']).doUpdateSet({
            failures: sql<number>`CASE WHEN login_throttle.last_failure_at < ${staleBefore} THEN 1 ELSE login_throttle.failures + 1 END`,
            locked_until: sql<Date | null>`CASE WHEN login_throttle.last_failure_at < ${staleBefore} THEN NULL ELSE login_throttle.locked_until END`,
            last_failure_at: at,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      const delay = delayOf(row.failures, this.policy);
      if (delay <= 0) continue;
      const lockedUntil = new Date(this.now() + delay);
      await this.ctx.db
        .updateTable('login_throttle')
        .set({ locked_until: lockedUntil })
        .where('account', '=', acc)
        .where('address', '=', addr)
        .execute();
      await this.ctx.db
        .insertInto('login_locks')
        .values({ account: acc, address: addr, scope, failures: row.failures, locked_until: lockedUntil })
        .execute();
      // The administrators' audit log shows it too (operation 'LOGIN LOCK <scope>', searchable by operation).
      await this.ctx.db
        .insertInto('audit_log')
        .values({
          username: acc,
          ip: addr === ANY ? '' : addr,
          operation: `LOGIN LOCK ${scope}`,
          status: 429,
          targets: JSON.stringify({ lockedUntil: [lockedUntil.toISOString()], failures: [String(row.failures)] }),
          target_keys: [],
        })
        .execute();
      log?.warn(
        { account: acc, address: addr, scope, failures: row.failures, lockedUntil: lockedUntil.toISOString() },
        'login locked',
      );
    }
  }

  /** A correct password from an address clears that address's counter for the account. */
  async recordSuccess(account: string, address: string): Promise<void> {
    await this.ctx.db
      .deleteFrom('login_throttle')
      .where('account', '=', account)
      .where('address', '=', address)
      .execute();
  }

  /** Drops counters nobody needs any more (called now and then). */
  async prune(): Promise<void> {
    const staleBefore = new Date(this.now() - this.policy.resetAfterMs);
    await this.ctx.db.deleteFrom('login_throttle').where('last_failure_at', '<', staleBefore).execute();
  }
}
