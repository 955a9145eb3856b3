// The event bus between gateway and API processes. In-process by default; NATS (BUS_URL) for scale-out.
// Subjects are dot-separated; a subscription may end in '>' to match every subject below a prefix
// (e.g. 'device.>' receives 'device.position', 'device.alarm', …), as in NATS.

export type BusHandler = (payload: unknown, subject: string) => void;

export interface EventBus {
  publish(subject: string, payload: unknown): void;
  /** Returns an unsubscribe function. */
  subscribe(subject: string, handler: BusHandler): () => void;
  /** Resolves once the bus answers a round trip (readiness); the in-process bus always does. */
  ping(): Promise<void>;
  /**
   * Runs `handler` each time the bus comes back after an outage, with the time (ms) this process lost it:
   * events published meanwhile may never have arrived, so a listener catches up from the database. The
   * in-process bus never goes away. Returns an unsubscribe function.
   */
  onResume(handler: (downSince: number) => void): () => void;
  close(): Promise<void>;
}
