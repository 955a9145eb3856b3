// Track reads: one device's valid fixes in time order, answered from the covering index (0201), fetched as
// arrays (no object per row). The compact form asks PostgreSQL for whole numbers in the encoding's units, which
// are cheaper to format, send and parse than floats.
import pg from 'pg';
import type { ScaledTrackColumns, TrackColumns } from './compact.ts';

const RANGE = 'FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND valid ORDER BY time';
const EXACT_SQL = `SELECT extract(epoch FROM time)::float8, lat, lon, speed, course ${RANGE}`;

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

/**
 * Whole numbers in the compact encoding's units (for the compact form and the day segments), read as one packed
 * value per range instead of one row per fix: PostgreSQL packs each fix into 16 bytes (seconds since the range
 * start, lat×1e5, lon×1e5 as 32 bits; speed, course as 16 bits unsigned) and aggregates them into one bytea, which arrives as
 * hex text and is unpacked with a DataView. Parsing 777,600 rows of five fields was most of a cold 90-day read
 * (~1.2 s of ~1.6 s here); the packed read takes a third of that. The fixes are fed to the aggregate from an
 * ordered subquery, which PostgreSQL keeps in practice but does not promise, so the order is checked and
 * restored if ever needed. Long ranges on a pool are read as two halves on two connections at once.
 */
export async function loadScaledTrack(
  pool: Db,
  deviceId: string,
  from: number,
  to: number,
): Promise<LoadedScaledTrack> {
  if (pool instanceof pg.Pool && to - from > PARALLEL_FROM_MS) {
    const mid = from + Math.floor((to - from) / 2);
    const [a, b] = await Promise.all([loadPacked(pool, deviceId, from, mid), loadPacked(pool, deviceId, mid + 1, to)]);
    return concatScaled(a, b);
  }
  return loadPacked(pool, deviceId, from, to);
}

const PARALLEL_FROM_MS = 7 * 86_400_000;
const PACKED_BYTES = 16;
// Two int8 per fix, big-endian: (seconds since the range start << 32 | lat×1e5 as 32 bits) and
// (lon×1e5 << 32 | speed << 16 | course) — two sends and one concatenation per row cost PostgreSQL about half
// of five int4/int2 sends and four concatenations. Speed and course are clamped to 0..65535.
const PACKED_SQL = `SELECT count(*)::int4 AS n, string_agg(
    int8send(((floor(date_part('epoch', time)) - $4)::int8 << 32) | (round(lat * 1e5)::int8 & 4294967295)) ||
    int8send((round(lon * 1e5)::int8 << 32) | (least(greatest(round(speed), 0), 65535)::int8 << 16) |
      least(greatest(round(course), 0), 65535)::int8), ''::bytea)::text AS packed
  FROM (SELECT time, lat, lon, speed, course ${RANGE}) fixes`;

async function loadPacked(pool: Db, deviceId: string, from: number, to: number): Promise<LoadedScaledTrack> {
  const base = Math.floor(from / 1000);
  const own = pool instanceof pg.Pool;
  const client = own ? await pool.connect() : pool;
  let row: { n: number; packed: string | null };
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL jit = off');
    const res = await client.query<{ n: number; packed: string | null }>(PACKED_SQL, [
      deviceId,
      new Date(from),
      new Date(to),
      base,
    ]);
    await client.query('COMMIT');
    row = res.rows[0];
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    if (own) (client as pg.PoolClient).release();
  }
  return unpackScaled(row.packed, row.n, base);
}

/** Unpacks the aggregate ('\\x' + hex) into columns; times back to epoch seconds. Exported for tests. */
export function unpackScaled(packed: string | null, n: number, base: number): LoadedScaledTrack {
  const bytes = packed ? Buffer.from(packed.slice(2), 'hex') : Buffer.alloc(0);
  if (bytes.length !== n * PACKED_BYTES) throw new Error(`track read: ${bytes.length} bytes for ${n} fixes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const t = {
    count: n,
    times: new Float64Array(n),
    lats: new Int32Array(n),
    lons: new Int32Array(n),
    speeds: new Int32Array(n),
    courses: new Int32Array(n),
  };
  let ordered = true;
  for (let i = 0, o = 0; i < n; i++, o += PACKED_BYTES) {
    t.times[i] = base + view.getInt32(o);
    t.lats[i] = view.getInt32(o + 4);
    t.lons[i] = view.getInt32(o + 8);
    t.speeds[i] = view.getUint16(o + 12);
    t.courses[i] = view.getUint16(o + 14);
    if (i > 0 && t.times[i] < t.times[i - 1]) ordered = false;
  }
  return ordered ? t : sortScaled(t);
}

function sortScaled(t: LoadedScaledTrack): LoadedScaledTrack {
  const order = Array.from({ length: t.count }, (_, i) => i).sort((a, b) => t.times[a] - t.times[b]);
  const pick = <A extends Float64Array | Int32Array>(src: A, out: A): A => {
    for (let i = 0; i < order.length; i++) out[i] = src[order[i]];
    return out;
  };
  const n = t.count;
  return {
    count: n,
    times: pick(t.times as Float64Array, new Float64Array(n)),
    lats: pick(t.lats as Int32Array, new Int32Array(n)),
    lons: pick(t.lons as Int32Array, new Int32Array(n)),
    speeds: pick(t.speeds as Int32Array, new Int32Array(n)),
    courses: pick(t.courses as Int32Array, new Int32Array(n)),
  };
}

function concatScaled(a: LoadedScaledTrack, b: LoadedScaledTrack): LoadedScaledTrack {
  const n = a.count + b.count;
  const join = <A extends Float64Array | Int32Array>(x: A, y: A, out: A): A => {
    out.set(x, 0);
    out.set(y, a.count);
    return out;
  };
  return {
    count: n,
    times: join(a.times as Float64Array, b.times as Float64Array, new Float64Array(n)),
    lats: join(a.lats as Int32Array, b.lats as Int32Array, new Int32Array(n)),
    lons: join(a.lons as Int32Array, b.lons as Int32Array, new Int32Array(n)),
    speeds: join(a.speeds as Int32Array, b.speeds as Int32Array, new Int32Array(n)),
    courses: join(a.courses as Int32Array, b.courses as Int32Array, new Int32Array(n)),
  };
}

/** How many valid fixes the range holds (decides list or compact before reading). */
export async function countTrack(pool: Db, deviceId: string, from: number, to: number, limit: number): Promise<number> {
  const res = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND valid LIMIT $4) x',
    [deviceId, new Date(from), new Date(to), limit + 1],
  );
  return res.rows[0].n;
}
