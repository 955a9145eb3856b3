// On-demand raw frame capture (factory log/search): staff switch capture on for an IMEI for N minutes
// (frame_capture rows); while on, each frame a session splits (and each frame it writes) is recorded in hex with
// its decoded JSON (frame_log). Cheap when off: sessions ask `active()`, a lookup in an empty map. The set of
// captured IMEIs is read from the database at start, every 30 s, and at once when the API announces a change
// on the bus, so several gateway processes follow the same switch.
import type { Kysely } from 'kysely';
import type { EventBus } from '../bus/types.ts';
import type { Database } from '../db/schema.ts';

export const FRAME_CAPTURE_CHANGED = 'gateway.capture.changed';
const REFRESH_MS = 30_000;
const FLUSH_MS = 200;
const MAX_BATCH = 500;
/** Hex kept per frame (bytes × 2): a frame longer than 4 KiB is cut. */
const MAX_HEX = 8192;

interface FrameRow {
  terminal_id: string;
  protocol: string;
  direction: 'in' | 'out';
  hex: string;
  decoded: string | null;
  remote: string;
}

/** JSON of a decoded message: bytes as hex, bigints as strings, dates as ISO text. */
export function decodedJson(value: unknown): string | null {
  try {
    return JSON.stringify(value, (_k, v) => {
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
      return v;
    });
  } catch {
    return null;
  }
}

export class FrameCapture {
  /** terminal id → capture end (ms). */
  private until = new Map<string, number>();
  private pending: FrameRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private refresher: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly bus: EventBus,
    private readonly onError: (err: unknown) => void,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.unsubscribe = this.bus.subscribe(FRAME_CAPTURE_CHANGED, () => void this.refresh().catch(this.onError));
    this.refresher = setInterval(() => void this.refresh().catch(this.onError), REFRESH_MS);
    this.refresher.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.refresher) clearInterval(this.refresher);
    await this.flush();
  }

  async refresh(): Promise<void> {
    const rows = await this.db
      .selectFrom('frame_capture')
      .select(['terminal_id', 'until'])
      .where('until', '>', new Date())
      .execute();
    this.until = new Map(rows.map((r) => [r.terminal_id, new Date(r.until).getTime()]));
  }

  /** Whether frames of `terminalId` are being captured now. */
  active(terminalId: string | null | undefined): boolean {
    if (this.until.size === 0 || !terminalId) return false;
    const end = this.until.get(terminalId);
    if (end === undefined) return false;
    if (end > Date.now()) return true;
    this.until.delete(terminalId);
    return false;
  }

  record(
    terminalId: string,
    protocol: string,
    direction: 'in' | 'out',
    frame: Uint8Array,
    decoded: unknown,
    remote: string,
  ): void {
    this.pending.push({
      terminal_id: terminalId,
      protocol,
      direction,
      hex: Buffer.from(frame).toString('hex').slice(0, MAX_HEX),
      decoded: decoded === undefined ? null : decodedJson(decoded),
      remote: remote.slice(0, 100),
    });
    if (this.pending.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    if (rows.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.db
        .insertInto('frame_log')
        .values(rows)
        .execute()
        .then(
          () => undefined,
          (err) => this.onError(err),
        ),
    );
    return this.writing;
  }
}
