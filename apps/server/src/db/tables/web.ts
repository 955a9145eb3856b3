// Kysely row types for tables behind the web features (fences, map keys, geocode cache, …).
// biome-ignore lint/suspicious/noEmptyInterface: extended by the web features' tables
export interface WebTables {}
