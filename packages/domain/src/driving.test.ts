import { describe, expect, it } from 'vitest';
import { dayStateOf, daySummaryOf } from './dayState.ts';
import {
  DEFAULT_SPEED_LIMIT_KMH,
  type DrivingFix,
  dayMileage,
  EARTH_RADIUS_M,
  fenceVisits,
  findOverspeeds,
  findStays,
  findTrips,
  greatCircleMetres,
  newOverspeedMemory,
  OVERSPEED_MIN_SECONDS,
  overspeedStep,
  pathMetres,
  toColumns,
} from './driving.ts';
import { dayBounds, daysOverlapping } from './statistics.ts';

const T0 = Date.UTC(2026, 10, 2, 1, 0, 0);
/** Metres per degree of longitude at 30° N (haversine, for building legs of a known length). */
const lonDegFor = (m: number) => m / greatCircleMetres(30, 120, 30, 121);

function fix(seconds: number, lon: number, speed: number, extra: Partial<DrivingFix> = {}): DrivingFix {
  return { time: T0 + seconds * 1000, lat: 30, lon, speed, valid: true, locationType: 'gps', ...extra };
}

/** Drive east at `speed` km/h for `seconds`, one fix every `step` s, from `lon`. */
function leg(startSec: number, lon: number, seconds: number, speed: number, step = 10): DrivingFix[] {
  const out: DrivingFix[] = [];
  const perStep = lonDegFor((speed / 3.6) * step);
  for (let s = 0; s <= seconds; s += step)
    out.push(fix(startSec + s, lon + (s / step) * perStep, speed, { acc: true }));
  return out;
}

describe('great-circle distance and path', () => {
  it('measures a degree of latitude as about 111.2 km', () => {
    expect(greatCircleMetres(0, 0, 1, 0)).toBeCloseTo(111_195, 0);
  });

  it('leaves out jumps, drift and invalid / LBS fixes; otherwise sums the steps', () => {
    const fixes = [
      fix(0, 120, 50),
      fix(10, 120 + lonDegFor(139), 50),
      fix(20, 121, 50), // a jump of ~96 km in 10 s
      fix(30, 120 + lonDegFor(278), 50),
      fix(40, 122, 50, { locationType: 'lbs' }),
      fix(50, 122, 50, { valid: false }),
      fix(60, 120 + lonDegFor(278.01), 0),
      fix(70, 120 + lonDegFor(290), 0), // 12 m of drift while standing
    ];
    const cols = toColumns(fixes);
    expect(cols.length).toBe(6);
    expect(pathMetres(cols)).toBeCloseTo(278, 0);
    expect(dayMileage(fixes)).toEqual({ metres: expect.closeTo(278, 0), source: 'distance' });
  });

  it('prefers the odometer difference, and falls back to distance after a reset', () => {
    const fixes = leg(0, 120, 600, 60).map((f, i) => ({ ...f, odometer: 5000 + i * 150 }));
    expect(dayMileage(fixes)).toEqual({ metres: 60 * 150, source: 'odometer' });
    const reset = fixes.map((f, i) => ({ ...f, odometer: i < 30 ? f.odometer : 10 + (i - 30) * 150 }));
    // all zeros: a device without an odometer
    expect(dayMileage(fixes.map((f) => ({ ...f, odometer: 0 }))).source).toBe('distance');
    const m = dayMileage(reset);
    expect(m.source).toBe('distance');
    expect(m.metres).toBeCloseTo(10_000, -1);
  });
});

