// Where a bus is on its route and when it reaches the next stop: pure functions over WGS-84 degrees. Distances
// along the route are measured on the polyline (or, without one, on the line through the stops) in a local
// plane, which is exact enough over a city route.

export interface Stop {
  name: string;
  lat: number;
  lon: number;
  /** metres: inside it the bus is at the stop */
  radius: number;
}

export type LatLon = [number, number];

const M_PER_DEG = 111_195;

interface Projection {
  /** metres from the start of the line */
  along: number;
  /** metres from the line */
  off: number;
}

function toXY(p: LatLon, lat0: number): [number, number] {
  return [p[1] * M_PER_DEG * Math.cos((lat0 * Math.PI) / 180), p[0] * M_PER_DEG];
}

/** The nearest point of the line to p, as distance along the line and distance off it. */
export function project(line: readonly LatLon[], p: LatLon): Projection {
  if (line.length === 0) return { along: 0, off: Number.POSITIVE_INFINITY };
  const lat0 = line[0][0];
  const [px, py] = toXY(p, lat0);
  if (line.length === 1) {
    const [x, y] = toXY(line[0], lat0);
    return { along: 0, off: Math.hypot(px - x, py - y) };
  }
  let best: Projection = { along: 0, off: Number.POSITIVE_INFINITY };
  let start = 0;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = toXY(line[i - 1], lat0);
    const [bx, by] = toXY(line[i], lat0);
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    const off = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
    const len = Math.sqrt(len2);
    if (off < best.off) best = { along: start + t * len, off };
    start += len;
  }
  return best;
}

export interface BusProgress {
  /** index of the stop the bus is at (inside its radius), or null */
  atStop: number | null;
  /** index of the next stop ahead, or null at the end of the line */
  nextStop: number | null;
  /** metres along the route to the next stop */
  distance: number | null;
  /** seconds to the next stop */
  etaSeconds: number | null;
  /** metres off the route */
  offRoute: number;
}

/** Below this speed (km/h) a bus is taken to move at DEFAULT_SPEED_KMH for the ETA (it is stopped or crawling). */
export const MIN_MOVING_KMH = 5;
export const DEFAULT_SPEED_KMH = 20;

export function busProgress(
  stops: readonly Stop[],
  polyline: readonly LatLon[],
  position: { lat: number; lon: number; speed: number },
): BusProgress {
  const line: LatLon[] = polyline.length >= 2 ? [...polyline] : stops.map((s) => [s.lat, s.lon] as LatLon);
  const here = project(line, [position.lat, position.lon]);
  const stopAlong = stops.map((s) => project(line, [s.lat, s.lon]).along);
  let atStop: number | null = null;
  let atDistance = Number.POSITIVE_INFINITY;
  stops.forEach((s, i) => {
    const [sx, sy] = toXY([s.lat, s.lon], s.lat);
    const [px, py] = toXY([position.lat, position.lon], s.lat);
    const d = Math.hypot(sx - px, sy - py);
    if (d <= s.radius && d < atDistance) {
      atStop = i;
      atDistance = d;
    }
  });
  let nextStop: number | null = null;
  const from = atStop === null ? 0 : atStop + 1;
  for (let i = from; i < stops.length; i++) {
    if (atStop !== null || stopAlong[i] > here.along) {
      nextStop = i;
      break;
    }
  }
  if (nextStop === null) return { atStop, nextStop, distance: null, etaSeconds: null, offRoute: here.off };
  const distance = Math.max(0, stopAlong[nextStop] - here.along);
  const kmh = position.speed >= MIN_MOVING_KMH ? position.speed : DEFAULT_SPEED_KMH;
  return { atStop, nextStop, distance, etaSeconds: Math.round(distance / (kmh / 3.6)), offRoute: here.off };
}
