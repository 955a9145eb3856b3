// The WebSocket hub: every device.* event from the bus goes to the browsers whose user reaches the device's
// owner in the hierarchy. An event is serialised once, whatever the number of browsers.
import type { WebSocket } from 'ws';
import type { EventBus } from '../../bus/types.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { SessionUser } from '../../http/session.ts';
import { isDeviceEnvelope, Subjects } from '../events.ts';

/** notifier → hubs: an in-app notification for the browsers of one user (whichever process holds them). */
export const LIVE_NOTIFICATION_SUBJECT = 'live.notification';

export interface LiveNotification {
  userId: string;
  message: {
    type: 'notification';
    /** The delivery's uid */
    id: string;
    event: string;
    terminalID: string;
    deviceName: string;
    time: string;
    lat: number | null;
    lon: number | null;
    speed: number | null;
    detail?: string;
  };
}

function isLiveNotification(p: unknown): p is LiveNotification {
  const n = p as LiveNotification | null;
  return typeof n?.userId === 'string' && n.message?.type === 'notification' && typeof n.message.id === 'string';
}

/** Above this many buffered bytes a browser is too slow; it is dropped rather than let memory grow. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface LiveClient {
  user: Pick<SessionUser, 'id' | 'role' | 'path'>;
  socket: WebSocket;
  /** When set, only these devices (still within the hierarchy). */
  watch: Set<string> | null;
}

export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private readonly unsubscribe: (() => void)[];
  sent = 0;

  constructor(bus: EventBus) {
    this.unsubscribe = [
      bus.subscribe(Subjects.allDevice, (payload) => this.dispatch(payload)),
      bus.subscribe(LIVE_NOTIFICATION_SUBJECT, (payload) => this.notify(payload)),
    ];
  }

  get size(): number {
    return this.clients.size;
  }

  add(client: LiveClient): void {
    this.clients.add(client);
    client.socket.on('close', () => this.clients.delete(client));
    client.socket.on('message', (data) => this.onMessage(client, data.toString()));
    client.socket.send(JSON.stringify({ type: 'hello', userId: client.user.id, serverTime: new Date().toISOString() }));
  }

  private onMessage(client: LiveClient, text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as { type?: unknown; deviceIds?: unknown };
    if (m.type === 'ping') {
      client.socket.send('{"type":"pong"}');
    } else if (m.type === 'watch') {
      if (m.deviceIds === null) client.watch = null;
      else if (Array.isArray(m.deviceIds) && m.deviceIds.length <= 100_000) {
        client.watch = new Set(m.deviceIds.map(String));
      }
    }
  }

  /** Sends one device event to the browsers that may see it (bus events, and catch-ups after a bus outage). */
  dispatch(payload: unknown): void {
    if (this.clients.size === 0 || !isDeviceEnvelope(payload)) return;
    let text: string | null = null;
    for (const client of this.clients) {
      if (!reachesPath(client.user, payload.path)) continue;
      if (client.watch && !client.watch.has(payload.event.deviceId)) continue;
      if (client.socket.readyState !== 1) continue;
      if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        client.socket.close(1013, 'too slow');
        continue;
      }
      text ??= JSON.stringify(payload.event);
      client.socket.send(text);
      this.sent++;
    }
  }

  /** Sends an in-app notification to the browsers of its user (the rule's owner) only. */
  notify(payload: unknown): void {
    if (this.clients.size === 0 || !isLiveNotification(payload)) return;
    let text: string | null = null;
    for (const client of this.clients) {
      if (client.user.id !== payload.userId || client.socket.readyState !== 1) continue;
      text ??= JSON.stringify(payload.message);
      client.socket.send(text);
      this.sent++;
    }
  }

  close(): void {
    for (const u of this.unsubscribe) u();
    for (const c of this.clients) c.socket.close(1001, 'server stopping');
    this.clients.clear();
  }
}