describe('stays and trips', () => {
  // 10 min at 60 km/h, 20 min parked (ACC off, one fix a minute), 5 min at 60 km/h.
  const first = leg(0, 120, 600, 60);
  const parkLon = first[first.length - 1].lon;
  const parked: DrivingFix[] = [];
  for (let s = 660; s <= 1800; s += 60) parked.push(fix(s, parkLon + 0.00001, 0, { acc: s < 900 }));
  const second = leg(1860, parkLon, 300, 60);
  const day = [...first, ...parked, ...second];

  it('finds the one stay with its span, centre and ACC-on share', () => {
    const stays = findStays(toColumns(day));
    expect(stays).toHaveLength(1);
    const s = stays[0];
    expect(s.start).toBe(T0 + 660_000); // the first standing fix
    expect(s.end).toBe(T0 + 1_860_000); // the fix that leaves
    expect(s.seconds).toBe(1200);
    expect(s.lat).toBeCloseTo(30, 6);
    expect(s.lon).toBeCloseTo(parkLon + 0.00001, 6);
    expect(s.accOnSeconds).toBe(240);
  });

  it('counts ACC-on time inside a stay as idling', () => {
    const idling = day.map((f) => (f.speed === 0 ? { ...f, acc: true } : f));
    expect(findStays(toColumns(idling))[0].accOnSeconds).toBe(1200);
  });

  it('a shorter minSeconds finds more, a longer one none', () => {
    expect(findStays(toColumns(day), 3600)).toHaveLength(0);
  });

  it('finds the trips before and after the stay with distance, duration and speeds', () => {
    const trips = findTrips(toColumns(day));
    expect(trips).toHaveLength(2);
    expect(trips[0].start).toBe(T0);
    expect(trips[0].distance).toBeCloseTo(10_000, -1);
    expect(trips[0].end).toBe(T0 + 660_000);
    expect(trips[0].avgSpeed).toBeCloseTo((trips[0].distance / 660) * 3.6, 6);
    expect(trips[0].maxSpeed).toBe(60);
    expect(trips[1].end).toBe(T0 + 2_160_000);
    expect(trips[1].distance).toBeCloseTo(5000, -1);
  });

  it('summarises the day', () => {
    const s = daySummaryOf(dayStateOf(day));
    expect(s.mileage).toBeCloseTo(15_000, -2);
    expect(s.stopCount).toBe(1);
    expect(s.stopSeconds).toBe(1200);
    expect(s.runSeconds).toBe(660 + 300);
    expect(s.engineSeconds).toBe(660 + 240 + 300);
    expect(s.idleSeconds).toBe(240);
    expect(s.maxSpeed).toBe(60);
    expect(s.overspeedCount).toBe(0);
  });

  it('keeps up with 777,600 fixes', () => {
    const n = 777_600;
    const times = new Float64Array(n);
    const lats = new Float64Array(n);
    const lons = new Float64Array(n);
    const speeds = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      times[i] = T0 + i * 10_000;
      const cycle = i % 360; // 30 min driving, 30 min parked
      speeds[i] = cycle < 180 ? 60 : 0;
      lats[i] = 30;
      lons[i] = 120 + Math.floor(i / 360) * 0.3 + Math.min(cycle, 180) * lonDegFor(166.7);
    }
    const cols = { length: n, times, lats, lons, speeds };
    const stays = findStays(cols);
    expect(stays.length).toBe(n / 360);
    expect(findTrips(cols, stays).length).toBeGreaterThan(n / 360 - 2);
  });
});

describe('overspeed', () => {
  it('an event needs OVERSPEED_MIN_SECONDS above the limit', () => {
    const limit = DEFAULT_SPEED_LIMIT_KMH;
    const fixes = [
      fix(0, 120, 100),
      fix(5, 120, 130), // a single fix over: no event
      fix(10, 120, 100),
      fix(20, 120, 125),
      fix(25, 120, 140),
      fix(20 + OVERSPEED_MIN_SECONDS, 120, 126),
      fix(40, 120, 90),
    ];
    const events = findOverspeeds(toColumns(fixes), limit);
    expect(events).toEqual([{ start: T0 + 20_000, end: T0 + 30_000, seconds: 10, maxSpeed: 140 }]);
    expect(findOverspeeds(toColumns(fixes), 135)).toHaveLength(0);
    const memory = newOverspeedMemory();
    const raised = fixes.map((f) => overspeedStep(memory, f.time, f.speed, limit));
    expect(raised).toEqual([false, false, false, false, false, true, false]);
  });
});

