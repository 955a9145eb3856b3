// Compact tracks assembled from per-day segments. A segment holds one UTC day of a device's valid fixes in the
// compact encoding, with its first and last values kept apart so segments join without re-encoding: only the
// first delta of each stream is written at the seam. Ended days are kept in track_segments (0202); the ends of
// a range that cover part of a day, and today, are read from positions.

import pg from 'pg';
import { type CompactTrack, DeltaStream, encodeDelta, type ScaledTrackColumns } from './compact.ts';
import { type Db, type LoadedScaledTrack, loadScaledTrack } from './queries.ts';

const DAY_MS = 86_400_000;

/** [time s, lat×1e5, lon×1e5, speed, course] */
type Values = [number, number, number, number, number];

export interface Segment {
  count: number;
  first: Values | null;
  last: Values | null;
  /** Deltas from the second fix on (the first is written at the seam). */
  times: string;
  coords: string;
  speeds: string;
  courses: string;
}

const valuesAt = (c: ScaledTrackColumns, i: number): Values => [
  c.times[i],
  c.lats[i],
  c.lons[i],
  c.speeds[i],
  c.courses[i],
];

/** The segment of fixes [from, to) of the columns. */
export function segmentOf(c: ScaledTrackColumns, from: number, to: number): Segment {
  if (to <= from) return { count: 0, first: null, last: null, times: '', coords: '', speeds: '', courses: '' };
  const times = new DeltaStream();
  const coords = new DeltaStream();
  const speeds = new DeltaStream();
  const courses = new DeltaStream();
  for (let i = from + 1; i < to; i++) {
    times.push(c.times[i] - c.times[i - 1]);
    coords.push(c.lats[i] - c.lats[i - 1]);
    coords.push(c.lons[i] - c.lons[i - 1]);
    speeds.push(c.speeds[i] - c.speeds[i - 1]);
    courses.push(c.courses[i] - c.courses[i - 1]);
  }
  return {
    count: to - from,
    first: valuesAt(c, from),
    last: valuesAt(c, to - 1),
    times: times.toString(),
    coords: coords.toString(),
    speeds: speeds.toString(),
    courses: courses.toString(),
  };
}

/** Joins segments (in time order) into one compact track. */
export function mergeSegments(segments: Segment[]): { count: number; compact: CompactTrack } {
  const parts = { times: [] as string[], coords: [] as string[], speeds: [] as string[], courses: [] as string[] };
  let prev: Values | null = null;
  let start = 0;
  let count = 0;
  for (const s of segments) {
    if (!s.first || !s.last || s.count === 0) continue;
    const p: Values = prev ?? [s.first[0], 0, 0, 0, 0];
    if (!prev) start = s.first[0];
    parts.times.push(encodeDelta(s.first[0] - p[0]), s.times);
    parts.coords.push(encodeDelta(s.first[1] - p[1]), encodeDelta(s.first[2] - p[2]), s.coords);
    parts.speeds.push(encodeDelta(s.first[3] - p[3]), s.speeds);
    parts.courses.push(encodeDelta(s.first[4] - p[4]), s.courses);
    prev = s.last;
    count += s.count;
  }
  return {
    count,
    compact: {
      start,
      times: parts.times.join(''),
      coords: parts.coords.join(''),
      speeds: parts.speeds.join(''),
      courses: parts.courses.join(''),
    },
  };
}

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Splits fixes (time order) of [from, from + days × DAY) into one segment per UTC day. */
function daySegments(c: ScaledTrackColumns & { count: number }, from: number, days: number): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  for (let d = 0; d < days; d++) {
    const endS = (from + (d + 1) * DAY_MS) / 1000;
    let j = i;
    while (j < c.count && c.times[j] < endS) j++;
    out.push(segmentOf(c, i, j));
    i = j;
  }
  return out;
}

interface CachedRow {
  day: string;
  version: number;
  /** Null when a late fix cleared the day's segment (data NULL). */
  count: number | null;
  first: string | null;
  last: string | null;
  times: string;
  coords: string;
  speeds: string;
  courses: string;
}

/**
 * The stored segments of some days, their fields taken apart by PostgreSQL (one detoast per row): the four
 * streams arrive as plain text, not inside a JSON document that PostgreSQL would write with escapes and Node parse
 * again — for 90 days of 10-s fixes that took two to three times as long.
 */
const CACHED_SQL = `SELECT s.day::text AS day, s.version, x.count, x.first::text AS first, x.last::text AS last,
       x.times, x.coords, x.speeds, x.courses
  FROM track_segments s
  LEFT JOIN LATERAL jsonb_to_record(s.data)
       AS x(count int, first jsonb, last jsonb, times text, coords text, speeds text, courses text) ON true
 WHERE s.device_id = $1 AND s.day = ANY($2::date[])`;

function segmentOfRow(r: CachedRow): Segment | null {
  if (r.count === null) return null;
  return {
    count: r.count,
    first: r.first ? (JSON.parse(r.first) as Values | null) : null,
    last: r.last ? (JSON.parse(r.last) as Values | null) : null,
    times: r.times ?? '',
    coords: r.coords ?? '',
    speeds: r.speeds ?? '',
    courses: r.courses ?? '',
  };
}

/**
 * The compact track of [from, to]: whole ended UTC days from the segment cache (computed and stored when
 * missing), the partial days at either end and today from positions.
 */
