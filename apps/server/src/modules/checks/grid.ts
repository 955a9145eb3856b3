// The coarse grid of vehicle checks: every fix falls in a cell of 0.01° × 0.01°, numbered row-major
// (row = latitude band, column = longitude band), so the cells of one row of a box are consecutive numbers and a
// box becomes one number range per row. positions_cell_time_idx (0820_customer_map.sql) indexes (cell, time).
// Pure functions; no I/O.

export const CELLS_PER_DEGREE = 100;
/** Columns per row: longitude bands from -180 to 180 inclusive. */
export const CELL_COLUMNS = 36001;

/**
 * The cell of a fix as PostgreSQL computes it for the index. It must stay the same expression as the index's,
 * over the positions alias given, or the planner cannot use the index.
 */
export function positionCellSql(alias: string): string {
  return `((floor((${alias}.lat + 90) * 100))::integer * 36001 + (floor((${alias}.lon + 180) * 100))::integer)`;
}

export function cellRow(lat: number): number {
  return Math.floor((lat + 90) * CELLS_PER_DEGREE);
}

export function cellColumn(lon: number): number {
  return Math.floor((lon + 180) * CELLS_PER_DEGREE);
}

export function cellOf(lat: number, lon: number): number {
  return cellRow(lat) * CELL_COLUMNS + cellColumn(lon);
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** One inclusive range of cell numbers per latitude band the box touches. */
export function cellRanges(box: Box): { lo: number[]; hi: number[] } {
  const lo: number[] = [];
  const hi: number[] = [];
  const c0 = cellColumn(box.minLon);
  const c1 = cellColumn(box.maxLon);
  for (let r = cellRow(box.minLat); r <= cellRow(box.maxLat); r++) {
    lo.push(r * CELL_COLUMNS + c0);
    hi.push(r * CELL_COLUMNS + c1);
  }
  return { lo, hi };
}

const METRES_PER_DEGREE_LAT = 111_195;

/** The box around a circle (centre, radius in metres), slightly generous; clamped to the globe. */
export function boxAround(lat: number, lon: number, radius: number): Box {
  const dLat = (radius / METRES_PER_DEGREE_LAT) * 1.01;
  const cos = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const dLon = (radius / (METRES_PER_DEGREE_LAT * cos)) * 1.01;
  return {
    minLat: Math.max(-90, lat - dLat),
    maxLat: Math.min(90, lat + dLat),
    minLon: Math.max(-180, lon - dLon),
    maxLon: Math.min(180, lon + dLon),
  };
}

/** The bounding box of polygon vertices [lat, lon]. */
export function boxOfPoints(points: readonly (readonly [number, number])[]): Box {
  return {
    minLat: Math.min(...points.map((p) => p[0])),
    maxLat: Math.max(...points.map((p) => p[0])),
    minLon: Math.min(...points.map((p) => p[1])),
    maxLon: Math.max(...points.map((p) => p[1])),
  };
}

export interface Fix {
  time: number;
  lat: number;
  lon: number;
  /** metres from the checked point */
  distance: number;
}

export interface Passage {
  enteredAt: number;
  leftAt: number;
  fixes: number;
  /** the closest distance seen, metres */
  closest: number;
}

/** Fixes closer in time than this (and all within the radius) belong to one passage. */
export const PASSAGE_GAP_MS = 10 * 60_000;

/** A device's fixes within the radius, in time order, grouped into passages. */
export function passages(fixes: readonly Fix[], gapMs = PASSAGE_GAP_MS): Passage[] {
  const out: Passage[] = [];
  let cur: Passage | null = null;
  for (const f of fixes) {
    if (cur && f.time - cur.leftAt <= gapMs) {
      cur.leftAt = f.time;
      cur.fixes++;
      cur.closest = Math.min(cur.closest, f.distance);
      continue;
    }
    cur = { enteredAt: f.time, leftAt: f.time, fixes: 1, closest: f.distance };
    out.push(cur);
  }
  return out;
}
