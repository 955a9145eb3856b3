import { createTerminalIdCache, type TerminalIdCache } from './frame.ts';
import { Jt808SerialCounter } from './serial-counter.ts';

export type Jt808Version = '2011' | '2013' | '2019';

/** A sub-packaged message being reassembled. */
export interface Jt808PendingMessage {
  messageId: number;
  total: number;
  parts: (Uint8Array | undefined)[];
  received: number;
  bytes: number;
  startedAt: number;
}

/** Per-connection state of a JT/T 808 session. Create one per TCP connection with createJt808Context(). */
export interface Jt808Context {
  /** Terminal id (header phone number) of the last frame. */
  terminalId: string | null;
  /** Protocol version: from the header (2019) or guessed from the registration body (2011/2013). */
  version: Jt808Version | null;
  /** Minutes east of UTC for device times; JT/T 808 devices report Beijing time (GMT+8) by default. */
  timeZoneMinutes: number;
  /** Device model, for vendor variants of additional location items (e.g. 'MV710G', 'JC371', 'GL100'). */
  model: string | null;
  /** Reject frames whose XOR check does not match (default false; checksumOk reports it). */
  requireChecksum: boolean;
  /**
   * The authentication code returned in the 0x8100 registration reply. Default: a fresh random code (never
   * the terminal id, which anyone who reads the label knows); a platform keeps the code it hands out and
   * compares the terminal's 0x0102 with it (the Carhere gateway builds this reply itself, from the database).
   */
  authCodeFor: (terminalId: string) => string;
  /** Serial numbers for everything the platform sends on this connection (replies and commands). */
  serials: Jt808SerialCounter;
  /** Sub-package reassembly buffers, keyed by message id and first serial. */
  pending: Map<string, Jt808PendingMessage>;
  /** Limits for reassembly: at most this many messages in progress, bytes per message, and age (ms). */
  maxPendingMessages: number;
  maxMessageBytes: number;
  pendingTimeoutMs: number;
  now: () => number;
  /** The last terminal id, so it is not re-formatted for every frame. */
  idCache: TerminalIdCache;
}

export interface Jt808ContextOptions {
  terminalId?: string | null;
  version?: Jt808Version | null;
  timeZoneMinutes?: number;
  model?: string | null;
  requireChecksum?: boolean;
  authCodeFor?: (terminalId: string) => string;
  serials?: Jt808SerialCounter;
  maxPendingMessages?: number;
  maxMessageBytes?: number;
  pendingTimeoutMs?: number;
  now?: () => number;
}

export function createJt808Context(options: Jt808ContextOptions = {}): Jt808Context {
  return {
    terminalId: options.terminalId ?? null,
    version: options.version ?? null,
    timeZoneMinutes: options.timeZoneMinutes ?? 480,
    model: options.model ?? null,
    requireChecksum: options.requireChecksum ?? false,
    authCodeFor: options.authCodeFor ?? randomAuthCode,
    serials: options.serials ?? new Jt808SerialCounter(),
    pending: new Map(),
    maxPendingMessages: options.maxPendingMessages ?? 4,
    maxMessageBytes: options.maxMessageBytes ?? 1024 * 1024,
    pendingTimeoutMs: options.pendingTimeoutMs ?? 5 * 60_000,
    now: options.now ?? Date.now,
    idCache: createTerminalIdCache(),
  };
}

/** 16 hex characters from a cryptographic source. */
export function randomAuthCode(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
