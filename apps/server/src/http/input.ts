// Shared request-field rules every area uses for bounded, database-safe input: times the database can store,
// integers within JavaScript's and PostgreSQL's safe range, and the checks for text the database refuses
// (NUL characters) or cannot encode (lone UTF-16 surrogates). Bad input answers 400 'invalid parameter: field'.
import { z } from 'zod';

/** The earliest and latest instants the API accepts (PostgreSQL stores far more; nothing sensible lies outside). */
export const MIN_TIME_MS = Date.UTC(1900, 0, 1);
export const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** True when `ms` is a time the API accepts. */
export function timeInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_TIME_MS && ms <= MAX_TIME_MS;
}

/** A Date from ISO text or epoch milliseconds, within 1900–9999. */
export const boundedDate = z.union([z.string().min(1).max(40), z.number().int()]).transform((v, ctx) => {
  const d = new Date(v);
  if (!timeInRange(d.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'invalid date' });
    return z.NEVER;
  }
  return d;
});

/** NUL, or a UTF-16 surrogate half without its partner. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string cannot be stored as text: it has a NUL or a lone surrogate. */
export function isBadText(s: string): boolean {
  return BAD_TEXT.test(s);
}

/**
 * The path ('rows/3/name') of the first string in a parsed body or query that cannot be stored as text (object
 * keys included), or null. Depth-limited: anything nested deeper than `maxDepth` is reported too.
 */
export function findBadText(value: unknown, maxDepth = 32): string | null {
  const walk = (v: unknown, path: string, depth: number): string | null => {
    if (typeof v === 'string') return isBadText(v) ? path || 'body' : null;
    if (v === null || typeof v !== 'object') return null;
    if (depth > maxDepth) return path || 'body';
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const bad = walk(v[i], path ? `${path}/${i}` : String(i), depth + 1);
        if (bad !== null) return bad;
      }
      return null;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const p = path ? `${path}/${k}` : k;
      if (isBadText(k)) return p;
      const bad = walk(x, p, depth + 1);
      if (bad !== null) return bad;
    }
    return null;
  };
  return walk(value, '', 0);
}

/** An integer a PostgreSQL integer column holds (−2³¹ … 2³¹−1); bigger numbers are refused naming the field. */
export const int32 = () =>
  z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1);
