// Shared by the gateway benchmarks: scratch PostgreSQL databases, an application context without HTTP, bulk
// device registration, and percentiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MemoryBus } from '../apps/server/src/bus/memory.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { openDatabase } from '../apps/server/src/db/connection.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seedFirstRun } from '../apps/server/src/db/seed.ts';

export const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BENCH_ADMIN_PASSWORD = 'Bench-pass-1';

export interface Store {
  kind: 'postgres' | 'pglite';
  /** DATABASE_URL or DATA_DIR for a child process. */
  env: Record<string, string>;
  url?: string;
  dir?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the PostgreSQL server (dropped afterwards unless BENCH_KEEP=1). The process id is part of
 * its name, so two runs at once (two checkouts on one server) do not drop each other's database.
 */
export async function scratchPostgres(prefix: string): Promise<Store> {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    drop: async () => {
      if (process.env.BENCH_KEEP === '1') return;
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A PGlite data directory in a temporary folder (durable, like a real deployment's ./data). */
export function scratchPglite(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'carhere-bench-'));
  return {
    kind: 'pglite',
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    dir,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Database (migrated, seeded), bus and config, as the server builds them, without the HTTP server. */
export async function openContext(store: Store, poolSize = 10): Promise<{ ctx: AppContext; close(): Promise<void> }> {
  const dbHandle = await openDatabase({ databaseUrl: store.url, dataDir: store.dir, poolSize });
  await migrate(dbHandle.pool);
  await seedFirstRun(dbHandle.db, BENCH_ADMIN_PASSWORD);
  const bus = new MemoryBus();
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), databaseUrl: store.url };
  const ctx: AppContext = { config, db: dbHandle.db, dbHandle, bus, services: {} };
  return {
    ctx,
    close: async () => {
      await bus.close();
      await dbHandle.close();
    },
  };
}

/** Consecutive terminal ids from a base number, keeping its width. */
export function terminalIds(first: string, count: number): string[] {
  const base = BigInt(first);
  return Array.from({ length: count }, (_, i) => (base + BigInt(i)).toString().padStart(first.length, '0'));
}

/** Registers devices for the demo account (id 2) in one statement per 10,000. */
export async function registerDevices(ctx: AppContext, ids: string[], protocol: 'gt06' | 'jt808'): Promise<void> {
  for (let i = 0; i < ids.length; i += 10_000) {
    await ctx.dbHandle.pool.query(
      `INSERT INTO devices (terminal_id, user_id, protocol, activated_at)
       SELECT t, 2, $2, now() FROM unnest($1::text[]) AS t ON CONFLICT (terminal_id) DO NOTHING`,
      [ids.slice(i, i + 10_000), protocol === 'gt06' ? 2 : 1],
    );
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The one JSON line every benchmark ends with. */
export function report(
  bench: string,
  value: number,
  unit: string,
  baseline: number,
  extra: Record<string, number | string> = {},
): void {
  console.log(
    JSON.stringify({
      bench,
      value: round(value, 2),
      unit,
      baseline: round(baseline, 2),
      ratio: round(value / baseline, 3),
      ...extra,
    }),
  );
}
