// The Leaflet map and its provider, handed to layer components below a BaseMap.
import type L from 'leaflet';
import { createContext, useContext } from 'react';
import type { MapProvider } from './providers.ts';

export interface MapHandle {
  map: L.Map;
  provider: MapProvider;
}

export const MapContext = createContext<MapHandle | null>(null);

/** The map of the surrounding BaseMap (layers render only once it exists). */
export function useLeafletMap(): L.Map | null {
  return useContext(MapContext)?.map ?? null;
}

export function useMapProvider(): MapProvider | null {
  return useContext(MapContext)?.provider ?? null;
}
