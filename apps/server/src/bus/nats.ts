// NATS implementation of the event bus (BUS_URL=nats://…): several gateway and API processes share events.
// Payloads travel as JSON. Subjects use NATS syntax, so 'device.>' works the same as on the in-process bus.
// With a prefix (BUS_PREFIX) every subject on the wire starts with it and handlers see the subject without it,
// so several deployments (or test runs) can share one NATS server without hearing each other.
import { connect, Events, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import type { BusHandler, EventBus } from './types.ts';

const codec = JSONCodec<unknown>();

export class NatsBus implements EventBus {
  private readonly subs = new Set<Subscription>();
  private readonly resumeHandlers = new Set<(downSince: number) => void>();
  /** When the connection to the server was lost (ms), while it is lost. */
  private downSince: number | null = null;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly onError: (err: unknown, subject: string) => void,
    private readonly prefix: string,
  ) {}

  static async connect(
    url: string,
    onError: (err: unknown, subject: string) => void = () => {},
    prefix = '',
  ): Promise<NatsBus> {
    const servers = url.replace(/^nats:\/\//, '').split(',');
    const nc = await connect({
      servers,
      name: `carhere-${process.pid}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    const bus = new NatsBus(nc, onError, prefix);
    void bus.watchStatus();
    return bus;
  }

  /** Notes when the server goes away; on reconnect (subscriptions renewed) tells the resume handlers. */
  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === Events.Disconnect) {
        this.downSince ??= Date.now();
      } else if (s.type === Events.Reconnect) {
        const since = this.downSince ?? Date.now();
        this.downSince = null;
        for (const h of this.resumeHandlers) {
          try {
            h(since);
          } catch (err) {
            this.onError(err, 'bus.resume');
          }
        }
      }
    }
  }

  onResume(handler: (downSince: number) => void): () => void {
    this.resumeHandlers.add(handler);
    return () => {
      this.resumeHandlers.delete(handler);
    };
  }

  publish(subject: string, payload: unknown): void {
    this.nc.publish(this.prefix + subject, codec.encode(payload));
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
    this.resumeHandlers.clear();
    for (const s of this.subs) s.unsubscribe();
    this.subs.clear();
    await this.nc.drain();
  }
}
