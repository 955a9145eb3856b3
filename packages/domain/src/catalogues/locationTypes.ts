import type { Labelled } from './source.ts';

/** How a position was obtained (spec §3). */
export const LOCATION_TYPES = [
  { id: 'beidou', cn: '北斗', en: 'BeiDou' },
  { id: 'gps', cn: 'GPS', en: 'GPS' },
  { id: 'lbs', cn: '基站', en: 'LBS' },
  { id: 'wifi', cn: 'WiFi', en: 'WiFi' },
] as const satisfies readonly (Labelled & { id: string })[];
export type LocationType = (typeof LOCATION_TYPES)[number]['id'];

const ALIASES: Readonly<Record<string, LocationType>> = {
  beidou: 'beidou',
  bd: 'beidou',
  bds: 'beidou',
  gps: 'gps',
  gnss: 'gps',
  lbs: 'lbs',
  cell: 'lbs',
  wifi: 'wifi',
  'wi-fi': 'wifi',
};

/** Reads a tag as devices and services spell it ('BD', 'BeiDou', 'GPS', 'LBS', 'WIFI', 'Wi-Fi'). */
export function parseLocationType(value: unknown): LocationType | undefined {
  return typeof value === 'string' ? ALIASES[value.trim().toLowerCase()] : undefined;
}
