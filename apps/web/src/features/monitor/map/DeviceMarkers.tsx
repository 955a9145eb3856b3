// The fleet on the map: one clustered marker layer fed by the session's live batches. Car states depend on
// the clock (a car whose last fix is a minute old has stopped), so every marker is re-checked periodically.
import type L from 'leaflet';
import { useEffect, useRef } from 'react';
import { DeviceMarkerLayer } from '../../../map/layers/deviceMarkerLayer.ts';
import { useLeafletMap } from '../../../map/mapContext.ts';
import type { MonitorSession } from '../monitorSession.ts';
import { markerData, markerDatum } from './markerData.ts';

/** How often every marker's state is re-evaluated against the clock (ms). */
const RESTYLE_MS = 15_000;

export interface DeviceMarkersProps {
  session: MonitorSession;
  loading: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onContextMenu: (id: string, event: L.LeafletMouseEvent) => void;
  /** Receives the layer so the page can reveal a device's marker. */
  onLayer?: (layer: DeviceMarkerLayer | null) => void;
}

export function DeviceMarkers({ session, loading, selectedId, onSelect, onContextMenu, onLayer }: DeviceMarkersProps) {
  const map = useLeafletMap();
  const layerRef = useRef<DeviceMarkerLayer | null>(null);
  const handlers = useRef({ onSelect, onContextMenu });
  handlers.current = { onSelect, onContextMenu };
  const selected = useRef<string | null>(null);
  const layerCallback = useRef(onLayer);
  layerCallback.current = onLayer;

  useEffect(() => {
    if (!map || loading) return;
    const layer = new DeviceMarkerLayer(map, {
      onClick: (id) => handlers.current.onSelect(id),
      onContextMenu: (id, e) => handlers.current.onContextMenu(id, e),
    });
    layerRef.current = layer;
    layer.select(selected.current, []);
    layer.setAll(markerData(session.store.all(), Date.now()));
    layerCallback.current?.(layer);
    const offChanged = session.changed.on((devices) => layer.update(markerData(devices, Date.now())));
    const timer = setInterval(() => layer.setAll(markerData(session.store.all(), Date.now())), RESTYLE_MS);
    return () => {
      offChanged();
      clearInterval(timer);
      layer.destroy();
      layerRef.current = null;
      layerCallback.current?.(null);
    };
  }, [map, loading, session]);

  useEffect(() => {
    const layer = layerRef.current;
    const previous = selected.current;
    selected.current = selectedId;
    if (!layer) return;
    const now = Date.now();
    const affected = [previous, selectedId]
      .map((id) => (id ? session.store.get(id) : undefined))
      .map((d) => (d ? markerDatum(d, now) : null))
      .filter((d) => d !== null);
    layer.select(selectedId, affected);
  }, [selectedId, session]);

  return null;
}
