import type { BusHandler, EventBus } from './types.ts';

/** In-process bus: handlers run synchronously in publish order; a throwing handler does not stop the others. */
export class MemoryBus implements EventBus {
  private readonly exact = new Map<string, Set<BusHandler>>();
  private readonly prefixes = new Map<string, Set<BusHandler>>();

  constructor(private readonly onError: (err: unknown, subject: string) => void = () => {}) {}

  publish(subject: string, payload: unknown): void {
    this.run(this.exact.get(subject), payload, subject);
    if (this.prefixes.size > 0) {
      for (const [prefix, handlers] of this.prefixes)
        if (subject.startsWith(prefix)) this.run(handlers, payload, subject);
    }
  }

  /** A method, not a closure made per publish (a reconnect storm publishes tens of thousands of notices). */
  private run(handlers: Set<BusHandler> | undefined, payload: unknown, subject: string): void {
    if (!handlers) return;
    for (const h of handlers) {
      try {
        h(payload, subject);
      } catch (err) {
        this.onError(err, subject);
      }
    }
  }

  subscribe(subject: string, handler: BusHandler): () => void {
    const isPrefix = subject.endsWith('>');
    const map = isPrefix ? this.prefixes : this.exact;
    const key = isPrefix ? subject.slice(0, -1) : subject;
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) map.delete(key);
    };
  }

  async ping(): Promise<void> {}

  onResume(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.exact.clear();
    this.prefixes.clear();
  }
}
