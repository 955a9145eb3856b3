// Reverse geocoding through the server (/api/map/getKeyAddress, spec §7), cached in local storage by
// rounded lat/lng and language. A server without geocoding gives null and the page shows coordinates.
import { callEnvelope } from '../api/client.ts';
import type { LatLon } from './coords.ts';

const PREFIX = 'addr:';
const INDEX_KEY = 'addr:index';
/** Addresses kept in local storage; the oldest go first. */
export const ADDRESS_CACHE_LIMIT = 500;
/** 4 decimals ≈ 11 m: nearby fixes of a parked car share one lookup. */
const DECIMALS = 4;

export function addressCacheKey(point: LatLon, language: string): string {
  return `${PREFIX}${language}:${point.lat.toFixed(DECIMALS)},${point.lon.toFixed(DECIMALS)}`;
}

interface BaiduStyleAnswer {
  status?: number;
  result?: { formatted_address?: string; sematic_description?: string };
}

/** The address text of a getKeyAddress answer (a plain string or the Baidu-style object), or null. */
export function addressFromAnswer(data: unknown): string | null {
  if (typeof data === 'string') return data.trim() || null;
  if (data === null || typeof data !== 'object') return null;
  const answer = data as BaiduStyleAnswer;
  if (answer.status !== undefined && answer.status !== 0) return null;
  const formatted = answer.result?.formatted_address?.trim();
  if (!formatted) return null;
  const near = answer.result?.sematic_description?.trim();
  return near ? `${formatted} (${near})` : formatted;
}

function readCache(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeCache(key: string, address: string): void {
  try {
    const index: string[] = JSON.parse(localStorage.getItem(INDEX_KEY) ?? '[]');
    index.push(key);
    while (index.length > ADDRESS_CACHE_LIMIT) localStorage.removeItem(index.shift() as string);
    localStorage.setItem(key, address);
    localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  } catch {
    // Storage full or disabled: the address is simply looked up again next time.
  }
}

const inFlight = new Map<string, Promise<string | null>>();

/** The address of a WGS-84 point in a language; null when no geocoder answers. */
export function reverseGeocode(point: LatLon, language: string): Promise<string | null> {
  const key = addressCacheKey(point, language);
  const cached = readCache(key);
  if (cached) return Promise.resolve(cached);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = callEnvelope<unknown>('/map/getKeyAddress', {
      param: {
        location: `${point.lat.toFixed(6)},${point.lon.toFixed(6)}`,
        coordtype: 'wgs84ll',
        language,
        output: 'json',
      },
    })
      .then((env) => {
        const address = env.meta.success ? addressFromAnswer(env.data) : null;
        if (address) writeCache(key, address);
        return address;
      })
      .catch(() => null)
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}
