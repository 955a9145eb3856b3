// Per-device reads and writes made at connection time, grouped: the requests of one event-loop turn share one
// query, and while one query runs, new requests wait and go together in the next (a reconnect storm is a few
// statements, not one per device).

/**
 * When to run the next group: on the next turn when things are quiet, a few milliseconds later when the previous
 * group started moments ago (a storm), so that more requests join it: a login waits ≤ 10 ms more, the database
 * sees one statement where it would see ten.
 */
export class GroupTimer {
  private last = -Infinity;

  run(fn: () => void): void {
    const now = performance.now();
    const wait = now - this.last < 100 ? 10 : 0;
    this.last = now + wait;
    if (wait === 0) setImmediate(fn);
    else setTimeout(fn, wait);
  }
}

export class GroupedReads<T> {
  private readonly timer = new GroupTimer();
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
    this.timer.run(() => {
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

/**
 * Logins come first. Work a login sets off that can wait a moment (its device-log row, the reads of its offline
 * commands and pending upgrade) waits until no device has started a login for `quietMs`, and at most `maxMs`:
 * in a reconnect storm the database and the event loop answer the logins before they write the logs, so the
 * last device is answered sooner; otherwise the wait is `quietMs` after the login.
 */
export class LoginActivity {
  private last = Number.NEGATIVE_INFINITY;
  private waiters: { resolve: () => void; deadline: number }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly quietMs = 50,
    private readonly maxMs = 2000,
  ) {}

  /** A device started a login (its first frame came in). */
  note(): void {
    this.last = performance.now();
  }

  /** Resolves once no login has started for `quietMs`, or after `maxMs` (the constructor's, unless given here). */
  whenQuiet(maxMs = this.maxMs): Promise<void> {
    const now = performance.now();
    if (now - this.last >= this.quietMs) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ resolve, deadline: now + maxMs });
      this.arm();
    });
  }

  /** Lets everything waiting go now, and what comes later at once (the gateway stops). */
  release(): void {
    this.last = Number.NEGATIVE_INFINITY;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.resolve();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = performance.now();
      const quiet = now - this.last >= this.quietMs;
      const due = quiet ? this.waiters : this.waiters.filter((w) => w.deadline <= now);
      this.waiters = quiet ? [] : this.waiters.filter((w) => w.deadline > now);
      for (const w of due) w.resolve();
      if (this.waiters.length > 0) this.arm();
    }, this.quietMs);
    this.timer.unref();
  }
}
