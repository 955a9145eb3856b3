// Request pieces shared by the accounts area's routes.
import { z } from 'zod';
import { boundedDate } from '../../http/input.ts';

/** A database id: digits as a string, or a positive integer; always a string afterwards. */
export const idSchema = z
  .union([z.string().regex(/^\d{1,18}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);

export const idBody = z.object({ id: idSchema });

/** Optional text field of a form: trimmed, bounded. */
export const text = (max: number) => z.string().trim().max(max);

/** A date as ISO text or epoch milliseconds; null clears it. */
export const dateInput = boundedDate;

/** Page request of spec §3 (pageNum, pageSize; size 15 by default, at most 100). */
export const pageParams = {
  pageNum: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(15),
};
