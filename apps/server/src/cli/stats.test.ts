import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, newTerminalId } from '../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { parseStatsArgs, rebuildStatistics } from './stats.ts';

describe('carhere stats rebuild', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads its arguments', () => {
    expect(parseStatsArgs(['rebuild'])).toEqual({ from: undefined, to: undefined });
    expect(parseStatsArgs(['rebuild', '--from', '2026-11-02', '--to', '2026-11-03T00:00:00Z'])).toEqual({
      from: Date.UTC(2026, 10, 1, 16),
      to: Date.UTC(2026, 10, 3),
    });
    expect(() => parseStatsArgs(['rebuild', '--since', 'x'])).toThrow(/usage/);
    expect(() => parseStatsArgs(['rebuild', '--from', 'soon'])).toThrow(/not a date/);
    expect(() => parseStatsArgs(['other'])).toThrow(/usage/);
  });

  it('recomputes daily rows from stored positions, only in the range asked', async () => {
    const id = await addDevice(server, newTerminalId('gt06'), 'gt06');
    const day = (d: number, i: number) => new Date(Date.UTC(2026, 10, d, 2, 0, i * 10));
    const rows = [];
    for (const d of [2, 3])
      for (let i = 0; i < 30; i++)
        rows.push({
          device_id: id,
          time: day(d, i),
          lat: 30,
          lon: 120 + i * 0.001,
          speed: 40,
          valid: true,
          location_type: 'gps',
        });
    await server.ctx.db.insertInto('positions').values(rows).execute();
    const pool = server.ctx.dbHandle.pool;
    const first = await rebuildStatistics(pool, { from: Date.UTC(2026, 10, 2), to: Date.UTC(2026, 10, 2, 23) });
    expect(first).toEqual({ devices: 1, days: 1 });
    const stored = await pool.query<{ day: string; fix_count: number; mileage: number }>(
      'SELECT day::text AS day, fix_count, mileage FROM stat_daily WHERE device_id = $1 ORDER BY day',
      [id],
    );
    expect(stored.rows.map((r) => [r.day, r.fix_count])).toEqual([['2026-11-02', 30]]);
    expect(stored.rows[0].mileage).toBeGreaterThan(2700);
    expect(await rebuildStatistics(pool, {})).toEqual({ devices: 1, days: 2 });
  });
});
