// Prepares yesterday's track segments (modules/track/segments.ts) for the devices that reported since, soon
// after each UTC midnight, so long track queries find every ended day ready. One gateway process at a time does
// it (an advisory lock); a day a late fix invalidated is computed again by the next query or run.
import type pg from 'pg';
import { loadCompactTrack } from '../modules/track/segments.ts';

const DAY_MS = 86_400_000;
const LOCK_KEY = 4_242_205;
/** Devices per round; the job keeps going round by round until the day is done. */
const ROUND = 500;

export class SegmentJob {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private doneDay = '';
  prepared = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Prepares the segments of the day before `now` (UTC) that are missing; returns how many it stored. */
  async run(now = Date.now()): Promise<number> {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    if (this.running || this.doneDay === day) return 0;
    this.running = true;
    const client = await this.pool.connect();
    let prepared = 0;
    try {
      const lock = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
      if (!lock.rows[0].ok) return 0;
      try {
        let after = '0';
        for (;;) {
          const due = await client.query<{ device_id: string }>(
            `SELECT s.device_id FROM device_state s
              WHERE s.pos_time >= $1 AND s.device_id > $4
                AND NOT EXISTS (SELECT 1 FROM track_segments t WHERE t.device_id = s.device_id AND t.day = $2::date AND t.data IS NOT NULL)
              ORDER BY s.device_id LIMIT $3`,
            [new Date(dayStart), day, ROUND, after],
          );
          for (const row of due.rows) {
            await loadCompactTrack(client, String(row.device_id), dayStart, dayStart + DAY_MS - 1, now);
            prepared++;
            after = String(row.device_id);
          }
          if (due.rows.length < ROUND) break;
        }
        this.doneDay = day;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
      }
    } catch (err) {
      this.onError(err);
    } finally {
      client.release();
      this.running = false;
    }
    this.prepared += prepared;
    return prepared;
  }
}
