// The WebSocket hub: every device.* event from the bus goes to the browsers whose user reaches the device's
// owner in the hierarchy. An event is serialised once, whatever the number of browsers.
import type { WebSocket } from 'ws';
import type { EventBus } from '../../bus/types.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { SessionUser } from '../../http/session.ts';
import { isDeviceEnvelope, Subjects } from '../events.ts';

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
  private readonly unsubscribe: () => void;
  sent = 0;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.subscribe(Subjects.allDevice, (payload) => this.dispatch(payload));
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

  close(): void {
    this.unsubscribe();
    for (const c of this.clients) c.socket.close(1001, 'server stopping');
    this.clients.clear();
  }
}
