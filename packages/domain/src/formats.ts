// Display formats of spec §9. Units stay 'm' and 'km' in every language.

export const METRES_PER_KM = 1000;

function metresOrKm(metres: number, kmDecimals: number): string {
  if (!Number.isFinite(metres)) return '-';
  const value = Math.max(0, metres);
  const roundedMetres = Math.round(value);
  if (roundedMetres < METRES_PER_KM) return `${roundedMetres} m`;
  return `${(value / METRES_PER_KM).toFixed(kmDecimals)} km`;
}

/** Track mileage: whole metres below 1000 m, else km with 1 decimal ('999 m', '1.0 km', '12.3 km'). */
export function formatMileage(metres: number): string {
  return metresOrKm(metres, 1);
}

/** Fence radius: whole metres below 1000 m, else km with 2 decimals ('500 m', '1.50 km'). */
export function formatRadius(metres: number): string {
  return metresOrKm(metres, 2);
}

/** The 8 compass sectors of 45°, centred on their direction: north covers 337.5° to 22.5°. */
export const HEADINGS = ['north', 'northEast', 'east', 'southEast', 'south', 'southWest', 'west', 'northWest'] as const;
export type Heading = (typeof HEADINGS)[number];

/**
 * Sector of a course in degrees (0 = north, clockwise), any real value accepted (-45 = 315).
 * A boundary belongs to the sector clockwise of it (22.5 → northEast). Undefined for NaN or ±Infinity.
 */
export function headingOf(degrees: number): Heading | undefined {
  if (!Number.isFinite(degrees)) return undefined;
  const normalized = ((degrees % 360) + 360) % 360;
  return HEADINGS[Math.floor((normalized + 22.5) / 45) % 8];
}
