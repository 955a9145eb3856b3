// Retention (PGlite by default, PostgreSQL with DATABASE_URL): months of positions past RETENTION_DAYS go as
// whole partitions, the month across the cut-off stays, odd fixes in the default partition go by time, alarms
// by ALARM_RETENTION_DAYS; the job is queued once per 12-hour slot whatever the number of processes asking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, newTerminalId } from '../gateway/test-support.ts';
import { type JobQueue, startJobQueue } from '../jobs/queue.ts';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { applyRetention, requestRetention } from './retention.ts';

const NOW = Date.UTC(2026, 5, 15, 12); // 15 June 2026
const DAY = 86_400_000;

describe('retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('drops whole monthly partitions past RETENTION_DAYS, keeps the month across the cut-off, trims alarms', async () => {
    const pool = server.ctx.dbHandle.pool;
    const deviceId = await addDevice(server, newTerminalId('gt06'), 'gt06');
    // Partitions: January 2025 (all of it older than 400 days on 15 June 2026), May 2025 (the cut-off, 11 May
    // 2025, falls inside it) and June 2026 (now).
    for (const [name, from, to] of [
      ['positions_2025_01', '2025-01-01', '2025-02-01'],
      ['positions_2025_05', '2025-05-01', '2025-06-01'],
      ['positions_2026_06', '2026-06-01', '2026-07-01'],
    ]) {
      await pool.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF positions FOR VALUES FROM ('${from}') TO ('${to}')`,
      );
    }
    const fix = (iso: string) =>
      pool.query('INSERT INTO positions (device_id, time, lat, lon, valid) VALUES ($1, $2, 39.9, 116.4, true)', [
        deviceId,
        new Date(iso),
      ]);
    await fix('2025-01-10T00:00:00Z');
    await fix('2025-01-20T00:00:00Z');
    await fix('2025-05-02T00:00:00Z'); // older than the cut-off, but its month straddles it: kept for now
    await fix('2025-05-30T00:00:00Z');
    await fix('2026-06-10T00:00:00Z');
    await fix('2019-03-01T00:00:00Z'); // a broken clock: in the default partition, past the cut-off
    await fix('2026-03-01T00:00:00Z'); // default partition (no partition for March 2026 here), recent
    const alarm = (iso: string) =>
      pool.query("INSERT INTO alarms (device_id, type, name, source, time) VALUES ($1, 1, 'sos', 'device', $2)", [
        deviceId,
        new Date(iso),
      ]);
    await alarm('2025-12-01T00:00:00Z');
    await alarm('2026-06-01T00:00:00Z');

    const result = await applyRetention(pool, { retentionDays: 400, alarmRetentionDays: 90, now: NOW });
    expect(result).toEqual({ droppedPartitions: ['positions_2025_01'], defaultRows: 1, alarms: 1 });

    const parts = await pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'positions'`,
    );
    const names = parts.rows.map((r) => r.name);
    expect(names).not.toContain('positions_2025_01');
    expect(names).toEqual(expect.arrayContaining(['positions_2025_05', 'positions_2026_06', 'positions_default']));
    const left = await pool.query<{ t: Date }>('SELECT time AS t FROM positions WHERE device_id = $1 ORDER BY time', [
      deviceId,
    ]);
    expect(left.rows.map((r) => r.t.toISOString().slice(0, 10))).toEqual([
      '2025-05-02',
      '2025-05-30',
      '2026-03-01',
      '2026-06-10',
    ]);
    const alarms = await pool.query<{ t: Date }>('SELECT time AS t FROM alarms WHERE device_id = $1', [deviceId]);
    expect(alarms.rows.map((r) => r.t.toISOString().slice(0, 10))).toEqual(['2026-06-01']);

    // A month later May 2025 has fallen out whole.
    const later = await applyRetention(pool, { retentionDays: 400, alarmRetentionDays: 90, now: NOW + 31 * DAY });
    expect(later.droppedPartitions).toEqual(['positions_2025_05']);
  });

  it('a run is queued once whatever the number of processes asking for it', async () => {
    const first = server.ctx.services.jobs as JobQueue;
    // A second queue on the same database, as a second API process has.
    const second = await startJobQueue(server.ctx.dbHandle.pool);
    try {
      const ids = [await requestRetention(first), await requestRetention(second), await requestRetention(first)];
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
