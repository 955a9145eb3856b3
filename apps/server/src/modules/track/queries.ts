// Track reads: one device's valid fixes in time order, answered from the covering index (0201), fetched as
// arrays (no object per row). The compact form asks PostgreSQL for whole numbers in the encoding's units, which
// are cheaper to format, send and parse than floats.
import pg from 'pg';
import type { ScaledTrackColumns, TrackColumns } from './compact.ts';

const RANGE = 'FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND valid ORDER BY time';
const EXACT_SQL = `SELECT extract(epoch FROM time)::float8, lat, lon, speed, course ${RANGE}`;
const SCALED_SQL = `SELECT floor(extract(epoch FROM time))::float8, round(lat * 1e5)::int4, round(lon * 1e5)::int4,
  round(speed)::int4, round(course)::int4 ${RANGE}`;

type Row = [number, number, number, number, number];

/** A pool, or one of its clients (a caller holding a connection, e.g. under an advisory lock). */
export type Db = pg.Pool | pg.PoolClient;

/** Runs the read with JIT off: compiling it costs more than the scan it would speed up. */
async function read(db: Db, text: string, deviceId: string, from: number, to: number): Promise<Row[]> {
  const own = db instanceof pg.Pool;
  const client = own ? await db.connect() : db;
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL jit = off');
    const res = await client.query<Row>({ text, values: [deviceId, new Date(from), new Date(to)], rowMode: 'array' });
    await client.query('COMMIT');
    return res.rows;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    if (own) client.release();
  }
}

export interface LoadedTrack extends TrackColumns {
  count: number;
}

export interface LoadedScaledTrack extends ScaledTrackColumns {
  count: number;
}

/** Exact values (for the list form). */
export async function loadTrack(pool: Db, deviceId: string, from: number, to: number): Promise<LoadedTrack> {
  const rows = await read(pool, EXACT_SQL, deviceId, from, to);
  const n = rows.length;
  const t = {
    count: n,
    times: new Float64Array(n),
    lats: new Float64Array(n),
    lons: new Float64Array(n),
    speeds: new Float32Array(n),
    courses: new Float32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    t.times[i] = r[0];
    t.lats[i] = r[1];
    t.lons[i] = r[2];
    t.speeds[i] = r[3];
    t.courses[i] = r[4];
  }
  return t;
}

/** Whole numbers in the compact encoding's units (for the compact form). */
export async function loadScaledTrack(
  pool: Db,
  deviceId: string,
  from: number,
  to: number,
): Promise<LoadedScaledTrack> {
  const rows = await read(pool, SCALED_SQL, deviceId, from, to);
  const n = rows.length;
  const t = {
    count: n,
    times: new Float64Array(n),
    lats: new Int32Array(n),
    lons: new Int32Array(n),
    speeds: new Int32Array(n),
    courses: new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    t.times[i] = r[0];
    t.lats[i] = r[1];
    t.lons[i] = r[2];
    t.speeds[i] = r[3];
    t.courses[i] = r[4];
  }
  return t;
}

/** How many valid fixes the range holds (decides list or compact before reading). */
export async function countTrack(pool: Db, deviceId: string, from: number, to: number, limit: number): Promise<number> {
  const res = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND valid LIMIT $4) x',
    [deviceId, new Date(from), new Date(to), limit + 1],
  );
  return res.rows[0].n;
}
