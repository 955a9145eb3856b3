/** Per-connection state of a GT06 session. Create one per TCP connection with createGt06Context(). */
export interface Gt06Context {
  /** IMEI learned from the login packet (or set by the gateway when it already knows the device). */
  terminalId: string | null;
  /**
   * Device time zone in minutes east of UTC, when configured for the device. It takes precedence over
   * the zone a login packet announces. null = not configured.
   */
  configuredTimeZoneMinutes: number | null;
  /** Time zone announced by the last login packet, in minutes east of UTC (null = none announced). */
  loginTimeZoneMinutes: number | null;
  /** Device model, for the few vendor variants that reuse a packet layout differently (e.g. 'LW4G-4B', 'R11'). */
  model: string | null;
  /** Reject frames whose CRC does not match (default false: many devices send wrong CRCs; checksumOk reports it). */
  requireChecksum: boolean;
  /**
   * Also acknowledge plain location packets (0x10/0x11/0x12/0x22/...). The GT06 protocol does not require
   * it and most devices ignore the ACK; a few vendors want it.
   */
  ackLocations: boolean;
  /** Clock for replies that carry the current time (0x8A time request). */
  now: () => number;
}

export interface Gt06ContextOptions {
  terminalId?: string | null;
  timeZoneMinutes?: number | null;
  model?: string | null;
  requireChecksum?: boolean;
  ackLocations?: boolean;
  now?: () => number;
}

export function createGt06Context(options: Gt06ContextOptions = {}): Gt06Context {
  return {
    terminalId: options.terminalId ?? null,
    configuredTimeZoneMinutes: options.timeZoneMinutes ?? null,
    loginTimeZoneMinutes: null,
    model: options.model ?? null,
    requireChecksum: options.requireChecksum ?? false,
    ackLocations: options.ackLocations ?? false,
    now: options.now ?? Date.now,
  };
}

/** The offset (minutes east of UTC) used for the device's local times: configured, else from login, else UTC. */
export function gt06TimeZone(ctx: Gt06Context): number {
  return ctx.configuredTimeZoneMinutes ?? ctx.loginTimeZoneMinutes ?? 0;
}
