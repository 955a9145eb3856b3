// Per-device reads made at connection time, grouped: the requests of one event-loop turn share one query, and
// while one query runs, new requests wait and go together in the next (a reconnect storm is a few statements,
// not one per device).

export class GroupedReads<T> {
  private waiting = new Map<string, { resolve: (v: T) => void; reject: (err: unknown) => void }[]>();
  private scheduled = false;
  private running = false;

  /** `load` answers every requested key (a key it leaves out gets `empty`). */
  constructor(
    private readonly load: (keys: string[]) => Promise<Map<string, T>>,
    private readonly empty: T,
  ) {}

  get(key: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(key);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.waiting.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.waiting;
      this.waiting = new Map();
      this.running = true;
      this.load([...batch.keys()])
        .then(
          (found) => {
            for (const [key, list] of batch) for (const w of list) w.resolve(found.get(key) ?? this.empty);
          },
          (err) => {
            for (const list of batch.values()) for (const w of list) w.reject(err);
          },
        )
        .finally(() => {
          this.running = false;
          this.schedule();
        });
    });
  }
}
