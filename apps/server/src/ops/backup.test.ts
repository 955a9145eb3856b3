// Backup and restore of the embedded database with the command line (`carhere backup FILE`, `carhere restore
// FILE`): a server on a PGlite data directory stores a user, devices, a fence and positions from a simulated
// tracker; after it stops, the backup is restored into a fresh data directory, and a server started on that one
// finds every one of them (and the secret key that seals secrets at rest). PostgreSQL installations are told to
// use pg_dump / pg_restore.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connection.ts';
import { addDevice, createGatewayTestServer, newTerminalId, simulatedDevice } from '../gateway/test-support.ts';
import { runCarhere } from './test-support.ts';

const root = mkdtempSync(join(tmpdir(), 'carhere-backup-'));

interface Snapshot {
  users: string[];
  devices: string[];
  fences: string[];
  positions: string[];
}

async function snapshot(dataDir: string): Promise<Snapshot> {
  const db = await openDatabase({ dataDir });
  try {
    const list = async (sql: string) => (await db.pool.query<{ v: string }>(sql)).rows.map((r) => r.v);
    return {
      users: await list("SELECT id || ':' || username AS v FROM users ORDER BY id"),
      devices: await list("SELECT id || ':' || terminal_id AS v FROM devices ORDER BY id"),
      fences: await list("SELECT id || ':' || name AS v FROM fences ORDER BY id"),
      positions: await list(
        "SELECT device_id || '@' || (extract(epoch FROM time) * 1000)::bigint || ':' || lat || ',' || lon AS v FROM positions ORDER BY device_id, time",
      ),
    };
  } finally {
    await db.close();
  }
}

// Embedded-database test: run by `npm test` (PGlite), not again in CI's PostgreSQL pass.
describe.skipIf(!!process.env.DATABASE_URL)('backup and restore of the embedded database', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a backup restored into a fresh data directory holds every user, device, fence and position', async () => {
    const dataDir = join(root, 'live');
    const server = await createGatewayTestServer({ dataDir, databaseUrl: undefined, secretKey: undefined }); // its key in DATA_DIR, as a real install;
    try {
      const tid = newTerminalId('gt06');
      const deviceId = await addDevice(server, tid, 'gt06');
      await addDevice(server, newTerminalId('jt808'), 'jt808');
      await server.ctx.db
        .insertInto('fences')
        .values({
          user_id: '2',
          name: 'Depot',
          shape: 'circle',
          lat: 39.9,
          lon: 116.4,
          radius: 500,
          alarm_type: 'inOut',
        } as never)
        .execute();
      const sim = simulatedDevice(server.gateway, 'gt06', tid);
      await sim.connect();
      await sim.sendPositions(20, 10, 30);
      expect(sim.stats.acked).toBe(20);
      sim.stop();
      const stored = await server.ctx.dbHandle.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM positions WHERE device_id = $1',
        [deviceId],
      );
      expect(stored.rows[0].n).toBe(20);
    } finally {
      await server.close();
    }
    const before = await snapshot(dataDir);
    expect(before.users.length).toBeGreaterThanOrEqual(2);
    expect(before.devices).toHaveLength(2);
    expect(before.fences).toHaveLength(1);
    expect(before.positions).toHaveLength(20);

    const file = join(root, 'carhere.tar.gz');
    const backup = await runCarhere(['backup', file], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(backup.code, backup.output).toBe(0);
    expect(existsSync(file)).toBe(true);

    const fresh = join(root, 'restored');
    const restore = await runCarhere(['restore', file], { DATA_DIR: fresh, DATABASE_URL: '' });
    expect(restore.code, restore.output).toBe(0);
    expect(await snapshot(fresh)).toEqual(before);
    expect(readFileSync(join(fresh, 'secret.key'))).toEqual(readFileSync(join(dataDir, 'secret.key')));

    // Restoring over a data directory that already holds a database is refused.
    const again = await runCarhere(['restore', file], { DATA_DIR: fresh, DATABASE_URL: '' });
    expect(again.code).toBe(1);
    expect(again.output).toContain('already holds a database');
    // A data-directory server, three command-line runs and three PGlite opens: 64 s once on a loaded CI machine.
  }, 240_000);

  it('with PostgreSQL it points at pg_dump / pg_restore', async () => {
    const res = await runCarhere(['backup', join(root, 'x.tar.gz')], { DATABASE_URL: 'postgres://db.example/x' });
    expect(res.code).toBe(1);
    expect(res.output).toContain('pg_dump');
  });
});
