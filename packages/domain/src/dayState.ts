// The figures of one device-day kept as a running state (issue 13): the daily roll-up advances it with the
// fixes that arrived since, in time order, instead of walking the whole day again. The state holds what the
// day's rules (driving.ts: dayMileage, findStays, findOverspeeds, the run/engine/idle intervals) need to go
// on from the last fix — the last fix, the mileage so far and its anchor, the odometer's first and last
// reading, the open stay and overspeed candidates, the counters — and gives the same figures as those rules
// over all the day's fixes at once (dayState.test.ts compares them on random fix sequences).
//
// A fix at or before the state's last fix cannot be added: the caller recomputes the day from all its fixes
// (`dayStateOf`). JSON-safe (stored with the daily row).
import {
  DEFAULT_SPEED_LIMIT_KMH,
  DEFAULT_STAY_MIN_SECONDS,
  DRIFT_METRES,
  type DrivingFix,
  EARTH_RADIUS_M,
  greatCircleMetres,
  isSatelliteFix,
  JUMP_SPEED_CEILING_KMH,
  MAX_SAMPLE_GAP_SECONDS,
  OVERSPEED_MIN_SECONDS,
  STATIONARY_SPEED_KMH,
  STAY_RADIUS_M,
} from './driving.ts';

/** Version of the state's shape; a stored state of another version is recomputed. */
export const DAY_STATE_VERSION = 1;

export interface DayState {
  v: number;
  speedLimit: number;
  minStaySeconds: number;
  fixCount: number;
  /** The last fix (any kind): the start of the next run/engine/idle interval. */
  last: { time: number; speed: number; valid: boolean; acc: boolean | null } | null;
  runMs: number;
  engineMs: number;
  idleMs: number;
  /** km/h, satellite fixes */
  maxSpeed: number;
  /** Odometer readings (metres) above 0: first, last; broken once one went backwards. */
  odoFirst: number | null;
  odoLast: number | null;
  odoBroken: boolean;
  /** Distance along satellite fixes so far, and the fix the next step is measured from. */
  pathMetres: number;
  anchor: { time: number; lat: number; lon: number; speed: number } | null;
  /** The stay candidate still open (its first fix and its last fix's time), and the stays closed so far. */
  stay: { start: number; lat: number; lon: number; last: number } | null;
  stopCount: number;
  stopMs: number;
  /** The overspeed run still open, and the events closed so far. */
  over: { start: number; last: number } | null;
  overspeedCount: number;
}

/** One device-day's figures (the daily row, besides alarm counts). */
export interface DaySummary {
  /** metres */
  mileage: number;
  mileageSource: 'odometer' | 'distance';
  runSeconds: number;
  stopCount: number;
  stopSeconds: number;
  engineSeconds: number;
  idleSeconds: number;
  /** km/h */
  maxSpeed: number;
  overspeedCount: number;
}

export interface DaySummaryOptions {
  speedLimit?: number;
  minStaySeconds?: number;
}

export function newDayState(opts: DaySummaryOptions = {}): DayState {
  return {
    v: DAY_STATE_VERSION,
    speedLimit: opts.speedLimit ?? DEFAULT_SPEED_LIMIT_KMH,
    minStaySeconds: opts.minStaySeconds ?? DEFAULT_STAY_MIN_SECONDS,
    fixCount: 0,
    last: null,
    runMs: 0,
    engineMs: 0,
    idleMs: 0,
    maxSpeed: 0,
    odoFirst: null,
    odoLast: null,
    odoBroken: false,
    pathMetres: 0,
    anchor: null,
    stay: null,
    stopCount: 0,
    stopMs: 0,
    over: null,
    overspeedCount: 0,
  };
}

/** True when `state` can be advanced with fixes after `time` (same rules and options, strictly later). */
export function canAdvance(state: DayState, opts: DaySummaryOptions, time: number): boolean {
  return (
    state.v === DAY_STATE_VERSION &&
    state.speedLimit === (opts.speedLimit ?? DEFAULT_SPEED_LIMIT_KMH) &&
    state.minStaySeconds === (opts.minStaySeconds ?? DEFAULT_STAY_MIN_SECONDS) &&
    (state.last === null || time > state.last.time)
  );
}

const RAD = Math.PI / 180;
const METRES_PER_DEGREE = EARTH_RADIUS_M * RAD;
const STAY_INNER = (STAY_RADIUS_M * 0.995) ** 2;
const STAY_OUTER = (STAY_RADIUS_M * 1.005) ** 2;

/** findStays' test: the fix stands within the stay radius of the candidate's first fix. */
function staysIn(stay: NonNullable<DayState['stay']>, f: DrivingFix): boolean {
  if (f.speed > STATIONARY_SPEED_KMH) return false;
  const kx = Math.cos(stay.lat * RAD) * METRES_PER_DEGREE;
  const dy = (f.lat - stay.lat) * METRES_PER_DEGREE;
  const dx = (f.lon - stay.lon) * kx;
  const flat = dx * dx + dy * dy;
  if (flat > STAY_OUTER) return false;
  return !(flat > STAY_INNER && greatCircleMetres(stay.lat, stay.lon, f.lat, f.lon) > STAY_RADIUS_M);
}

