// The system log (factory log/monitor): the server's warnings and errors kept in system_log, written in batches
// off the request path. Fed by the logger (pino hook, level warn and above, when logging is on) and by the HTTP
// error handler for every 5xx answer (also when logging is off). Bounded by the retention cleanup (cleanup.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const FLUSH_MS = 500;
const MAX_BATCH = 200;
/** Entries waiting beyond this are dropped (an error storm must not eat the memory). */
const MAX_PENDING = 5000;

export type SystemLogLevel = 'warn' | 'error' | 'fatal';

export class SystemLog {
  private pending: { level: string; message: string; detail: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly db: Kysely<Database>) {}

  write(level: SystemLogLevel, message: string, detail = ''): void {
    if (this.closed || this.pending.length >= MAX_PENDING) return;
    this.pending.push({ level, message: message.slice(0, 1000), detail: detail.slice(0, 8000) });
    if (this.pending.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** A pino `logMethod` hook: records warn (40) and above, then logs as usual. */
  pinoHook() {
    const self = this;
    return function logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number): void {
      if (level >= 40) {
        const [first, second] = args;
        const message = typeof first === 'string' ? first : typeof second === 'string' ? second : 'log';
        const obj =
          typeof first === 'object' && first !== null
            ? (first as { err?: { stack?: string; message?: string } })
            : null;
        const detail = obj?.err?.stack ?? obj?.err?.message ?? '';
        // The HTTP error handler records 5xx answers itself.
        if (message !== 'unhandled error')
          self.write(level >= 60 ? 'fatal' : level >= 50 ? 'error' : 'warn', message, detail);
      }
      method.apply(this, args);
    };
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    if (rows.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.db
        .insertInto('system_log')
        .values(rows)
        .execute()
        .then(
          () => undefined,
          () => undefined,
        ),
    );
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

declare module '../../context.ts' {
  interface AppServices {
    systemLog: SystemLog;
  }
}
