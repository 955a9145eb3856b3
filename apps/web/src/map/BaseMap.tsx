// A Leaflet map owned by its component (no module-level singleton). Centred on longitude 116.404,
// latitude 39.915 by default (spec §1). When tiles cannot be loaded (offline), markers, tracks and
// fences still draw over a plain background and a small notice says so.
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const DEFAULT_CENTER: [number, number] = [39.915, 116.404];

const MapContext = createContext<L.Map | null>(null);
export const useLeafletMap = () => useContext(MapContext);

export interface BaseMapProps {
  center?: [number, number];
  zoom?: number;
  tileUrl?: string;
  children?: ReactNode;
}

export function BaseMap({
  center = DEFAULT_CENTER,
  zoom = 12,
  tileUrl = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  children,
}: BaseMapProps) {
  const { t } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the map is created once per tile source; the effect below follows the centre
  useEffect(() => {
    if (!el.current) return;
    const m = L.map(el.current, { center, zoom, zoomControl: true, attributionControl: true });
    const tiles = L.tileLayer(tileUrl, { maxZoom: 19, attribution: '&copy; map data providers' });
    let failures = 0;
    tiles.on('tileerror', () => {
      failures++;
      if (failures >= 2) setTilesFailed(true);
    });
    tiles.on('tileload', () => setTilesFailed(false));
    tiles.addTo(m);
    setMap(m);
    (window as unknown as { __carhereMap?: L.Map }).__carhereMap = m;
    return () => {
      m.remove();
      setMap(null);
    };
  }, [tileUrl]);

  useEffect(() => {
    map?.setView(center, map.getZoom());
  }, [map, center[0], center[1]]);

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%' }}>
      <div ref={el} data-testid="map" style={{ width: '100%', height: '100%', background: '#eef2f6' }} />
      {tilesFailed && (
        <div
          data-testid="tiles-offline"
          style={{
            position: 'absolute',
            left: 12,
            bottom: 12,
            zIndex: 1000,
            background: 'rgba(255,255,255,.9)',
            padding: '4px 8px',
            borderRadius: 4,
            fontSize: 12,
          }}
        >
          {t('home.tilesOffline')}
        </div>
      )}
      <MapContext.Provider value={map}>{map && children}</MapContext.Provider>
    </div>
  );
}