describe('fence visits', () => {
  it('pairs entries with exits, open ends run to the range ends', () => {
    const c = (t: number, kind: 'enter' | 'exit', fenceKey = 'f1') => ({ deviceKey: 'd', fenceKey, time: t, kind });
    const visits = fenceVisits(
      [c(5000, 'exit'), c(20_000, 'enter'), c(80_000, 'exit'), c(90_000, 'enter')],
      0,
      100_000,
    );
    expect(visits).toEqual([
      { deviceKey: 'd', fenceKey: 'f1', enter: null, exit: 5000, seconds: 5 },
      { deviceKey: 'd', fenceKey: 'f1', enter: 20_000, exit: 80_000, seconds: 60 },
      { deviceKey: 'd', fenceKey: 'f1', enter: 90_000, exit: null, seconds: 10 },
    ]);
  });
});

describe('statistics days', () => {
  it('lists every day of the zone that overlaps the range', () => {
    const start = Date.UTC(2026, 10, 1, 15, 30); // 23:30 in Shanghai on 1 Nov
    const end = Date.UTC(2026, 10, 2, 16, 30); // 00:30 on 3 Nov
    expect(daysOverlapping(start, end)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(daysOverlapping(start, end, 'UTC')).toEqual(['2026-11-01', '2026-11-02']);
    expect(dayBounds('2026-11-02')).toEqual({ start: Date.UTC(2026, 10, 1, 16), end: Date.UTC(2026, 10, 2, 16) });
  });
});

describe('statistics column labels', () => {
  it('name every exported column in every language', async () => {
    const { STAT_COLUMN_LABELS, statColumnLabel } = await import('./statisticsColumns.ts');
    for (const labels of Object.values(STAT_COLUMN_LABELS)) {
      for (const text of Object.values(labels)) expect(text.trim().length).toBeGreaterThan(0);
    }
    expect(statColumnLabel('mileage', 'cn')).toBe('里程(米)');
    expect(statColumnLabel('mileage', 'en-IN')).toBe('Mileage (m)');
    expect(statColumnLabel('nothing', 'fr')).toBe('nothing');
  });
});

describe('stays at the radius edge and column types', () => {
  // Standing fixes 10 s apart, each a given distance north of the first (metres → degrees of latitude).
  const perMetre = 1 / (EARTH_RADIUS_M * (Math.PI / 180));
  const cols = (metres: number[]) => ({
    length: metres.length,
    times: metres.map((_, i) => i * 10_000),
    lats: metres.map((m) => 30 + m * perMetre),
    lons: metres.map(() => 120),
    speeds: metres.map(() => 0),
  });

  it('a fix 49.9 m away stays in, 50.1 m away ends the stay (exact distance near the edge)', () => {
    const inside = findStays(cols([0, 0, 0, 49.9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 60);
    expect(inside).toHaveLength(1);
    expect(inside[0].lastIndex).toBe(19);
    const outside = findStays(cols([0, 0, 0, 0, 0, 0, 0, 50.1, 0, 0]), 60);
    expect(outside[0].lastIndex).toBe(6);
  });

  it('plain arrays, Float32Array and Float64Array columns give the same stays and trips', () => {
    const n = 2000;
    const t: number[] = [];
    const la: number[] = [];
    const lo: number[] = [];
    const sp: number[] = [];
    for (let i = 0; i < n; i++) {
      const cycle = i % 200;
      t.push(i * 10_000);
      sp.push(cycle < 100 ? 48 : 0);
      la.push(39.9);
      lo.push(116.3 + Math.floor(i / 200) * 0.15 + Math.min(cycle, 100) * 0.0015);
    }
    const plain = { length: n, times: t, lats: la, lons: lo, speeds: sp };
    const typed = {
      length: n,
      times: Float64Array.from(t),
      lats: Float64Array.from(la),
      lons: Float64Array.from(lo),
      speeds: Float32Array.from(sp),
    };
    const a = findTrips(plain, findStays(plain));
    const b = findTrips(typed, findStays(typed));
    expect(a.length).toBeGreaterThan(5);
    expect(b).toEqual(a);
    expect(pathMetres(typed)).toBeCloseTo(pathMetres(plain), 6);
  });
});
