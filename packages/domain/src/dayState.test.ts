import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advanceDay, canAdvance, type DayState, type DaySummary, dayStateOf, daySummaryOf } from './dayState.ts';
import {
  DEFAULT_SPEED_LIMIT_KMH,
  DEFAULT_STAY_MIN_SECONDS,
  type DrivingFix,
  dayMileage,
  findOverspeeds,
  findStays,
  isSatelliteFix,
  MAX_SAMPLE_GAP_SECONDS,
  STATIONARY_SPEED_KMH,
  toColumns,
} from './driving.ts';

/**
 * The day's figures straight from the product's rules over all its fixes at once (dayMileage, findStays,
 * findOverspeeds and the run/engine/idle intervals): what the running state must always agree with.
 */
function fromRules(fixes: readonly DrivingFix[], speedLimit: number, minStaySeconds: number): DaySummary {
  const cols = toColumns(fixes);
  const mileage = dayMileage(fixes);
  const stays = findStays(cols, minStaySeconds);
  const overspeeds = findOverspeeds(cols, speedLimit);
  let runMs = 0;
  let engineMs = 0;
  let idleMs = 0;
  let maxSpeed = 0;
  for (let i = 0; i < fixes.length; i++) {
    const f = fixes[i];
    if (isSatelliteFix(f) && f.speed > maxSpeed) maxSpeed = f.speed;
    if (i + 1 >= fixes.length) break;
    const dt = fixes[i + 1].time - f.time;
    if (dt <= 0 || dt > MAX_SAMPLE_GAP_SECONDS * 1000) continue;
    const moving = f.speed > STATIONARY_SPEED_KMH;
    if (moving && f.valid) runMs += dt;
    if (f.acc === true) {
      engineMs += dt;
      if (!moving) idleMs += dt;
    }
  }
  let stopMs = 0;
  for (const s of stays) stopMs += s.end - s.start;
  return {
    mileage: Math.round(mileage.metres),
    mileageSource: mileage.source,
    runSeconds: Math.round(runMs / 1000),
    stopCount: stays.length,
    stopSeconds: Math.round(stopMs / 1000),
    engineSeconds: Math.round(engineMs / 1000),
    idleSeconds: Math.round(idleMs / 1000),
    maxSpeed: Math.round(maxSpeed * 10) / 10,
    overspeedCount: overspeeds.length,
  };
}

const T0 = Date.UTC(2026, 10, 2, 0, 0, 0);

/** One step of a random drive: time gap, movement, speed, quality, ACC, odometer change. */
const stepArb = fc.record({
  gap: fc.constantFrom(0, 1, 5, 10, 10, 10, 30, 60, 200, 299, 300, 301, 2000),
  // degrees: nothing, drift-sized, stay-radius-sized, a leg, a jump
  dLat: fc.constantFrom(0, 0, 0.00005, 0.0002, 0.00045, 0.0005, 0.002, 0.05, 1),
  dLon: fc.constantFrom(0, 0, -0.0001, 0.0003, 0.001),
  speed: fc.constantFrom(0, 0, 3, 5, 6, 40, 60, 119, 120, 121, 150),
  valid: fc.constantFrom(true, true, true, false),
  locationType: fc.constantFrom('gps', 'gps', 'beidou', 'lbs', 'wifi', null),
  acc: fc.constantFrom(true, false, null),
  odo: fc.constantFrom(null, null, 0, 'up', 'up', 'reset'),
});

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function drive(steps: Step[]): DrivingFix[] {
  let time = T0;
  let lat = 30;
  let lon = 120;
  let odometer = 1000;
  return steps.map((s) => {
    time += s.gap * 1000;
    lat += s.dLat;
    lon += s.dLon;
    if (s.odo === 'up') odometer += 150;
    if (s.odo === 'reset') odometer = 10;
    return {
      time,
      lat,
      lon,
      speed: s.speed,
      valid: s.valid,
      locationType: s.locationType,
      acc: s.acc,
      odometer: s.odo === null ? null : s.odo === 0 ? 0 : odometer,
    };
  });
}

