// The chosen map type, kept in local storage under 'useMapType' (spec §3, §9) and shared by every map,
// within what the administrator offers (/api/map/findProviders: the visible types and the default for
// users who have not chosen). Until the settings arrive, the spec's default (Baidu) applies.
import { useSyncExternalStore } from 'react';
import { callEnvelope } from '../api/client.ts';
import {
  CONFIGURED_TYPES,
  DEFAULT_MAP_TYPE,
  isMapType,
  MAP_TYPES,
  type MapType,
  resolveMapType,
  setCustomTiles,
  setPmtiles,
} from './providers.ts';

const KEY = 'useMapType';
const listeners = new Set<() => void>();

export interface OfferedProviders {
  visible: readonly MapType[];
  defaultType: MapType;
}

function readStored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

let offered: OfferedProviders = {
  visible: MAP_TYPES.filter((t) => !CONFIGURED_TYPES.includes(t)),
  defaultType: DEFAULT_MAP_TYPE,
};
let stored: string | null = readStored();
/** The default map of the brand the page was opened under (issue 16), if any. */
let brandDefault: MapType | null = null;

/** The user's stored choice when it is offered, else the brand's default, else the administrator's. */
function effective(): MapType {
  if (stored !== null) {
    const chosen = resolveMapType(stored);
    if (offered.visible.includes(chosen)) return chosen;
  }
  if (brandDefault !== null && offered.visible.includes(brandDefault)) return brandDefault;
  return offered.defaultType;
}

let current: MapType = effective();
let offeredSnapshot = offered;

function changed(): void {
  current = effective();
  offeredSnapshot = offered;
  for (const l of listeners) l();
}

export const mapTypeStore = {
  get: (): MapType => current,
  offered: (): OfferedProviders => offeredSnapshot,
  set(type: MapType): void {
    stored = resolveMapType(type);
    try {
      localStorage.setItem(KEY, stored);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    changed();
  },
  /** The brand's default map, for users who have not chosen one ('' or an unknown type: none). */
  setBrandDefault(type: string): void {
    brandDefault = isMapType(type) ? type : null;
    changed();
  },
  /** What the administrator offers (from /api/map/findProviders). */
  offer(next: OfferedProviders): void {
    const visible = next.visible.filter(isMapType);
    if (visible.length === 0) return;
    offered = { visible, defaultType: visible.includes(next.defaultType) ? next.defaultType : visible[0] };
    changed();
  },
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

let loading: Promise<void> | undefined;

/** Fetches the administrator's provider settings once per page (again after `reloadOfferedProviders`). */
export function loadOfferedProviders(): Promise<void> {
  if (!loading) {
    loading = callEnvelope<{
      visible: string[];
      defaultType: string;
      custom: { url: string; attribution: string; maxZoom: number } | null;
      pmtiles?: { url: string; attribution: string } | null;
    }>('/map/findProviders', {})
      .then((env) => {
        if (!env.meta.success) return;
        setCustomTiles(env.data.custom);
        setPmtiles(env.data.pmtiles ?? null);
        mapTypeStore.offer({
          visible: env.data.visible.filter(isMapType),
          defaultType: resolveMapType(env.data.defaultType),
        });
      })
      .catch(() => {
        loading = undefined; // signed out or offline: the spec's defaults stay; try again next time
      });
  }
  return loading;
}

export function reloadOfferedProviders(): Promise<void> {
  loading = undefined;
  return loadOfferedProviders();
}

export function useMapType(): MapType {
  return useSyncExternalStore(mapTypeStore.subscribe, mapTypeStore.get, mapTypeStore.get);
}

export function useOfferedProviders(): OfferedProviders {
  return useSyncExternalStore(mapTypeStore.subscribe, mapTypeStore.offered, mapTypeStore.offered);
}
