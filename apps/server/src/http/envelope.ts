// Every response is the envelope { meta: { success, message, code }, data }.
import { z } from 'zod';

export interface Meta {
  success: boolean;
  message: string;
  code: number;
}

export interface Envelope<T> {
  meta: Meta;
  data: T;
}

export function ok<T>(data: T, message = 'ok', code = 200): Envelope<T> {
  return { meta: { success: true, message, code }, data };
}

export function fail(code: number, message: string, data: unknown = null): Envelope<unknown> {
  return { meta: { success: false, message, code }, data };
}

export const metaSchema = z.object({ success: z.boolean(), message: z.string(), code: z.number().int() });

/** Response schema for the OpenAPI document: the envelope around `data`. */
export function envelopeOf<T extends z.ZodTypeAny>(data: T) {
  return z.object({ meta: metaSchema, data });
}

/** A paged list: requests take pageNum/pageSize, responses carry { total, list }. */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({ total: z.number().int(), list: z.array(item) });
}

export const pageQuery = {
  // Bounded: a huge page number would overflow the database's OFFSET (a 500, not the caller's 400).
  pageNum: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100000).default(15),
};
