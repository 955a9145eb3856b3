/** Paging of spec §3 and §9: request params pageNum / pageSize, response fields status, total, list. */
export const PAGE_PARAM = 'pageNum';
export const SIZE_PARAM = 'pageSize';
export const DEFAULT_PAGE_SIZE = 15;
/** 10 to 100 step 10. */
export const PAGE_SIZE_OPTIONS: readonly number[] = Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  readonly pageNum: number;
  readonly pageSize: number;
  /** Rows to skip: (pageNum - 1) * pageSize. */
  readonly offset: number;
}

function positiveInteger(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/**
 * Paging from request values: a missing or invalid pageNum is 1, a missing or invalid pageSize is 15,
 * and pageSize is capped at `maxPageSize` (100 unless a caller such as statistics allows more).
 */
export function toPaging(input: { pageNum?: unknown; pageSize?: unknown }, maxPageSize = MAX_PAGE_SIZE): Paging {
  const pageSize = Math.min(positiveInteger(input.pageSize) ?? DEFAULT_PAGE_SIZE, maxPageSize);
  // Cap the page number so that the offset stays an exact integer.
  const pageNum = Math.min(positiveInteger(input.pageNum) ?? 1, Math.floor(Number.MAX_SAFE_INTEGER / pageSize));
  return { pageNum, pageSize, offset: (pageNum - 1) * pageSize };
}

/** Number of pages for a total (at least 1, so an empty table still shows page 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}
