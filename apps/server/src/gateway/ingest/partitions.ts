// Monthly partitions of `positions`, created ahead on demand. Months far from now (a device with a broken
// clock) are not given partitions and land in positions_default.
import type pg from 'pg';

const MONTH_MS_BEHIND = 400 * 86_400_000;
const MONTH_MS_AHEAD = 40 * 86_400_000;

/** 'YYYY_MM' of a UTC time. */
export function monthKey(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

function monthBounds(key: string): { from: string; to: string } {
  const [y, m] = key.split('_').map(Number);
  const from = new Date(Date.UTC(y, m - 1, 1)).toISOString();
  const to = new Date(Date.UTC(y, m, 1)).toISOString();
  return { from, to };
}

export class PartitionManager {
  /** Months that have a partition, or that must use the default one (creation refused). */
  private readonly known = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  /** Reads the partitions that exist and creates this month's and next month's. */
  async prepare(now = Date.now()): Promise<void> {
    const rows = await this.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'positions'`,
    );
    for (const r of rows.rows) {
      const m = /^positions_(\d{4}_\d{2})$/.exec(r.name);
      if (m) this.known.add(m[1]);
    }
    await this.ensure([now, now + 31 * 86_400_000], now);
  }

  /** Makes sure every month of these times has a partition (or is known to use the default one). */
  async ensure(times: Iterable<number>, now = Date.now()): Promise<void> {
    let wanted: Set<string> | undefined;
    for (const t of times) {
      const key = monthKey(t);
      if (this.known.has(key)) continue;
      if (t < now - MONTH_MS_BEHIND || t > now + MONTH_MS_AHEAD) continue;
      if (!wanted) wanted = new Set();
      wanted.add(key);
    }
    if (!wanted) return;
    for (const key of wanted) await this.create(key);
  }

  private async create(key: string): Promise<void> {
    const { from, to } = monthBounds(key);
    try {
      await this.pool.query(
        `CREATE TABLE IF NOT EXISTS positions_${key} PARTITION OF positions FOR VALUES FROM ('${from}') TO ('${to}')`,
      );
    } catch (err) {
      // Another process created it at the same moment, or rows of that month already sit in the default
      // partition (then the month keeps using the default one). Either way, writing can go on.
      const code = (err as { code?: string }).code;
      if (code !== '42P07' && code !== '23505' && code !== '23514' && code !== '42P17') throw err;
    }
    this.known.add(key);
  }
}