const byTime = (fixes: readonly DrivingFix[]) => [...fixes].sort((a, b) => a.time - b.time);

describe('running day state', () => {
  it('equals the rules over the whole day, whatever the order and batches the fixes arrive in', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 0, maxLength: 120 }),
        // arrival: each fix is delayed by some places (a late fix lands before fixes already stored)
        fc.array(fc.constantFrom(0, 0, 0, 0, 0, 1, 3, 20), { minLength: 120, maxLength: 120 }),
        // batch sizes as the roll-up takes them
        fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 120, maxLength: 120 }),
        fc.constantFrom(60, DEFAULT_SPEED_LIMIT_KMH),
        fc.constantFrom(10, DEFAULT_STAY_MIN_SECONDS),
        (steps, delays, batchSizes, speedLimit, minStaySeconds) => {
          const fixes = drive(steps);
          const arrival = fixes
            .map((f, i) => ({ f, at: i + delays[i] + i / 1000 }))
            .sort((a, b) => a.at - b.at)
            .map((x) => x.f);
          const opts = { speedLimit, minStaySeconds };
          const stored: DrivingFix[] = [];
          let state: DayState | null = null;
          let recomputes = 0;
          let k = 0;
          for (let b = 0; k < arrival.length; b++) {
            const batch = arrival.slice(k, k + batchSizes[b % batchSizes.length]);
            k += batch.length;
            stored.push(...batch);
            const sorted = byTime(batch);
            // The state is stored as JSON between roll-ups.
            const kept: DayState | null = state === null ? null : JSON.parse(JSON.stringify(state));
            if (kept !== null && canAdvance(kept, opts, sorted[0].time)) state = advanceDay(kept, sorted);
            else {
              state = dayStateOf(byTime(stored), opts);
              recomputes++;
            }
            expect(daySummaryOf(state)).toEqual(fromRules(byTime(stored), speedLimit, minStaySeconds));
            expect(state.fixCount).toBe(stored.length);
          }
          expect(recomputes).toBeLessThanOrEqual(Math.max(1, stored.length));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('takes only later fixes with the same rules', () => {
    const s = dayStateOf([{ time: T0, lat: 30, lon: 120, speed: 0, valid: true }], { speedLimit: 100 });
    expect(canAdvance(s, { speedLimit: 100 }, T0 + 1)).toBe(true);
    expect(canAdvance(s, { speedLimit: 100 }, T0)).toBe(false);
    expect(canAdvance(s, { speedLimit: 100 }, T0 - 1)).toBe(false);
    expect(canAdvance(s, { speedLimit: 90 }, T0 + 1)).toBe(false);
    expect(canAdvance(s, { speedLimit: 100, minStaySeconds: 60 }, T0 + 1)).toBe(false);
    expect(canAdvance({ ...s, v: 0 }, { speedLimit: 100 }, T0 + 1)).toBe(false);
  });

  it('counts an open stay and an open overspeed as the last fix leaves them, and closes them later', () => {
    const parked = Array.from({ length: 20 }, (_, i) => ({
      time: T0 + i * 10_000,
      lat: 30,
      lon: 120,
      speed: 0,
      valid: true,
    }));
    const s = dayStateOf(parked);
    expect(daySummaryOf(s)).toMatchObject({ stopCount: 1, stopSeconds: 190 });
    advanceDay(s, [{ time: T0 + 200_000, lat: 30.01, lon: 120, speed: 130, valid: true }]);
    expect(daySummaryOf(s)).toMatchObject({ stopCount: 1, stopSeconds: 200, overspeedCount: 0 });
    advanceDay(s, [{ time: T0 + 210_000, lat: 30.015, lon: 120, speed: 130, valid: true }]);
    expect(daySummaryOf(s)).toMatchObject({ stopCount: 1, stopSeconds: 200, overspeedCount: 1 });
  });
});
