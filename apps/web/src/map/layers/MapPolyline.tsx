// A polyline in WGS-84 (tracks, measured distances). Long tracks should be decimated by the caller.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useLeafletMap } from '../mapContext.ts';

export interface MapPolylineProps {
  positions: L.LatLngExpression[];
  color?: string;
  weight?: number;
  opacity?: number;
  dashArray?: string;
  /** Fit the map to the line when it first appears. */
  fit?: boolean;
}

export function MapPolyline({
  positions,
  color = '#1677ff',
  weight = 4,
  opacity = 0.85,
  dashArray,
  fit,
}: MapPolylineProps) {
  const map = useLeafletMap();
  const line = useRef<L.Polyline | null>(null);

  useEffect(() => {
    if (!map) return;
    const l = L.polyline([], { color, weight, opacity, dashArray, interactive: false }).addTo(map);
    line.current = l;
    return () => {
      l.remove();
      line.current = null;
    };
  }, [map, color, weight, opacity, dashArray]);

  useEffect(() => {
    const l = line.current;
    if (!l || !map) return;
    l.setLatLngs(positions);
    if (fit && positions.length > 1) map.fitBounds(l.getBounds(), { padding: [40, 40], maxZoom: 17 });
  }, [map, positions, fit]);

  return null;
}
