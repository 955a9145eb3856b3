// A circle (fence) with its centre in WGS-84 and radius in metres.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import '../html/leafletGuard.ts';
import { text } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';

export interface MapCircleProps {
  center: [number, number];
  radius: number;
  color?: string;
  fillOpacity?: number;
  /** Plain text (a fence name): shown as text, never parsed as HTML. */
  tooltip?: string;
}

export function MapCircle({ center, radius, color = '#fa8c16', fillOpacity = 0.15, tooltip }: MapCircleProps) {
  const map = useLeafletMap();
  const circle = useRef<L.Circle | null>(null);
  const geometry = useRef({ center, radius });
  geometry.current = { center, radius };

  useEffect(() => {
    if (!map) return;
    const c = L.circle(geometry.current.center, { radius: geometry.current.radius, color, weight: 2, fillOpacity });
    if (tooltip) c.bindTooltip(text(tooltip));
    c.addTo(map);
    circle.current = c;
    return () => {
      c.remove();
      circle.current = null;
    };
  }, [map, color, fillOpacity, tooltip]);

  useEffect(() => {
    circle.current?.setLatLng(center).setRadius(radius);
  }, [center[0], center[1], radius]);

  return null;
}
