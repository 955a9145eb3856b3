// Driving statistics of one device (issue 13): mileage, stays (stop points), trips, engine hours, idle time
// and overspeed events, computed from a device's fixes in time order. Pure; one definition for the whole
// product (server roll-ups, /api/stay/find, /api/stat/trips, the track playback's stop pins).
//
// Fixes are given as columns (`FixColumns`) so a 90-day track of 777,600 fixes is walked without an object
// per fix. Times are epoch ms, speeds km/h, distances metres.

/** Mean Earth radius used for every great-circle distance in the product (metres). */
export const EARTH_RADIUS_M = 6_371_000;
/** A step whose implied speed is above this is a position jump and adds no distance (km/h). */
export const JUMP_SPEED_CEILING_KMH = 300;
/** At or under this reported speed a device counts as standing still (km/h). */
export const STATIONARY_SPEED_KMH = 5;
/** A step between two standing fixes shorter than this is drift, not movement (metres). */
export const DRIFT_METRES = 30;
/** A stay: every fix within this distance of the stay's first fix (metres). */
export const STAY_RADIUS_M = 50;
/** Default shortest stay (seconds); requests may ask for another (`minSeconds`). */
export const DEFAULT_STAY_MIN_SECONDS = 180;
/** Shortest and longest `minSeconds` a request may ask for. */
export const STAY_MIN_SECONDS_RANGE = [10, 86_400] as const;
/** A trip shorter than this is noise between two stays (metres). */
export const MIN_TRIP_METRES = 100;
/** A gap without fixes longer than this ends a trip (the device was off; the next fix starts a new trip) (seconds). */
export const TRIP_BREAK_GAP_SECONDS = 1800;
/** An interval longer than this between two fixes adds no engine, idle or run time (seconds). */
export const MAX_SAMPLE_GAP_SECONDS = 300;
/** Default per-device speed limit (km/h, spec §9). */
export const DEFAULT_SPEED_LIMIT_KMH = 120;
/** Speed limits a device may be given (km/h). */
export const SPEED_LIMIT_RANGE = [10, 300] as const;
/** An overspeed event: above the limit for at least this long (seconds). */
export const OVERSPEED_MIN_SECONDS = 10;
/** Export limits (countExport): devices and days per export. */
export const EXPORT_MAX_DEVICES = 1000;
export const EXPORT_MAX_DAYS = 93;
/** Longest range of a statistics query over daily rows (days). */
export const STAT_MAX_DAYS = 366;
/** Longest range of a query that reads raw fixes (stays, trips) (days). */
export const RAW_STAT_MAX_DAYS = 93;

/** Fixes of one device in time order, as columns. Only `valid` GPS/BeiDou fixes should be given to stays/trips. */
export interface FixColumns {
  readonly length: number;
  readonly times: ArrayLike<number>;
  readonly lats: ArrayLike<number>;
  readonly lons: ArrayLike<number>;
  /** km/h */
  readonly speeds: ArrayLike<number>;
  /** 1 ACC on, 0 off, -1 unknown; absent: unknown for every fix. */
  readonly acc?: ArrayLike<number>;
}

/** One fix as rows carry it (for `dayMileage` and the server's roll-up). */
export interface DrivingFix {
  time: number;
  lat: number;
  lon: number;
  speed: number;
  valid: boolean;
  /** gps | beidou | lbs | wifi | null */
  locationType?: string | null;
  acc?: boolean | null;
  /** Device odometer in metres, when reported. */
  odometer?: number | null;
}

export interface Stay {
  firstIndex: number;
  lastIndex: number;
  /** Epoch ms: first fix of the stay; end: the fix that left (or the last fix). */
  start: number;
  end: number;
  seconds: number;
  /** Centre: mean of the stay's fixes. */
  lat: number;
  lon: number;
  /** Seconds of the stay with ACC on (idling); the rest is parked or unknown. */
  accOnSeconds: number;
}

export interface Trip {
  start: number;
  end: number;
  seconds: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  /** metres */
  distance: number;
  /** km/h */
  avgSpeed: number;
  maxSpeed: number;
}

export interface OverspeedEvent {
  start: number;
  end: number;
  seconds: number;
  maxSpeed: number;
}

const RAD = Math.PI / 180;

/** Great-circle (haversine) distance in metres. */
export function greatCircleMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** True for a fix whose place can be trusted for distances and stays: valid, and not an LBS or Wi-Fi fix. */
export function isSatelliteFix(f: Pick<DrivingFix, 'valid' | 'locationType'>): boolean {
  return f.valid && f.locationType !== 'lbs' && f.locationType !== 'wifi';
}

