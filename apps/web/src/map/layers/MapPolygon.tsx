// A polygon (fence, checked area) by its vertices in WGS-84.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import '../html/leafletGuard.ts';
import { text } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';

export interface MapPolygonProps {
  points: [number, number][];
  color?: string;
  fillOpacity?: number;
  /** Plain text (a fence name): shown as text, never parsed as HTML. */
  tooltip?: string;
}

export function MapPolygon({ points, color = '#fa8c16', fillOpacity = 0.15, tooltip }: MapPolygonProps) {
  const map = useLeafletMap();
  const polygon = useRef<L.Polygon | null>(null);
  const initial = useRef(points);
  initial.current = points;

  useEffect(() => {
    if (!map) return;
    const p = L.polygon(initial.current, { color, weight: 2, fillOpacity });
    if (tooltip) p.bindTooltip(text(tooltip));
    p.addTo(map);
    polygon.current = p;
    return () => {
      p.remove();
      polygon.current = null;
    };
  }, [map, color, fillOpacity, tooltip]);

  useEffect(() => {
    polygon.current?.setLatLngs(points);
  }, [points]);

  return null;
}