/** One satellite fix into the distance, stay and overspeed parts of the state. */
function addSatellite(s: DayState, f: DrivingFix): void {
  if (f.speed > s.maxSpeed) s.maxSpeed = f.speed;
  // Distance (pathMetres): the haversine step from the anchor, jumps and drift left out.
  const a = s.anchor;
  if (a === null) s.anchor = { time: f.time, lat: f.lat, lon: f.lon, speed: f.speed };
  else {
    const dt = (f.time - a.time) / 1000;
    if (dt > 0) {
      const cosPrev = Math.cos(a.lat * RAD);
      const cosI = Math.cos(f.lat * RAD);
      const sLat = Math.sin((f.lat - a.lat) * RAD * 0.5);
      const sLon = Math.sin((f.lon - a.lon) * RAD * 0.5);
      const h = sLat * sLat + cosPrev * cosI * sLon * sLon;
      const d = 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
      const jump = (d / dt) * 3.6 > JUMP_SPEED_CEILING_KMH;
      const drift = d < DRIFT_METRES && a.speed <= STATIONARY_SPEED_KMH && f.speed <= STATIONARY_SPEED_KMH;
      if (!jump && !drift) {
        s.pathMetres += d;
        s.anchor = { time: f.time, lat: f.lat, lon: f.lon, speed: f.speed };
      }
    }
  }
  // Stays (findStays): the open candidate goes on, or ends at this fix (which may start the next one).
  if (s.stay !== null && staysIn(s.stay, f)) s.stay.last = f.time;
  else {
    if (s.stay !== null && f.time - s.stay.start >= s.minStaySeconds * 1000) {
      s.stopCount++;
      s.stopMs += f.time - s.stay.start;
    }
    s.stay = f.speed <= STATIONARY_SPEED_KMH ? { start: f.time, lat: f.lat, lon: f.lon, last: f.time } : null;
  }
  // Overspeed (findOverspeeds): consecutive fixes above the limit, no gap above MAX_SAMPLE_GAP_SECONDS.
  const o = s.over;
  if (o !== null && f.speed > s.speedLimit && f.time - o.last <= MAX_SAMPLE_GAP_SECONDS * 1000) o.last = f.time;
  else {
    if (o !== null && (o.last - o.start) / 1000 >= OVERSPEED_MIN_SECONDS) s.overspeedCount++;
    s.over = f.speed > s.speedLimit ? { start: f.time, last: f.time } : null;
  }
}

/**
 * Advances the state with fixes in time order, each later than the state's last fix (`canAdvance`); returns the
 * state (changed in place).
 */
export function advanceDay(s: DayState, fixes: readonly DrivingFix[]): DayState {
  const gapMs = MAX_SAMPLE_GAP_SECONDS * 1000;
  for (const f of fixes) {
    s.fixCount++;
    // Run, engine and idle: the interval from the last fix to this one, by the last fix's properties.
    const l = s.last;
    if (l !== null) {
      const dt = f.time - l.time;
      if (dt > 0 && dt <= gapMs) {
        const moving = l.speed > STATIONARY_SPEED_KMH;
        if (moving && l.valid) s.runMs += dt;
        if (l.acc === true) {
          s.engineMs += dt;
          if (!moving) s.idleMs += dt;
        }
      }
    }
    s.last = { time: f.time, speed: f.speed, valid: f.valid, acc: f.acc ?? null };
    // Odometer (odometerMetres): readings above 0; one going backwards (a reset) spoils the day's difference.
    const odo = f.odometer;
    if (odo !== null && odo !== undefined && Number.isFinite(odo) && odo > 0 && !s.odoBroken) {
      if (s.odoLast !== null && odo < s.odoLast) s.odoBroken = true;
      else {
        if (s.odoFirst === null) s.odoFirst = odo;
        s.odoLast = odo;
      }
    }
    if (isSatelliteFix(f)) addSatellite(s, f);
  }
  return s;
}

/** A day's state from all its fixes (time order): the full recompute. */
export function dayStateOf(fixes: readonly DrivingFix[], opts: DaySummaryOptions = {}): DayState {
  return advanceDay(newDayState(opts), fixes);
}

/**
 * The day's figures so far: the closed stays and overspeed events, and the open ones as the day's last fix
 * leaves them (as if no fix followed), mileage from the odometer when it never went backwards, else distance.
 */
export function daySummaryOf(s: DayState): DaySummary {
  let stopCount = s.stopCount;
  let stopMs = s.stopMs;
  if (s.stay !== null && s.stay.last - s.stay.start >= s.minStaySeconds * 1000) {
    stopCount++;
    stopMs += s.stay.last - s.stay.start;
  }
  let overspeedCount = s.overspeedCount;
  if (s.over !== null && (s.over.last - s.over.start) / 1000 >= OVERSPEED_MIN_SECONDS) overspeedCount++;
  const odometer = !s.odoBroken && s.odoFirst !== null && s.odoLast !== null ? s.odoLast - s.odoFirst : null;
  return {
    mileage: Math.round(odometer ?? s.pathMetres),
    mileageSource: odometer !== null ? 'odometer' : 'distance',
    runSeconds: Math.round(s.runMs / 1000),
    stopCount,
    stopSeconds: Math.round(stopMs / 1000),
    engineSeconds: Math.round(s.engineMs / 1000),
    idleSeconds: Math.round(s.idleMs / 1000),
    maxSpeed: Math.round(s.maxSpeed * 10) / 10,
    overspeedCount,
  };
}
