// The live WebSocket (GET /api/ws, session cookie): reconnects with back-off, pings, and hands the page one
// coalesced batch per flush interval instead of one update per message.
import { type LiveBatch, LiveBatcher } from './liveBatcher.ts';
import { type NotificationMessage, parseLiveMessage } from './messages.ts';

export type LiveStatus = 'connecting' | 'open' | 'closed';

export interface LiveSocketOptions {
  /** How often gathered messages are handed over (ms). */
  flushMs?: number;
  onBatch: (batch: LiveBatch) => void;
  onStatus?: (status: LiveStatus) => void;
  /** In-app notifications, handed over as they come (they are few, and not coalesced). */
  onNotification?: (msg: NotificationMessage) => void;
}

/** One batch a second: markers move at most once a second, which keeps 10,000 devices fluid. */
export const DEFAULT_FLUSH_MS = 1000;
const PING_MS = 25_000;
const MAX_BACKOFF_MS = 30_000;

export function liveSocketUrl(loc: Location = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/ws`;
}

export class LiveSocket {
  private socket: WebSocket | null = null;
  private readonly batcher = new LiveBatcher();
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private stopped = true;
  private watched: string[] | null = null;

  constructor(private readonly options: LiveSocketOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.flushTimer = setInterval(() => this.flush(), this.options.flushMs ?? DEFAULT_FLUSH_MS);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.flushTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
  }

  /** Only these devices (null: the whole hierarchy). Re-sent after each reconnect. */
  watch(deviceIds: string[] | null): void {
    this.watched = deviceIds;
    this.send({ type: 'watch', deviceIds });
  }

  private send(msg: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  private flush(): void {
    if (this.batcher.pending) this.options.onBatch(this.batcher.take());
  }

  private connect(): void {
    if (this.stopped) return;
    this.options.onStatus?.('connecting');
    let socket: WebSocket;
    try {
      socket = new WebSocket(liveSocketUrl());
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.options.onStatus?.('open');
      if (this.watched) this.send({ type: 'watch', deviceIds: this.watched });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    };
    socket.onmessage = (event) => {
      const msg = parseLiveMessage(event.data);
      if (msg?.type === 'notification') this.options.onNotification?.(msg);
      else if (msg) this.batcher.add(msg);
    };
    socket.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.socket === socket) this.socket = null;
      this.options.onStatus?.('closed');
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempts);
    this.attempts++;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }
}
