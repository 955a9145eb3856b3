// Track reads: one device's valid fixes in time order, fetched as arrays (no object per row) so a 90-day
// track of 777,600 fixes loads fast.
import type pg from 'pg';
import type { TrackColumns } from './compact.ts';

export interface LoadedTrack extends TrackColumns {
  count: number;
}

const TRACK_SQL = `SELECT extract(epoch FROM time)::float8 AS t, lat, lon, speed, course
  FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND valid ORDER BY time`;

export async function loadTrack(pool: pg.Pool, deviceId: string, from: number, to: number): Promise<LoadedTrack> {
  const res = await pool.query<[number, number, number, number, number]>({
    text: TRACK_SQL,
    values: [deviceId, new Date(from), new Date(to)],
    rowMode: 'array',
  });
  const n = res.rows.length;
  const times = new Float64Array(n);
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  const speeds = new Float32Array(n);
  const courses = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = res.rows[i];
    times[i] = r[0];
    lats[i] = r[1];
    lons[i] = r[2];
    speeds[i] = r[3];
    courses[i] = r[4];
  }
  return { count: n, times, lats, lons, speeds, courses };
}