/**
 * Distance travelled along fixes (indices from..to inclusive): great-circle steps, leaving out jumps (implied
 * speed above JUMP_SPEED_CEILING_KMH) and drift (a step under DRIFT_METRES between two standing fixes).
 * The caller gives satellite fixes only.
 */
export function pathMetres(fixes: FixColumns, from = 0, to = fixes.length - 1): number {
  const p = packed(fixes);
  return pathOf(p.times, p.lats, p.lons, p.speeds, from, to);
}

/** pathMetres over packed columns: one array type per parameter, so the loop stays monomorphic. */
function pathOf(
  times: Float64Array,
  lats: Float64Array,
  lons: Float64Array,
  speeds: Float64Array,
  from: number,
  to: number,
): number {
  let total = 0;
  let prev = from;
  let cosPrev = Math.cos(lats[from] * RAD);
  for (let i = from + 1; i <= to; i++) {
    const dt = (times[i] - times[prev]) / 1000;
    if (dt <= 0) continue;
    // Haversine, with the anchor's cosine kept from the step that made it the anchor.
    const cosI = Math.cos(lats[i] * RAD);
    const sLat = Math.sin((lats[i] - lats[prev]) * RAD * 0.5);
    const sLon = Math.sin((lons[i] - lons[prev]) * RAD * 0.5);
    const h = sLat * sLat + cosPrev * cosI * sLon * sLon;
    const d = 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
    if ((d / dt) * 3.6 > JUMP_SPEED_CEILING_KMH) continue; // a jump: keep the last good fix as the anchor
    if (d < DRIFT_METRES && speeds[prev] <= STATIONARY_SPEED_KMH && speeds[i] <= STATIONARY_SPEED_KMH) continue;
    total += d;
    prev = i;
    cosPrev = cosI;
  }
  return total;
}

/**
 * Columns as Float64Array / Int8Array, so the hot loops see one array type each (Float64Array columns are used
 * as they are; other arrays are copied once per call).
 */
interface Packed {
  readonly length: number;
  readonly times: Float64Array;
  readonly lats: Float64Array;
  readonly lons: Float64Array;
  readonly speeds: Float64Array;
  /** null: ACC unknown for every fix */
  readonly acc: Int8Array | null;
}

function f64(a: ArrayLike<number>, n: number): Float64Array {
  if (a instanceof Float64Array && a.length === n) return a;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = a[i];
  return out;
}

function packed(fixes: FixColumns): Packed {
  const n = fixes.length;
  let acc: Int8Array | null = null;
  if (fixes.acc) {
    if (fixes.acc instanceof Int8Array && fixes.acc.length === n) acc = fixes.acc;
    else {
      acc = new Int8Array(n);
      for (let i = 0; i < n; i++) acc[i] = fixes.acc[i];
    }
  }
  return {
    length: n,
    times: f64(fixes.times, n),
    lats: f64(fixes.lats, n),
    lons: f64(fixes.lons, n),
    speeds: f64(fixes.speeds, n),
    acc,
  };
}

/**
 * Odometer difference over the fixes, or null when there is none or it went backwards (a reset). A reading of 0
 * is taken as "no odometer" (devices without one report 0).
 */
export function odometerMetres(fixes: readonly DrivingFix[]): number | null {
  let first: number | null = null;
  let last: number | null = null;
  for (const f of fixes) {
    const o = f.odometer;
    if (o === null || o === undefined || !Number.isFinite(o) || o <= 0) continue;
    if (last !== null && o < last) return null;
    if (first === null) first = o;
    last = o;
  }
  if (first === null || last === null) return null;
  return last - first;
}

/** Satellite fixes of a day's fixes (time order) as columns. */
export function toColumns(fixes: readonly DrivingFix[], keep: (f: DrivingFix) => boolean = isSatelliteFix): FixColumns {
  const kept = fixes.filter(keep);
  const n = kept.length;
  const times = new Float64Array(n);
  const lats = new Float64Array(n);
  const lons = new Float64Array(n);
  const speeds = new Float64Array(n);
  const acc = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const f = kept[i];
    times[i] = f.time;
    lats[i] = f.lat;
    lons[i] = f.lon;
    speeds[i] = f.speed;
    acc[i] = f.acc === true ? 1 : f.acc === false ? 0 : -1;
  }
  return { length: n, times, lats, lons, speeds, acc };
}

