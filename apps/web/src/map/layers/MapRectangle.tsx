// A rectangle (fence) from two WGS-84 corners.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import '../html/leafletGuard.ts';
import { text } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';

export interface MapRectangleProps {
  /** [[south, west], [north, east]] in WGS-84 */
  bounds: [[number, number], [number, number]];
  color?: string;
  fillOpacity?: number;
  /** Plain text (a fence name): shown as text, never parsed as HTML. */
  tooltip?: string;
}

export function MapRectangle({ bounds, color = '#fa8c16', fillOpacity = 0.15, tooltip }: MapRectangleProps) {
  const map = useLeafletMap();
  const rect = useRef<L.Rectangle | null>(null);
  const [[s, w], [n, e]] = bounds;
  const initial = useRef(bounds);
  initial.current = bounds;

  useEffect(() => {
    if (!map) return;
    const r = L.rectangle(initial.current, { color, weight: 2, fillOpacity });
    if (tooltip) r.bindTooltip(text(tooltip));
    r.addTo(map);
    rect.current = r;
    return () => {
      r.remove();
      rect.current = null;
    };
  }, [map, color, fillOpacity, tooltip]);

  useEffect(() => {
    rect.current?.setBounds([
      [s, w],
      [n, e],
    ]);
  }, [s, w, n, e]);

  return null;
}
