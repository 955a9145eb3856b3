// Kysely row types for the gateway's tables (positions, alarms, commands, device log). Filled by the gateway area.
// biome-ignore lint/suspicious/noEmptyInterface: extended by the gateway area's tables
export interface GatewayTables {}
