// Reading the daily statistics rows (stat_daily) of selected devices over the days a range overlaps, in each
// device's own statistics zone. Statistics queries read these rows, never the positions.
import { daysOverlapping, sumStatisticsPerDay } from '@carhere/domain';
import type pg from 'pg';
import type { StatDevice } from './select.ts';

export type DailyRow = {
  terminalID: string;
  displayName: string;
  /** 'YYYY-MM-DD' in the owning account's zone */
  statsticDate: string;
  /** metres */
  mileage: number;
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  /** km/h */
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
};

export type DailyRecord = DailyRow & {
  deviceId: string;
  alarms: Record<string, number>;
};

export const DAILY_SQL = `SELECT device_id, day::text AS day, mileage, run_seconds, stop_count, stop_seconds, engine_seconds,
    idle_seconds, max_speed, overspeed_count, alarm_count, alarms
  FROM stat_daily WHERE device_id = ANY($1::bigint[]) AND day >= $2::date AND day <= $3::date`;

interface Raw {
  device_id: string;
  day: string;
  mileage: number;
  run_seconds: number;
  stop_count: number;
  stop_seconds: number;
  engine_seconds: number;
  idle_seconds: number;
  max_speed: number;
  overspeed_count: number;
  alarm_count: number;
  alarms: Record<string, number>;
}

/** Devices grouped by zone with the first and last day of the range in that zone. */
export function zoneGroups(devices: readonly StatDevice[], startTime: number, endTime: number) {
  const groups = new Map<string, { first: string; last: string; devices: StatDevice[] }>();
  for (const d of devices) {
    let g = groups.get(d.zone);
    if (!g) {
      const days = daysOverlapping(startTime, endTime, d.zone);
      g = { first: days[0], last: days[days.length - 1], devices: [] };
      groups.set(d.zone, g);
    }
    g.devices.push(d);
  }
  return [...groups.values()].filter((g) => g.first !== undefined);
}

/** The daily rows of the devices over the range, ordered by day, then terminalID (`sumStatisticsPerDay`). */
export async function loadDaily(
  pool: pg.Pool,
  devices: readonly StatDevice[],
  startTime: number,
  endTime: number,
): Promise<DailyRecord[]> {
  const out: DailyRecord[] = [];
  for (const g of zoneGroups(devices, startTime, endTime)) {
    const byId = new Map(g.devices.map((d) => [d.id, d]));
    const res = await pool.query<Raw>(DAILY_SQL, [[...byId.keys()], g.first, g.last]);
    for (const r of res.rows) {
      const d = byId.get(String(r.device_id));
      if (!d) continue;
      out.push({
        deviceId: d.id,
        terminalID: d.terminalID,
        displayName: d.displayName,
        statsticDate: r.day,
        mileage: Math.round(r.mileage),
        runSeconds: r.run_seconds,
        stopCount: r.stop_count,
        stopSeconds: r.stop_seconds,
        engineSeconds: r.engine_seconds,
        idleSeconds: r.idle_seconds,
        maxSpeed: r.max_speed,
        overspeedCount: r.overspeed_count,
        alarmCount: r.alarm_count,
        alarms: r.alarms ?? {},
      });
    }
  }
  // Spec §7: rows merged per device and day by adding counters, ordered by day then terminalID.
  return sumStatisticsPerDay(out);
}

export interface Totals {
  mileage: number;
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  maxSpeed: number;
  overspeedCount: number;
  alarmCount: number;
  days: number;
}

export function emptyTotals(): Totals {
  return {
    mileage: 0,
    runSeconds: 0,
    stopCount: 0,
    stopSeconds: 0,
    engineSeconds: 0,
    idleSeconds: 0,
    maxSpeed: 0,
    overspeedCount: 0,
    alarmCount: 0,
    days: 0,
  };
}

/** Adds a daily row into totals (maxSpeed is the maximum, days counts rows). */
export function addInto(t: Totals, r: DailyRow): void {
  t.mileage += r.mileage;
  t.runSeconds += r.runSeconds;
  t.stopCount += r.stopCount;
  t.stopSeconds += r.stopSeconds;
  t.engineSeconds += r.engineSeconds;
  t.idleSeconds += r.idleSeconds;
  if (r.maxSpeed > t.maxSpeed) t.maxSpeed = r.maxSpeed;
  t.overspeedCount += r.overspeedCount;
  t.alarmCount += r.alarmCount;
  t.days++;
}
