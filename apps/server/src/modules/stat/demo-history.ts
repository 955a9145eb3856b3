// Demo history (issue 13): on the first start the demo fleet gets 30 days of past driving — trips around Beijing
// between stays, an occasional SOS and overspeed — written straight into positions and alarms with bulk
// inserts (not through TCP), then rolled up into the daily rows, so every statistics screen shows real figures
// at once. Deterministic (seeded) so every fresh install looks the same.
import { addCalendarDays, greatCircleMetres, STATISTICS_DEFAULT_ZONE, startOfDay } from '@carhere/domain';
import type pg from 'pg';
import { PartitionManager } from '../../gateway/ingest/partitions.ts';
import { markForRebuild, runRollup } from './rollup.ts';

export const DEMO_HISTORY_DAYS = 30;
/** Seconds between fixes while driving; parked devices report every PARKED_STEP_S. */
const DRIVE_STEP_S = 30;
const PARKED_STEP_S = 300;
const CENTRE = { lat: 39.915, lon: 116.404 };

function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

interface Columns {
  t: number[];
  lat: number[];
  lon: number[];
  speed: number[];
  course: number[];
  acc: boolean[];
}

interface DemoAlarm {
  type: number;
  name: string;
  source: 'device' | 'derived';
  t: number;
  lat: number;
  lon: number;
  speed: number;
}

/** One device's history: per day 2–4 trips between stays, parked overnight without fixes (today's may run past `endMs`: the caller keeps what comes before it). */
export function demoHistory(
  seed: number,
  endMs: number,
  days = DEMO_HISTORY_DAYS,
): { fixes: Columns; alarms: DemoAlarm[] } {
  const rnd = seeded(seed);
  const fixes: Columns = { t: [], lat: [], lon: [], speed: [], course: [], acc: [] };
  const alarms: DemoAlarm[] = [];
  let lat = CENTRE.lat + (rnd() - 0.5) * 0.1;
  let lon = CENTRE.lon + (rnd() - 0.5) * 0.1;
  const push = (t: number, speed: number, course: number, acc: boolean) => {
    fixes.t.push(t);
    fixes.lat.push(lat);
    fixes.lon.push(lon);
    fixes.speed.push(speed);
    fixes.course.push(course);
    fixes.acc.push(acc);
  };
  // Days are the demo account's days (its zone is the statistics' default, Asia/Shanghai), as the statistics count
  // them: the `days` full days before today there, and today's drives up to `endMs` (the caller drops what comes
  // after). (UTC days would leave the account's yesterday empty from 16:00 to 24:00 UTC, already tomorrow there.)
  const firstDay = addCalendarDays(startOfDay(endMs, STATISTICS_DEFAULT_ZONE), -days, STATISTICS_DEFAULT_ZONE);
  for (let d = 0; d <= days; d++) {
    // trips start 07:00–09:00 local
    const midnight = addCalendarDays(firstDay, d, STATISTICS_DEFAULT_ZONE);
    let t = midnight + 7 * 3_600_000 + Math.floor(rnd() * 7_200_000);
    if (t >= endMs) break;
    const trips = 2 + Math.floor(rnd() * 3);
    for (let k = 0; k < trips; k++) {
      // drive: a few straight legs towards a point within ~12 km of the centre
      const legs = 2 + Math.floor(rnd() * 4);
      const fast = rnd() < 0.15 && k === 0;
      for (let l = 0; l < legs; l++) {
        const targetLat = CENTRE.lat + (rnd() - 0.5) * 0.2;
        const targetLon = CENTRE.lon + (rnd() - 0.5) * 0.26;
        const speed = fast && l === 0 ? 128 + rnd() * 10 : 30 + rnd() * 45;
        const metres = greatCircleMetres(lat, lon, targetLat, targetLon);
        const steps = Math.max(1, Math.min(80, Math.round(metres / ((speed / 3.6) * DRIVE_STEP_S))));
        const dLat = (targetLat - lat) / steps;
        const dLon = (targetLon - lon) / steps;
        const course = Math.round(((Math.atan2(dLon, dLat) * 180) / Math.PI + 360) % 360);
        for (let s = 0; s < steps; s++) {
          lat += dLat;
          lon += dLon;
          const v = Math.round((speed + (rnd() - 0.5) * 6) * 10) / 10;
          push(t, v, course, true);
          if (fast && l === 0 && s === 2)
            alarms.push({ type: 6, name: 'overspeed', source: 'derived', t, lat, lon, speed: v });
          t += DRIVE_STEP_S * 1000;
        }
      }
      // stay: parked (ACC off) 20 min to 3 h, a fix every 5 min; sometimes idling first
      const stay = (20 + Math.floor(rnd() * 160)) * 60_000;
      const idle = rnd() < 0.3 ? 5 * 60_000 : 0;
      const stayEnd = t + stay;
      let first = true;
      for (; t < stayEnd; t += PARKED_STEP_S * 1000) {
        push(t, 0, 0, t - (stayEnd - stay) < idle);
        if (first && rnd() < 0.06) alarms.push({ type: 1, name: 'sos', source: 'device', t, lat, lon, speed: 0 });
        if (first && rnd() < 0.1) alarms.push({ type: 3, name: 'vibration', source: 'device', t, lat, lon, speed: 0 });
        first = false;
      }
    }
  }
  return { fixes, alarms };
}

