// The chosen map type, kept in local storage under 'useMapType' (spec §3, §9) and shared by every map.
import { useSyncExternalStore } from 'react';
import { type MapType, resolveMapType } from './providers.ts';

const KEY = 'useMapType';
const listeners = new Set<() => void>();

function read(): MapType {
  try {
    return resolveMapType(localStorage.getItem(KEY));
  } catch {
    return resolveMapType(null);
  }
}

let current: MapType = read();

export const mapTypeStore = {
  get: (): MapType => current,
  set(type: MapType): void {
    current = resolveMapType(type);
    try {
      localStorage.setItem(KEY, current);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    for (const l of listeners) l();
  },
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

export function useMapType(): MapType {
  return useSyncExternalStore(mapTypeStore.subscribe, mapTypeStore.get, mapTypeStore.get);
}
