// Request fields shared by the gateway's API areas.
import { z } from 'zod';
import { timeInRange } from '../../http/input.ts';

/** An IMEI / terminal number as the API accepts it. */
export const terminalIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[0-9A-Za-z]+$/, 'letters and digits only');

/** A bigint row id, as a string or a number. */
export const idSchema = z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()]).transform(String);

/** A moment as epoch milliseconds or an ISO-8601 string, 1900–9999; parsed to epoch milliseconds. */
export const instantSchema = z.union([z.number().finite(), z.string().min(1).max(40)]).transform((v, ctx) => {
  const ms = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  // Within 1900–9999: the database cannot store (or compare) times far outside it.
  if (!timeInRange(ms)) {
    ctx.addIssue({ code: 'custom', message: 'not a time' });
    return z.NEVER;
  }
  return ms;
});

/** Query-string booleans ('true' / '1') as well as JSON ones. */
export const flagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