const INSERT_FIXES = `INSERT INTO positions (device_id, time, lat, lon, speed, course, valid, satellites, location_type, acc)
  SELECT $1, to_timestamp(t / 1000.0), la, lo, sp, co, true, 9, 'gps', ac
  FROM unnest($2::float8[], $3::float8[], $4::float8[], $5::real[], $6::real[], $7::bool[]) AS u(t, la, lo, sp, co, ac)
  ON CONFLICT DO NOTHING`;

const INSERT_ALARMS = `INSERT INTO alarms (device_id, type, name, source, time, lat, lon, speed, read)
  SELECT $1, x.type, x.name, x.source, to_timestamp(x.t / 1000.0), x.lat, x.lon, x.speed, true
  FROM jsonb_to_recordset($2::jsonb) AS x(type smallint, name text, source text, t float8, lat float8, lon float8, speed real)
  ON CONFLICT DO NOTHING`;

/**
 * Writes `days` of history ending before `endMs` for the devices, then rolls their days up. Returns the number of
 * fixes written and the time it took.
 */
export async function writeDemoHistory(
  pool: pg.Pool,
  deviceIds: string[],
  endMs = Date.now() - 3_600_000,
  days = DEMO_HISTORY_DAYS,
): Promise<{ fixes: number; alarms: number; ms: number }> {
  const started = performance.now();
  const partitions = new PartitionManager(pool);
  let fixes = 0;
  let alarms = 0;
  for (const id of deviceIds) {
    const h = demoHistory(Number(id) * 7919, endMs, days);
    const keep = h.fixes.t.map((t) => t < endMs);
    const f = (a: unknown[]) => a.filter((_, i) => keep[i]);
    await partitions.ensure([h.fixes.t[0], endMs]);
    const t = f(h.fixes.t);
    await pool.query(INSERT_FIXES, [
      id,
      t,
      f(h.fixes.lat),
      f(h.fixes.lon),
      f(h.fixes.speed),
      f(h.fixes.course),
      f(h.fixes.acc),
    ]);
    const a = h.alarms.filter((x) => x.t < endMs);
    if (a.length > 0) await pool.query(INSERT_ALARMS, [id, JSON.stringify(a)]);
    fixes += t.length;
    alarms += a.length;
  }
  await markForRebuild(pool, endMs - (days + 1) * 86_400_000, endMs);
  await runRollup(pool);
  return { fixes, alarms, ms: performance.now() - started };
}
