// Kysely row types for the accounts area's tables (import quota records, …). Filled by the accounts area.
// biome-ignore lint/suspicious/noEmptyInterface: extended by the accounts area's tables
export interface AccountsTables {}
