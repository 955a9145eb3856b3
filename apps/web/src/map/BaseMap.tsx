// A Leaflet map owned by its component (no module-level singleton), drawn with the chosen provider's tiles.
// Its lat/lng are WGS-84 whatever the provider: the provider's CRS shifts to GCJ-02 or BD-09 (crs.ts).
// Centred on longitude 116.404, latitude 39.915 by default (spec §1). Under every provider's tiles lies the
// offline base (offline/offlineBase.ts: land and borders shipped with the app), so when tiles cannot be
// loaded (offline, no key) the map still shows the world, markers, tracks and fences, and a quiet notice.
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import './html/leafletGuard.ts';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { crsFor } from './crs.ts';
import { MapNotice } from './MapNotice.tsx';
import { MapTypeSelector } from './MapTypeSelector.tsx';
import { MapContext, type MapHandle } from './mapContext.ts';
import { mapKey } from './mapKeys.ts';
import { loadOfferedProviders, useMapType } from './mapType.ts';
import { addOfflineBase, SEA_COLOUR } from './offline/offlineBase.ts';
import { pmtilesLayer } from './pmtilesLayer.ts';
import { effectiveProvider, MAP_PROVIDERS, type MapType } from './providers.ts';
import { ProviderTileLayer } from './providerTileLayer.ts';

export { useLeafletMap } from './mapContext.ts';

export const DEFAULT_CENTER: [number, number] = [39.915, 116.404];
export const DEFAULT_ZOOM = 12;

export interface BaseMapProps {
  center?: [number, number];
  zoom?: number;
  /** Forces a provider; by default the user's choice (local key 'useMapType'). */
  mapType?: MapType;
  /** Shows the provider selector in the top-right corner. */
  showTypeSelector?: boolean;
  /** Extra controls in the top-right corner, next to the selector. */
  controls?: ReactNode;
  children?: ReactNode;
}

/** How many failed tiles in a row, with none loaded, make us call the tiles unreachable. */
const OFFLINE_AFTER_FAILURES = 2;

export function BaseMap({
  center = DEFAULT_CENTER,
  zoom = DEFAULT_ZOOM,
  mapType,
  showTypeSelector = true,
  controls,
  children,
}: BaseMapProps) {
  const { t, i18n } = useTranslation('map');
  const el = useRef<HTMLDivElement>(null);
  const chosen = useMapType();
  const provider = effectiveProvider(MAP_PROVIDERS[mapType ?? chosen]);
  useEffect(() => {
    void loadOfferedProviders();
  }, []);
  const [handle, setHandle] = useState<MapHandle | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [keyMissing, setKeyMissing] = useState(false);
  const view = useRef<{ center: L.LatLngExpression; zoom: number }>({ center, zoom });

  // One Leaflet map per provider: a CRS cannot change on a live map, so switching providers rebuilds the
  // map at the same WGS-84 view and the layer components re-attach through the context.
  useEffect(() => {
    if (!el.current) return;
    const m = L.map(el.current, {
      crs: crsFor(provider.system, provider.scheme),
      center: view.current.center,
      zoom: view.current.zoom,
      minZoom: provider.minZoom,
      maxZoom: provider.maxZoom,
      zoomControl: true,
      attributionControl: true,
      preferCanvas: false,
    });
    m.attributionControl.setPrefix(false);
    const removeOfflineBase = addOfflineBase(m);
    // A map created in a box that was still being laid out (a card, a drawer, a phone's width) or that
    // changes size later redraws at its real size instead of staying blank or cut.
    const resized = new ResizeObserver(() => m.invalidateSize({ pan: false }));
    resized.observe(el.current);
    let failures = 0;
    let cancelled = false;
    let tiles: ProviderTileLayer | null = null;
    const addTiles = (apiKey: string | null) => {
      if (cancelled) return;
      if (provider.type === 'pmtiles') {
        // The archive on this server: an unreadable one leaves the offline base, with the notice.
        pmtilesLayer(provider, i18n.language).then(
          (layer) => {
            if (!cancelled) layer.addTo(m);
          },
          () => {
            if (!cancelled) setTilesFailed(true);
          },
        );
        return;
      }
      tiles = new ProviderTileLayer({ provider, lang: i18n.language, apiKey });
      tiles.on('tileerror', () => {
        failures++;
        if (failures >= OFFLINE_AFTER_FAILURES) setTilesFailed(true);
      });
      tiles.on('tileload', () => {
        failures = 0;
        setTilesFailed(false);
      });
      tiles.addTo(m);
    };
    // OpenStreetMap and the operator's own tiles take no key.
    void (provider.keyParam ? mapKey(provider.vendor) : Promise.resolve(null)).then((key) => {
      setKeyMissing(provider.keyRequired && !key);
      addTiles(key);
    });
    const remember = () => {
      view.current = { center: m.getCenter(), zoom: m.getZoom() };
    };
    m.on('moveend', remember);
    setTilesFailed(false);
    setHandle({ map: m, provider });
    (window as unknown as { __carhereMap?: L.Map }).__carhereMap = m;
    return () => {
      cancelled = true;
      resized.disconnect();
      remember();
      removeOfflineBase();
      m.remove();
      setHandle(null);
    };
  }, [provider, i18n.language]);

  // A new centre prop moves the map; rebuilding the map for another provider keeps the user's view.
  const [lat, lng] = center;
  const appliedCenter = useRef(`${lat},${lng}`);
  useEffect(() => {
    if (!handle || appliedCenter.current === `${lat},${lng}`) return;
    appliedCenter.current = `${lat},${lng}`;
    handle.map.setView([lat, lng], handle.map.getZoom());
  }, [handle, lat, lng]);

  const notices = useMemo(
    () =>
      [
        tilesFailed && (
          <MapNotice key="offline" testId="tiles-offline">
            {t('tilesOffline')}
          </MapNotice>
        ),
        keyMissing && (
          <MapNotice key="key" testId="map-key-missing">
            {t('keyMissing')}
          </MapNotice>
        ),
      ].filter(Boolean),
    [tilesFailed, keyMissing, t],
  );

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%' }}>
      <div ref={el} data-testid="map" data-map-type={provider.type} style={mapStyle} />
      {(showTypeSelector || controls) && (
        <div style={{ position: 'absolute', top: 10, right: 10, zIndex: 1000, display: 'flex', gap: 8 }}>
          {controls}
          {showTypeSelector && <MapTypeSelector />}
        </div>
      )}
      {notices.length > 0 && (
        <div style={{ position: 'absolute', left: 12, bottom: 24, zIndex: 1000, display: 'grid', gap: 4 }}>
          {notices}
        </div>
      )}
      <MapContext.Provider value={handle}>{handle && children}</MapContext.Provider>
    </div>
  );
}

const mapStyle = {
  width: '100%',
  height: '100%',
  // The sea of the offline base (the land is drawn over it); tiles cover both when they load.
  background: SEA_COLOUR,
} as const;
