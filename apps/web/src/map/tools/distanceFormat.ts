// Units of the distance tool (spec §9): metric (m, km) or US (ft, mi).
export type DistanceUnit = 'metric' | 'us';

export const METRES_PER_FOOT = 0.3048;
export const METRES_PER_MILE = 1609.344;

/** '850 m', '12.35 km'; US: '820 ft', '3.42 mi' (miles from 0.1 mi, 528 ft, on). */
export function formatDistance(metres: number, unit: DistanceUnit): string {
  if (!Number.isFinite(metres) || metres < 0) return '-';
  if (unit === 'us') {
    const feet = metres / METRES_PER_FOOT;
    if (feet < 528) return `${Math.round(feet)} ft`;
    return `${(metres / METRES_PER_MILE).toFixed(2)} mi`;
  }
  if (metres < 1000) return `${Math.round(metres)} m`;
  return `${(metres / 1000).toFixed(2)} km`;
}
