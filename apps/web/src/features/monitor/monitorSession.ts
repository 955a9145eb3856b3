// One monitoring session: the device store, the live socket feeding it, and the listeners of each batch
// (markers, the popup, alarm pop-ups). Created by the home page and closed when it unmounts.
import { clientState } from '../custself/clientState.ts';
import { findAllLocations } from './api.ts';
import { DeviceStore } from './deviceStore.ts';
import type { LiveBatch } from './live/liveBatcher.ts';
import { DEFAULT_FLUSH_MS, LiveSocket, type LiveStatus } from './live/liveSocket.ts';
import type { AlarmMessage, NotificationMessage } from './live/messages.ts';
import type { MonitorDevice } from './types.ts';

type Listener<T> = (value: T) => void;

class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  on(fn: Listener<T>): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  emit(value: T): void {
    for (const l of this.listeners) l(value);
  }
}

export class MonitorSession {
  readonly store = new DeviceStore();
  /** Devices changed by a live batch (after the store applied it). */
  readonly changed = new Emitter<MonitorDevice[]>();
  readonly alarms = new Emitter<{ alarms: AlarmMessage[]; dropped: number }>();
  readonly status = new Emitter<LiveStatus>();
  /** In-app notifications of the user's rules (events that are not alarms). */
  readonly notifications = new Emitter<NotificationMessage>();
  private readonly socket: LiveSocket;
  private abort = new AbortController();
  liveStatus: LiveStatus = 'connecting';

  constructor(flushMs = DEFAULT_FLUSH_MS) {
    this.socket = new LiveSocket({
      flushMs,
      onBatch: (batch) => this.onBatch(batch),
      onNotification: (msg) => this.notifications.emit(msg),
      onStatus: (s) => {
        this.liveStatus = s;
        this.status.emit(s);
      },
    });
  }

  /** Loads the device list, then listens live. Rejects when the list cannot be loaded. */
  async start(): Promise<void> {
    this.abort = new AbortController();
    this.socket.start();
    this.store.load(await this.findLocations());
  }

  /** Loads the list again (another account chosen, the no-process set grown); the live socket stays. */
  async reload(): Promise<void> {
    this.abort.abort();
    this.abort = new AbortController();
    this.store.load(await this.findLocations());
  }

  private findLocations() {
    return findAllLocations(this.abort.signal, {
      userId: clientState.selectAgentId(),
      noProcess: clientState.nis(),
    });
  }

  close(): void {
    this.abort.abort();
    this.socket.stop();
  }

  private onBatch(batch: LiveBatch): void {
    // User-timing entries ('carhere:store', 'carhere:markers') let benchmarks and DevTools see the cost.
    const t0 = performance.now();
    const { changed } = this.store.apply(batch.positions, batch.states);
    const t1 = performance.now();
    if (changed.length > 0) this.changed.emit(changed);
    performance.measure('carhere:store', { start: t0, end: t1 });
    performance.measure('carhere:markers', { start: t1, end: performance.now() });
    if (batch.alarms.length > 0) this.alarms.emit({ alarms: batch.alarms, dropped: batch.droppedAlarms });
  }
}
