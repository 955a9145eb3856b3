// Request fields shared by the gateway's API areas.
import { COORD_SYSTEMS, type CoordSystem, parseInstant } from '@carhere/domain';
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

/**
 * A moment as epoch milliseconds or an ISO-8601 string, 1900–9999; parsed to epoch milliseconds. A date or
 * date-time without a zone is read in the platform's zone (UTC+8, spec §9), never in the host's (parseInstant).
 */
export const instantSchema = z.union([z.number().finite(), z.string().min(1).max(40)]).transform((v, ctx) => {
  const ms = parseInstant(v);
  // Within 1900–9999: the database cannot store (or compare) times far outside it.
  if (ms === undefined || !timeInRange(ms)) {
    ctx.addIssue({ code: 'custom', message: 'not a time' });
    return z.NEVER;
  }
  return ms;
});

/** Query-string booleans ('true' / '1') as well as JSON ones. */
export const flagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * Coordinate system of the positions in an answer: 'wgs84' (stored, the default), 'gcj02' (AMap, Google China) or
 * 'bd09' (Baidu). Inputs (area boxes, fences) stay WGS-84.
 */
export const coordTypeSchema = z.enum(COORD_SYSTEMS as [CoordSystem, ...CoordSystem[]]);
