// `carhere stats rebuild [--from T] [--to T]`: recomputes the daily statistics rows from the stored positions and
// alarms (all of them, or those in the range; T is 'YYYY-MM-DD' (Shanghai midnight) or an ISO-8601 instant).
import { parseDateTime, STATISTICS_DEFAULT_ZONE } from '@carhere/domain';
import type pg from 'pg';
import { markForRebuild, runRollup } from '../modules/stat/rollup.ts';

export const STATS_USAGE = 'usage: carhere stats rebuild [--from YYYY-MM-DD|ISO] [--to YYYY-MM-DD|ISO]';

function instant(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseDateTime(text, STATISTICS_DEFAULT_ZONE) : Date.parse(text);
  if (ms === undefined || !Number.isFinite(ms)) throw new Error(`${name}: not a date: ${text}`);
  return ms;
}

export interface RebuildOptions {
  from?: number;
  to?: number;
}

export function parseStatsArgs(args: string[]): RebuildOptions {
  if (args[0] !== 'rebuild') throw new Error(STATS_USAGE);
  const opts: Record<string, string> = {};
  for (let i = 1; i < args.length; i += 2) {
    const key = args[i];
    if ((key !== '--from' && key !== '--to') || args[i + 1] === undefined) throw new Error(STATS_USAGE);
    opts[key.slice(2)] = args[i + 1];
  }
  const from = instant(opts.from, '--from');
  const to = instant(opts.to, '--to');
  if (from !== undefined && to !== undefined && from > to) throw new Error('--from is after --to');
  return { from, to };
}

/** Marks the devices with data in the range and rolls them up here; returns what it did. */
export async function rebuildStatistics(
  pool: pg.Pool,
  opts: RebuildOptions,
  log: (line: string) => void = () => {},
): Promise<{ devices: number; days: number }> {
  const marked = await markForRebuild(pool, opts.from, opts.to);
  log(`stats rebuild: ${marked} devices to recompute`);
  const result = await runRollup(pool, { onProgress: (done) => log(`  ${done}/${marked} devices`) });
  return { devices: result.devices, days: result.days };
}

export async function runStatsCli(args: string[]): Promise<number> {
  let opts: RebuildOptions;
  try {
    opts = parseStatsArgs(args);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 2;
  }
  const { loadConfig } = await import('../config.ts');
  const { openDatabase } = await import('../db/connection.ts');
  const { migrate } = await import('../db/migrate.ts');
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db.pool);
    const started = performance.now();
    const r = await rebuildStatistics(db.pool, opts, (line) => console.log(line));
    console.log(
      `stats rebuild: ${r.devices} devices, ${r.days} daily rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } finally {
    await db.close();
  }
}
