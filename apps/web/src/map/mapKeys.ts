// Map keys from /api/map/getKey {projectName, devicePlatform, mapType} (spec §7), cached per map vendor.
// A server without the endpoint, or without a configured key, gives null: tiles that need no key still load.
import { callEnvelope } from '../api/client.ts';
import type { MapVendor } from './providers.ts';

export const MAP_KEY_PROJECT = 'carhere';
export const MAP_KEY_DEVICE_PLATFORM = 1;

const cache = new Map<MapVendor, Promise<string | null>>();

async function fetchKey(vendor: MapVendor): Promise<string | null> {
  try {
    const env = await callEnvelope<unknown>('/map/getKey', {
      projectName: MAP_KEY_PROJECT,
      devicePlatform: MAP_KEY_DEVICE_PLATFORM,
      mapType: vendor,
    });
    if (!env.meta.success) return null;
    return typeof env.data === 'string' && env.data.trim() !== '' ? env.data.trim() : null;
  } catch {
    return null;
  }
}

/** The key of a vendor, fetched once per page; failures are cached as null until `forgetMapKeys`. */
export function mapKey(vendor: MapVendor): Promise<string | null> {
  let pending = cache.get(vendor);
  if (!pending) {
    pending = fetchKey(vendor);
    cache.set(vendor, pending);
  }
  return pending;
}

/** After the keys were changed in System → mapKey. */
export function forgetMapKeys(): void {
  cache.clear();
}
