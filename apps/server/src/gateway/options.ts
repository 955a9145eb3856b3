// Gateway settings. Ports, command timeout and offline TTL come from the shared Config; the rest are
// gateway-only environment variables, documented in gateway/README.md.
import type { Config } from '../config.ts';
import { type NbDownlinkOptions, nbDownlinkOptionsFrom } from './nb/settings.ts';

export interface GatewayOptions {
  /** JT/T 808 remote upgrade pushes (modules/ota/pusher.ts): resend timeout, window; tests shorten them. */
  ota?: Partial<import('../modules/ota/pusher.ts').OtaPusherOptions>;
  host: string;
  gt06Port: number;
  jt808Port: number;
  /** OsmAnd HTTP protocol (phones: Traccar Client, OsmAnd) on this port (OSMAND_PORT, default 5055; 0: any free one). */
  osmandPort: number;
  /** A connection silent for this long is closed (and the device marked offline). */
  idleMs: number;
  /** Acknowledge GT06 location packets too (so a device or the simulator knows a fix is stored). */
  gt06AckLocations: boolean;
  /** Largest number of positions written in one statement. */
  maxBatchRows: number;
  /** Concurrent batch transactions (PostgreSQL server: 4, whose commits share WAL flushes; PGlite has one connection). */
  writers: number;
  /** Above this many positions waiting for the database, sessions stop reading their sockets. */
  highWaterRows: number;
  /**
   * Devices seen in the last day read into the directory before the ports open (GATEWAY_PRELOAD_DEVICES, most
   * recent first; 0: none): the reconnect storm after a restart finds them without lookups.
   */
  preloadDevices: number;
  /** How often the coalesced device_state rows are written. */
  stateFlushMs: number;
  /** Shared secret the NB-IoT push callbacks must carry (?token= or x-callback-token), when set. */
  nbCallbackToken: string | undefined;
  /** The IoT platform's device-command API for NB-IoT devices (NB_COMMAND_URL …), or null: none configured. */
  nbDownlink: NbDownlinkOptions | null;
  /** Garbage tolerance: a connection that sends this many undecodable frames in a row is closed. */
  maxBadFrames: number;
  /** … or this many bytes that belong to no frame within a minute. */
  maxGarbageBytes: number;
  commandTimeoutMs: number;
  offlineCommandTtlHours: number;
  /** Silence before the offline alarm (OFFLINE_ALARM_MINUTES, default 10); per model in device_model_settings. */
  offlineAlarmMinutes: number;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export function gatewayOptionsFrom(
  config: Config,
  kind: 'pglite' | 'postgres',
  env: NodeJS.ProcessEnv = process.env,
): GatewayOptions {
  return {
    host: env.GATEWAY_HOST || '0.0.0.0',
    gt06Port: config.gt06Port,
    jt808Port: config.jt808Port,
    osmandPort: intEnv(env, 'OSMAND_PORT', 5055),
    idleMs: intEnv(env, 'GATEWAY_IDLE_SECONDS', 600) * 1000,
    gt06AckLocations: env.GT06_ACK_LOCATIONS !== '0',
    maxBatchRows: intEnv(env, 'GATEWAY_BATCH_ROWS', 5000),
    writers: intEnv(env, 'GATEWAY_WRITERS', kind === 'postgres' ? 4 : 1) || 1,
    highWaterRows: intEnv(env, 'GATEWAY_HIGH_WATER_ROWS', 50_000),
    stateFlushMs: intEnv(env, 'GATEWAY_STATE_FLUSH_MS', 250),
    preloadDevices: intEnv(env, 'GATEWAY_PRELOAD_DEVICES', 200_000),
    nbCallbackToken: env.NB_CALLBACK_TOKEN || undefined,
    nbDownlink: nbDownlinkOptionsFrom(env),
    maxBadFrames: intEnv(env, 'GATEWAY_MAX_BAD_FRAMES', 8),
    maxGarbageBytes: intEnv(env, 'GATEWAY_MAX_GARBAGE_BYTES', 2048),
    commandTimeoutMs: config.commandTimeoutMs,
    offlineCommandTtlHours: config.offlineCommandTtlHours,
    offlineAlarmMinutes: intEnv(env, 'OFFLINE_ALARM_MINUTES', 10) || 10,
  };
}