/**
 * Mileage of a day: the odometer difference when the device reports an odometer that did not go backwards;
 * otherwise the distance along the day's satellite fixes (`pathMetres`). Fixes in time order.
 */
export function dayMileage(fixes: readonly DrivingFix[]): { metres: number; source: 'odometer' | 'distance' } {
  const odo = odometerMetres(fixes);
  if (odo !== null) return { metres: odo, source: 'odometer' };
  return { metres: pathMetres(toColumns(fixes)), source: 'distance' };
}

/**
 * Stays (stop points): the device stood (reported speed at most STATIONARY_SPEED_KMH) within STAY_RADIUS_M of
 * the stay's first fix for at least `minSeconds`. A device that sleeps while parked reports again from the same
 * place, so the gap is part of the stay; a stay ends at the fix that leaves (or the last fix).
 */
export function findStays(fixes: FixColumns, minSeconds = DEFAULT_STAY_MIN_SECONDS): Stay[] {
  const { times, lats, lons, speeds, acc, length } = packed(fixes);
  const minMs = minSeconds * 1000;
  const stays: Stay[] = [];
  // The radius check by flat-earth metres first (no trigonometry per fix); only fixes within half a percent of
  // the radius get the exact great-circle distance.
  const metresPerDegree = EARTH_RADIUS_M * RAD;
  const inner = (STAY_RADIUS_M * 0.995) ** 2;
  const outer = (STAY_RADIUS_M * 1.005) ** 2;
  let i = 0;
  while (i < length) {
    if (speeds[i] > STATIONARY_SPEED_KMH) {
      i++;
      continue;
    }
    const lat0 = lats[i];
    const lon0 = lons[i];
    const kx = Math.cos(lat0 * RAD) * metresPerDegree;
    let j = i;
    while (j + 1 < length && speeds[j + 1] <= STATIONARY_SPEED_KMH) {
      const dy = (lats[j + 1] - lat0) * metresPerDegree;
      const dx = (lons[j + 1] - lon0) * kx;
      const flat = dx * dx + dy * dy;
      if (flat > outer) break;
      if (flat > inner && greatCircleMetres(lat0, lon0, lats[j + 1], lons[j + 1]) > STAY_RADIUS_M) break;
      j++;
    }
    const end = j + 1 < length ? times[j + 1] : times[j];
    if (end - times[i] >= minMs) {
      let sumLat = 0;
      let sumLon = 0;
      let accOnMs = 0;
      for (let k = i; k <= j; k++) {
        sumLat += lats[k];
        sumLon += lons[k];
        if (acc !== null && acc[k] === 1) accOnMs += (k < j ? times[k + 1] : end) - times[k];
      }
      const n = j - i + 1;
      stays.push({
        firstIndex: i,
        lastIndex: j,
        start: times[i],
        end,
        seconds: (end - times[i]) / 1000,
        lat: sumLat / n,
        lon: sumLon / n,
        accOnSeconds: accOnMs / 1000,
      });
    }
    i = j + 1;
  }
  return stays;
}

function tripBetween(p: Packed, from: number, to: number): Trip | null {
  if (to <= from) return null;
  const { times, lats, lons, speeds } = p;
  const distance = pathOf(times, lats, lons, speeds, from, to);
  if (distance < MIN_TRIP_METRES) return null;
  let maxSpeed = 0;
  for (let k = from; k <= to; k++) if (speeds[k] > maxSpeed) maxSpeed = speeds[k];
  const seconds = (times[to] - times[from]) / 1000;
  return {
    start: times[from],
    end: times[to],
    seconds,
    startLat: lats[from],
    startLon: lons[from],
    endLat: lats[to],
    endLon: lons[to],
    distance,
    avgSpeed: seconds > 0 ? (distance / seconds) * 3.6 : 0,
    maxSpeed,
  };
}

/**
 * Trips: movement between two stays, from the last fix of one stay to the first fix of the next. Movement
 * before the first stay (the range began on the road) and after the last one (still driving) are trips too.
 * A gap without fixes longer than TRIP_BREAK_GAP_SECONDS ends a trip. Trips under MIN_TRIP_METRES are left out.
 */
export function findTrips(fixes: FixColumns, stays: readonly Stay[] = findStays(fixes)): Trip[] {
  const trips: Trip[] = [];
  const p = packed(fixes);
  const { times } = p;
  let from = 0;
  const breakMs = TRIP_BREAK_GAP_SECONDS * 1000;
  const between = (a: number, b: number) => {
    let start = a;
    for (let k = a + 1; k <= b; k++) {
      if (times[k] - times[k - 1] <= breakMs) continue;
      const t = tripBetween(p, start, k - 1);
      if (t) trips.push(t);
      start = k;
    }
    const t = tripBetween(p, start, b);
    if (t) trips.push(t);
  };
  for (const s of stays) {
    between(from, s.firstIndex);
    from = s.lastIndex;
  }
  between(from, p.length - 1);
  return trips;
}