export async function loadCompactTrack(
  pool: Db,
  deviceId: string,
  from: number,
  to: number,
  now = Date.now(),
  /** Given, the computed day segments are stored after the answer (the work is handed over); else before. */
  storeLater?: (storing: Promise<void>) => void,
): Promise<{ count: number; compact: CompactTrack }> {
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  let days = 0;
  while (firstDay + (days + 1) * DAY_MS - 1 <= to && firstDay + (days + 1) * DAY_MS <= now) days++;
  if (days === 0) return mergeSegments([segmentOfRange(await loadScaledTrack(pool, deviceId, from, to))]);

  const keys = Array.from({ length: days }, (_, d) => dayKey(firstDay + d * DAY_MS));
  const tailFrom = firstDay + days * DAY_MS;
  const readHead = () =>
    from < firstDay ? loadScaledTrack(pool, deviceId, from, Math.min(to, firstDay - 1)) : Promise.resolve(null);
  const readTail = () => (tailFrom <= to ? loadScaledTrack(pool, deviceId, tailFrom, to) : Promise.resolve(null));
  // On a pool the partial days at either end (today among them) are read from positions while the stored
  // segments are read, each on its own connection; on one client (the daily job) one after another.
  const onPool = pool instanceof pg.Pool;
  const ends = onPool ? Promise.all([readHead(), readTail()]) : null;
  ends?.catch(() => {}); // awaited below; a failure of the segment read must not leave it unhandled
  const cached = await pool.query<CachedRow>(CACHED_SQL, [deviceId, keys]);
  const byDay = new Map(cached.rows.map((r) => [r.day, r]));
  const segments: (Segment | null)[] = keys.map((k) => {
    const row = byDay.get(k);
    return row ? segmentOfRow(row) : null;
  });

  // Read the missing days (a run of consecutive days per read): on a pool at once on separate connections.
  const runs: { d: number; e: number }[] = [];
  for (let d = 0; d < days; ) {
    if (segments[d]) {
      d++;
      continue;
    }
    let e = d;
    while (e < days && !segments[e]) e++;
    runs.push({ d, e });
    d = e;
  }
  const reads = runs.map(
    (r) => () => loadScaledTrack(pool, deviceId, firstDay + r.d * DAY_MS, firstDay + r.e * DAY_MS - 1),
  );
  const [[headCols, tailCols], runCols] = ends
    ? await Promise.all([ends, Promise.all(reads.map((f) => f()))])
    : [[await readHead(), await readTail()], await sequentially(reads)];

  const fresh: { day: string; version: number | null; data: Segment }[] = [];
  runs.forEach((r, i) => {
    const computed = daySegments(runCols[i] as LoadedScaledTrack, firstDay + r.d * DAY_MS, r.e - r.d);
    for (let k = r.d; k < r.e; k++) {
      segments[k] = computed[k - r.d];
      fresh.push({ day: keys[k], version: byDay.get(keys[k])?.version ?? null, data: computed[k - r.d] });
    }
  });
  if (fresh.length > 0) {
    if (storeLater) storeLater(storeSegments(pool, deviceId, fresh));
    else await storeSegments(pool, deviceId, fresh);
  }

  const head = headCols ? segmentOfRange(headCols) : null;
  const tail = tailCols ? segmentOfRange(tailCols) : null;
  return mergeSegments([...(head ? [head] : []), ...(segments as Segment[]), ...(tail ? [tail] : [])]);
}

async function sequentially<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const task of tasks) out.push(await task());
  return out;
}

function segmentOfRange(c: ScaledTrackColumns & { count: number }): Segment {
  return segmentOf(c, 0, c.count);
}

/**
 * Stores computed segments unless a late fix changed their day meanwhile: a day that had an (invalidated) row
 * is updated only at the version it was read at; a day without a row is inserted only if none appeared.
 */
export async function storeSegments(
  pool: Db,
  deviceId: string,
  fresh: { day: string; version: number | null; data: Segment }[],
): Promise<void> {
  const updates = fresh.filter((f) => f.version !== null).map((f) => ({ day: f.day, v: f.version, data: f.data }));
  const inserts = fresh.filter((f) => f.version === null).map((f) => ({ day: f.day, data: f.data }));
  if (updates.length > 0) {
    await pool.query(
      `UPDATE track_segments s SET data = x.data FROM jsonb_to_recordset($2::jsonb) AS x(day date, v int, data jsonb)
        WHERE s.device_id = $1 AND s.day = x.day AND s.version = x.v AND s.data IS NULL`,
      [deviceId, JSON.stringify(updates)],
    );
  }
  if (inserts.length > 0) {
    await pool.query(
      `INSERT INTO track_segments (device_id, day, version, data)
       SELECT $1, x.day, 0, x.data FROM jsonb_to_recordset($2::jsonb) AS x(day date, data jsonb)
       ON CONFLICT (device_id, day) DO NOTHING`,
      [deviceId, JSON.stringify(inserts)],
    );
  }
}

/** Notes the ended UTC day a fix falls on (device|day number → row for INVALIDATE_SEGMENTS_SQL), for the batcher. */
export function notePastDay(deviceId: string, time: number, into: Map<string, { d: string; day: string }>): void {
  const dayNumber = Math.floor(time / DAY_MS);
  const key = `${deviceId}|${dayNumber}`;
  if (!into.has(key)) into.set(key, { d: deviceId, day: dayKey(dayNumber * DAY_MS) });
}

export const INVALIDATE_SEGMENTS_SQL = `INSERT INTO track_segments (device_id, day, version, data)
  SELECT x.d, x.day, 1, NULL FROM jsonb_to_recordset($1::jsonb) AS x(d bigint, day date)
  ON CONFLICT (device_id, day) DO UPDATE SET version = track_segments.version + 1, data = NULL`;
