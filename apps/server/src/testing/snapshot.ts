// A test's view of "nothing changed": every row of the given tables (ordered by their first column) and the
// number of sessions per user, as one string. Two equal snapshots around a refused call prove it wrote nothing.
import { sql } from 'kysely';
import type { TestServer } from './harness.ts';

export async function snapshotTables(server: TestServer, tables: readonly string[]): Promise<string> {
  const db = server.ctx.db;
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = (await sql`SELECT * FROM ${sql.table(t)} ORDER BY 1`.execute(db)).rows;
  out.sessions = (
    await sql`SELECT user_id, count(*)::int AS n FROM sessions GROUP BY user_id ORDER BY 1`.execute(db)
  ).rows;
  return JSON.stringify(out);
}
