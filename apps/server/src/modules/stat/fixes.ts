// Reading a device's fixes for the statistics rules (rows for the daily roll-up, columns for stays and trips).
import { type DrivingFix, type FixColumns, isSatelliteFix } from '@carhere/domain';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

const FIXES_SQL = `SELECT (extract(epoch FROM time) * 1000)::float8, lat, lon, speed, valid, location_type, acc, mileage
  FROM positions WHERE device_id = $1 AND time >= $2 AND time < $3 ORDER BY time`;

type FixRow = [number, number, number, number, boolean, string | null, boolean | null, number | null];

/** A device's fixes in [from, to) in time order, every fix (valid or not), odometer included. */
export async function loadFixes(db: Queryable, deviceId: string, from: number, to: number): Promise<DrivingFix[]> {
  const res = await db.query<FixRow>({
    text: FIXES_SQL,
    values: [deviceId, new Date(from), new Date(to)],
    rowMode: 'array',
  });
  return res.rows.map((r) => ({
    time: r[0],
    lat: r[1],
    lon: r[2],
    speed: r[3],
    valid: r[4],
    locationType: r[5],
    acc: r[6],
    odometer: r[7],
  }));
}

/** A device's satellite fixes in [from, to) as columns (stays, trips). */
export async function loadFixColumns(db: Queryable, deviceId: string, from: number, to: number): Promise<FixColumns> {
  const res = await db.query<FixRow>({
    text: FIXES_SQL,
    values: [deviceId, new Date(from), new Date(to)],
    rowMode: 'array',
  });
  const rows = res.rows;
  let n = 0;
  const times = new Float64Array(rows.length);
  const lats = new Float64Array(rows.length);
  const lons = new Float64Array(rows.length);
  const speeds = new Float64Array(rows.length);
  const acc = new Int8Array(rows.length);
  for (const r of rows) {
    if (!isSatelliteFix({ valid: r[4], locationType: r[5] })) continue;
    times[n] = r[0];
    lats[n] = r[1];
    lons[n] = r[2];
    speeds[n] = r[3];
    acc[n] = r[6] === true ? 1 : r[6] === false ? 0 : -1;
    n++;
  }
  return {
    length: n,
    times: times.subarray(0, n),
    lats: lats.subarray(0, n),
    lons: lons.subarray(0, n),
    speeds: speeds.subarray(0, n),
    acc: acc.subarray(0, n),
  };
}
