export const DEFAULT_PAGE_SIZE = 15;
/** 10 to 100 step 10. */
export const PAGE_SIZE_OPTIONS: readonly number[] = Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
