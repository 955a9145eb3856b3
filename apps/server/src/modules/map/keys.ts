// Map keys set by the administrator (System → mapKey) and handed to the web by /api/map/getKey.
// One key per (projectName, devicePlatform, vendor); a lookup falls back to the default project and platform.
import type { AppContext } from '../../context.ts';
import { readSetting, writeSetting } from './settings.ts';

export const MAP_KEYS_SETTING = 'map_keys';
export const MAP_VENDORS = ['baidu', 'amap', 'google', 'yandex', 'bing'] as const;
export type MapVendor = (typeof MAP_VENDORS)[number];
export const DEFAULT_PROJECT = 'carhere';
export const DEFAULT_DEVICE_PLATFORM = 1;

export interface MapKeyEntry {
  projectName: string;
  devicePlatform: number;
  mapType: MapVendor;
  key: string;
  updatedAt: string;
}

const ALIASES: Readonly<Record<string, MapVendor>> = {
  gaode: 'amap',
  amapsatellite: 'amap',
  baidusatellite: 'baidu',
  googlesatellite: 'google',
};

/** The vendor of a map type as the web or the vendor API names it; anything else is Baidu (spec §1). */
export function mapVendor(mapType: unknown): MapVendor {
  const text = typeof mapType === 'string' ? mapType.trim().toLowerCase() : '';
  if ((MAP_VENDORS as readonly string[]).includes(text)) return text as MapVendor;
  return ALIASES[text] ?? 'baidu';
}

export async function listKeys(ctx: AppContext): Promise<MapKeyEntry[]> {
  const stored = await readSetting<{ entries?: MapKeyEntry[] }>(ctx, MAP_KEYS_SETTING);
  return Array.isArray(stored?.entries) ? stored.entries : [];
}

export function findKey(
  entries: readonly MapKeyEntry[],
  projectName: string,
  devicePlatform: number,
  vendor: MapVendor,
): string | undefined {
  const candidates = [
    [projectName, devicePlatform],
    [projectName, DEFAULT_DEVICE_PLATFORM],
    [DEFAULT_PROJECT, devicePlatform],
    [DEFAULT_PROJECT, DEFAULT_DEVICE_PLATFORM],
  ] as const;
  for (const [project, platform] of candidates) {
    const hit = entries.find((e) => e.mapType === vendor && e.projectName === project && e.devicePlatform === platform);
    if (hit && hit.key.trim() !== '') return hit.key;
  }
  return undefined;
}

const sameSlot = (a: Omit<MapKeyEntry, 'key' | 'updatedAt'>, b: Omit<MapKeyEntry, 'key' | 'updatedAt'>) =>
  a.projectName === b.projectName && a.devicePlatform === b.devicePlatform && a.mapType === b.mapType;

export async function saveKey(ctx: AppContext, entry: Omit<MapKeyEntry, 'updatedAt'>): Promise<MapKeyEntry[]> {
  const entries = (await listKeys(ctx)).filter((e) => !sameSlot(e, entry));
  entries.push({ ...entry, updatedAt: new Date().toISOString() });
  entries.sort((a, b) =>
    `${a.projectName}/${a.devicePlatform}/${a.mapType}`.localeCompare(
      `${b.projectName}/${b.devicePlatform}/${b.mapType}`,
    ),
  );
  await writeSetting(ctx, MAP_KEYS_SETTING, { entries });
  return entries;
}

export async function deleteKey(ctx: AppContext, slot: Omit<MapKeyEntry, 'key' | 'updatedAt'>): Promise<number> {
  const entries = await listKeys(ctx);
  const kept = entries.filter((e) => !sameSlot(e, slot));
  if (kept.length !== entries.length) await writeSetting(ctx, MAP_KEYS_SETTING, { entries: kept });
  return entries.length - kept.length;
}
