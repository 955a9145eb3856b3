// Fixed-window request limits kept in the database (request_counters), so every API process shares them.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { ApiError } from './errors.ts';

/**
 * Counts one call under `key`; throws 429 "Too many requests, try again in N seconds" when more than `max`
 * calls fall in the current window of `windowMs`.
 */
export async function limitRequests(ctx: AppContext, key: string, max: number, windowMs: number): Promise<void> {
  const now = new Date();
  const windowStartBefore = new Date(now.getTime() - windowMs);
  const row = await ctx.db
    .insertInto('request_counters')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN request_counters.window_start < ${windowStartBefore} THEN 1 ELSE request_counters.count + 1 END`,
        window_start: sql<Date>`CASE WHEN request_counters.window_start < ${windowStartBefore} THEN ${now} ELSE request_counters.window_start END`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  if (row.count > max) {
    const seconds = Math.max(1, Math.ceil((row.window_start.getTime() + windowMs - now.getTime()) / 1000));
    throw new ApiError(429, 'http.tooManyRequests', 429, { seconds });
  }
}
