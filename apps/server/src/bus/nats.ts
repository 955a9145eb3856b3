// NATS implementation of the event bus (BUS_URL=nats://…): several gateway and API processes share events.
// Payloads travel as JSON. Subjects use NATS syntax, so 'device.>' works the same as on the in-process bus.
// With a prefix (BUS_PREFIX) every subject on the wire starts with it and handlers see the subject without it,
// so several deployments (or test runs) can share one NATS server without hearing each other.
//
// Publishing is bounded. nats.js has no back-pressure: `publish` appends to the connection's buffer and writes to
// the socket whatever the server takes, so when the server (or the machine) falls behind, the bytes wait in this
// process without limit; and while the connection is down they wait in a buffer that nats.js throws away on
// reconnect. So: while the connection is down nothing is buffered; while it is up, once `maxPendingBytes` are
// published and not yet confirmed by the server (a PING/PONG round trip confirms everything written before it),
// positions are dropped and counted (carhere_bus_publish_dropped_total) — a NATS server slows a publisher down to
// its slowest subscriber, so an API process that cannot keep up with the live positions would otherwise grow the
// gateway's memory and the browsers' delay without end. Other events (alarms, state, commands: rare, and their
// listeners have no other source) still go out. Once the server has caught up, a gap notice goes out (at most
// one per GAP_EVERY_MS) and every process's resume listeners run as after an outage: the live hub reads the
// latest state of the devices that changed meanwhile from the database.
import { connect, Events, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { Subjects } from '../gateway/events.ts';
import { busPublishDropped } from '../ops/metrics.ts';
import type { BusHandler, EventBus } from './types.ts';

const codec = JSONCodec<unknown>();

/** Published and not yet confirmed by the server, at most (bytes). */
const MAX_PENDING_BYTES = 32 * 2 ** 20;
/** A round trip confirms what was published before it; one is started once this much is unconfirmed. */
const PROBE_BYTES = 256 * 1024;
/** Subject (under the prefix) of the notice that publishes were dropped since a time: listeners catch up. */
const GAP_SUBJECT = '_bus.gap';
/**
 * At most one gap notice this often: each makes every API process read the devices that changed back from the
 * database and send them to every browser, work an overloaded API process should not get every few seconds.
 */
const GAP_EVERY_MS = 30_000;

export interface NatsBusOptions {
  prefix?: string;
  /** Bytes published and not yet confirmed by the server beyond which positions are dropped (default 32 MiB). */
  maxPendingBytes?: number;
}

export class NatsBus implements EventBus {
  private readonly subs = new Set<Subscription>();
  private readonly resumeHandlers = new Set<(downSince: number) => void>();
  /** When the connection to the server was lost (ms), while it is lost. */
  private downSince: number | null = null;
  /** Bytes published since the start of the last round trip the server answered (an estimate of what waits here). */
  private unconfirmed = 0;
  private probing = false;
  /** When publishes began to be dropped (ms), until the gap notice is out. */
  private droppingSince: number | null = null;
  private lastGapAt = 0;
  /** Tells this connection's own gap notices from other processes' (its own listeners are told directly). */
  private readonly id = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private gapTimer: NodeJS.Timeout | undefined;
  /** Publishes dropped so far (the connection down, or the server behind). */
  dropped = 0;
  private readonly prefix: string;
  private readonly maxPendingBytes: number;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly onError: (err: unknown, subject: string) => void,
    options: NatsBusOptions,
  ) {
    this.prefix = options.prefix ?? '';
    this.maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_BYTES;
    // Another process dropped publishes: what it published meanwhile may be missing here too.
    this.nc.subscribe(this.prefix + GAP_SUBJECT, {
      callback: (err, msg) => {
        if (err) return;
        const notice = codec.decode(msg.data) as { since?: number; from?: string } | null;
        const since = Number(notice?.since);
        if (notice?.from !== this.id && Number.isFinite(since)) this.resumed(since);
      },
    });
  }

  static async connect(
    url: string,
    onError: (err: unknown, subject: string) => void = () => {},
    options: string | NatsBusOptions = {},
  ): Promise<NatsBus> {
    const servers = url.replace(/^nats:\/\//, '').split(',');
    const nc = await connect({
      servers,
      name: `carhere-${process.pid}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    const bus = new NatsBus(nc, onError, typeof options === 'string' ? { prefix: options } : options);
    void bus.watchStatus();
    return bus;
  }

  private resumed(since: number): void {
    for (const h of this.resumeHandlers) {
      try {
        h(since);
      } catch (err) {
        this.onError(err, 'bus.resume');
      }
    }
  }

  /** Notes when the server goes away; on reconnect (subscriptions renewed) tells the resume handlers. */
  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === Events.Disconnect) {
        this.downSince ??= Date.now();
      } else if (s.type === Events.Reconnect) {
        const since = Math.min(this.downSince ?? Date.now(), this.droppingSince ?? Date.now());
        // nats.js discarded what was waiting for the old connection; the listeners catch up from `since`, and so
        // do other processes' when this one dropped publishes (their connection may never have gone away).
        if (this.droppingSince !== null) this.announceGap(since);
        this.downSince = null;
        this.unconfirmed = 0;
        this.droppingSince = null;
        this.resumed(since);
      }
    }
  }

  onResume(handler: (downSince: number) => void): () => void {
    this.resumeHandlers.add(handler);
    return () => {
      this.resumeHandlers.delete(handler);
    };
  }

  /** Bytes published and not yet confirmed by the server (an upper bound of what waits in this process). */
  get pendingBytes(): number {
    return this.unconfirmed;
  }

  publish(subject: string, payload: unknown): void {
    // Down: nats.js would buffer it without limit and discard it on reconnect. Behind: positions over the bound
    // (the device's next fix, or the catch-up, replaces a dropped one).
    if (this.downSince !== null || (this.unconfirmed >= this.maxPendingBytes && subject === Subjects.position)) {
      this.drop();
      return;
    }
    const data = codec.encode(payload);
    this.nc.publish(this.prefix + subject, data);
    // The payload, the subject and the PUB line around them.
    this.unconfirmed += data.length + 2 * (this.prefix.length + subject.length) + 16;
    if (this.unconfirmed >= PROBE_BYTES) this.probe();
  }

  private drop(): void {
    this.dropped++;
    busPublishDropped.inc();
    if (this.droppingSince === null) {
      this.droppingSince = Date.now();
      this.onError(new Error('NATS publish dropped: the connection is down or the server is behind'), 'bus.publish');
    }
    this.probe();
  }

  /** The server took what was pending after drops: the gap notice goes out (at most one per GAP_EVERY_MS). */
  private gapCaughtUp(): void {
    const wait = this.lastGapAt + GAP_EVERY_MS - Date.now();
    if (wait > 0) {
      this.gapTimer ??= setTimeout(() => {
        this.gapTimer = undefined;
        if (this.droppingSince !== null && this.downSince === null) this.gapCaughtUp();
      }, wait).unref();
      return;
    }
    const since = this.droppingSince ?? Date.now();
    this.droppingSince = null;
    this.lastGapAt = Date.now();
    this.announceGap(since);
    this.resumed(since);
  }

  /** Tells every process (this one too) that publishes since `since` may be missing. */
  private announceGap(since: number): void {
    try {
      this.nc.publish(this.prefix + GAP_SUBJECT, codec.encode({ since, from: this.id }));
    } catch (err) {
      this.onError(err, GAP_SUBJECT); // closing
    }
  }

  /** A round trip: when the server answers, everything published before it has left this process. */
  private probe(): void {
    if (this.probing || this.downSince !== null || this.nc.isClosed()) return;
    this.probing = true;
    const before = this.unconfirmed;
    this.nc.flush().then(
      () => {
        this.probing = false;
        this.unconfirmed = Math.max(0, this.unconfirmed - before);
        if (this.droppingSince !== null && this.unconfirmed < this.maxPendingBytes) this.gapCaughtUp();
        if (this.unconfirmed >= PROBE_BYTES) this.probe();
      },
      () => {
        // Disconnected (the buffer was discarded) or closed: the reconnect starts from nothing.
        this.probing = false;
      },
    );
  }

  subscribe(subject: string, handler: BusHandler): () => void {
    const sub = this.nc.subscribe(this.prefix + subject, {
      callback: (err, msg) => {
        if (err) return this.onError(err, subject);
        const local = msg.subject.slice(this.prefix.length);
        try {
          handler(codec.decode(msg.data), local);
        } catch (e) {
          this.onError(e, local);
        }
      },
    });
    this.subs.add(sub);
    return () => {
      sub.unsubscribe();
      this.subs.delete(sub);
    };
  }

  /** Resolves once everything published so far has reached the server (used before a clean shutdown). */
  async flush(): Promise<void> {
    await this.nc.flush();
  }

  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('NATS connection closed');
    await this.nc.flush();
  }

  async close(): Promise<void> {
    clearTimeout(this.gapTimer);
    this.resumeHandlers.clear();
    for (const s of this.subs) s.unsubscribe();
    this.subs.clear();
    await this.nc.drain();
  }
}
