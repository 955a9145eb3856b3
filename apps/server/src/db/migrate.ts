// Plain SQL migrations: migrations/NNNN_name.sql applied in file-name order, each once, each in a transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export function listMigrations(dir = migrationsDir): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

/** Applies pending migrations; returns the names applied now. Safe to call on every start. */
export async function migrate(pool: pg.Pool, dir = migrationsDir): Promise<string[]> {
  const client = await pool.connect();
  try {
    // One migrator at a time across processes sharing a PostgreSQL server (two processes starting together
    // would otherwise race even on CREATE TABLE IF NOT EXISTS).
    await client.query('SELECT pg_advisory_lock(4242001)');
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
      );
      const applied: string[] = [];
      for (const m of listMigrations(dir)) {
        if (done.has(m.name)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
        }
        applied.push(m.name);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock(4242001)');
    }
  } finally {
    client.release();
  }
}