/** Overspeed events: consecutive fixes above `limit` lasting at least OVERSPEED_MIN_SECONDS. */
export function findOverspeeds(fixes: FixColumns, limit = DEFAULT_SPEED_LIMIT_KMH): OverspeedEvent[] {
  const { times, speeds, length } = fixes;
  const events: OverspeedEvent[] = [];
  let i = 0;
  while (i < length) {
    if (speeds[i] <= limit) {
      i++;
      continue;
    }
    let j = i;
    let max = speeds[i];
    while (j + 1 < length && speeds[j + 1] > limit && times[j + 1] - times[j] <= MAX_SAMPLE_GAP_SECONDS * 1000) {
      j++;
      if (speeds[j] > max) max = speeds[j];
    }
    const seconds = (times[j] - times[i]) / 1000;
    if (seconds >= OVERSPEED_MIN_SECONDS) events.push({ start: times[i], end: times[j], seconds, maxSpeed: max });
    i = j + 1;
  }
  return events;
}

/**
 * The ingest's overspeed rule, one fix at a time: remembers since when the device has been over the limit and
 * says when the event is established (over the limit for OVERSPEED_MIN_SECONDS) — once per event.
 */
export interface OverspeedMemory {
  since: number | null;
  last: number | null;
  raised: boolean;
}

export function newOverspeedMemory(): OverspeedMemory {
  return { since: null, last: null, raised: false };
}

/** Feeds one valid fix; true when this fix establishes a new overspeed event. */
export function overspeedStep(memory: OverspeedMemory, time: number, speed: number, limit: number): boolean {
  if (speed <= limit || (memory.last !== null && time - memory.last > MAX_SAMPLE_GAP_SECONDS * 1000)) {
    memory.since = speed > limit ? time : null;
    memory.last = speed > limit ? time : null;
    memory.raised = false;
    return false;
  }
  if (memory.since === null) memory.since = time;
  memory.last = time;
  if (!memory.raised && time - memory.since >= OVERSPEED_MIN_SECONDS * 1000) {
    memory.raised = true;
    return true;
  }
  return false;
}

/** A fence alarm as the visits are built from it: 'enter' (code 4) or 'exit' (code 5). */
export interface FenceCrossing {
  deviceKey: string;
  fenceKey: string;
  time: number;
  kind: 'enter' | 'exit';
}

export interface FenceVisit {
  deviceKey: string;
  fenceKey: string;
  /** null: already inside when the range began. */
  enter: number | null;
  /** null: still inside when the range ended. */
  exit: number | null;
  /** Time inside within [rangeStart, rangeEnd] (seconds). */
  seconds: number;
}

/**
 * Fence visits from fence crossings (any order): per device and fence, an entry paired with the next exit. An
 * exit without an entry began before the range; an entry without an exit lasts to the range end.
 */
export function fenceVisits(crossings: readonly FenceCrossing[], rangeStart: number, rangeEnd: number): FenceVisit[] {
  const sorted = [...crossings].sort((a, b) => a.time - b.time);
  const open = new Map<string, FenceVisit>();
  const visits: FenceVisit[] = [];
  const close = (v: FenceVisit) => {
    const from = v.enter ?? rangeStart;
    const to = v.exit ?? rangeEnd;
    v.seconds = Math.max(0, Math.round((to - from) / 1000));
    visits.push(v);
  };
  for (const c of sorted) {
    const key = `${c.deviceKey}\u0000${c.fenceKey}`;
    const current = open.get(key);
    if (c.kind === 'enter') {
      if (current) continue; // a repeated entry while inside
      open.set(key, { deviceKey: c.deviceKey, fenceKey: c.fenceKey, enter: c.time, exit: null, seconds: 0 });
    } else if (current) {
      current.exit = c.time;
      open.delete(key);
      close(current);
    } else {
      close({ deviceKey: c.deviceKey, fenceKey: c.fenceKey, enter: null, exit: c.time, seconds: 0 });
    }
  }
  for (const v of open.values()) close(v);
  return visits.sort((a, b) => (a.enter ?? rangeStart) - (b.enter ?? rangeStart));
}
