// The roll-up advances a day's stored state with fixes arriving in time order and recomputes the day when a
// late fix lands before its last fix; either way the row equals a rebuild from all the day's positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, newTerminalId } from '../../gateway/test-support.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { markForRebuild, runRollup } from './rollup.ts';

const FIGURES = `SELECT day::text, mileage, mileage_source, run_seconds, stop_count, stop_seconds, engine_seconds,
  idle_seconds, max_speed, overspeed_count, alarm_count, alarms, fix_count, row_json
  FROM stat_daily WHERE device_id = $1 ORDER BY day`;

describe('statistics roll-up', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('advances the day with later fixes, recomputes it for a late one, and matches a rebuild', async () => {
    const pool = server.ctx.dbHandle.pool;
    const id = await addDevice(server, newTerminalId('gt06'), 'gt06');
    // 2026-11-02 02:00 UTC is 10:00 in Asia/Shanghai: every fix falls on 2026-11-02 there.
    const t0 = Date.UTC(2026, 10, 2, 2);
    /** Fix i: driving east for 60 fixes, parked for 40 (a stay), driving again, one every 10 s. */
    const fixAt = (i: number) => {
      const moving = i < 60 || i >= 100;
      const lonStep = Math.min(i, 60) + Math.max(0, i - 100);
      return {
        device_id: id,
        time: new Date(t0 + i * 10_000),
        lat: 30,
        lon: 120 + lonStep * 0.0015,
        speed: moving ? (i >= 130 && i < 140 ? 150 : 50) : 0,
        valid: true,
        location_type: 'gps',
        acc: moving || i < 80,
      };
    };
    const store = async (indices: number[]) => {
      const rows = indices.map(fixAt);
      await server.ctx.db.insertInto('positions').values(rows).execute();
      const times = rows.map((r) => r.time.getTime());
      await pool.query(
        `INSERT INTO stat_dirty (device_id, from_time, to_time, marked_at) VALUES ($1, $2, $3, now() - interval '1 hour')
         ON CONFLICT (device_id) DO UPDATE SET from_time = LEAST(stat_dirty.from_time, EXCLUDED.from_time),
           to_time = GREATEST(stat_dirty.to_time, EXCLUDED.to_time)`,
        [id, new Date(Math.min(...times)), new Date(Math.max(...times))],
      );
      return runRollup(pool);
    };
    const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);

    // In time order, in batches: the first batch computes the day, the others advance it.
    expect(await store(range(0, 30))).toMatchObject({ devices: 1, days: 1, recomputed: 1, advanced: 0 });
    for (const [a, b] of [
      [30, 75],
      [75, 76],
      [76, 120],
      [121, 160],
    ]) {
      expect(await store(range(a, b))).toMatchObject({ devices: 1, days: 1, advanced: 1, recomputed: 0 });
    }
    const advanced = await pool.query(FIGURES, [id]);
    expect(advanced.rows).toHaveLength(1);
    expect(advanced.rows[0]).toMatchObject({ fix_count: 159, stop_count: 1, overspeed_count: 1 });

    // A late fix (index 120, before the last stored fix): the day is recomputed.
    expect(await store([120])).toMatchObject({ devices: 1, days: 1, advanced: 0, recomputed: 1 });
    const afterLate = await pool.query(FIGURES, [id]);
    expect(afterLate.rows[0].fix_count).toBe(160);

    // A rebuild reads every fix of the day again: the same row, figure for figure.
    await markForRebuild(pool);
    expect(await runRollup(pool)).toMatchObject({ recomputed: 1, advanced: 0 });
    const rebuilt = await pool.query(FIGURES, [id]);
    expect(afterLate.rows).toEqual(rebuilt.rows);
    // And the advanced row before the late fix equals a rebuild without that fix.
    await pool.query('DELETE FROM positions WHERE device_id = $1 AND time = $2', [id, fixAt(120).time]);
    await markForRebuild(pool);
    await runRollup(pool);
    expect((await pool.query(FIGURES, [id])).rows).toEqual(advanced.rows);
  });
});
