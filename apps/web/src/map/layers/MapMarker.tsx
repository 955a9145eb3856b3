// One marker as a component (track start/end, stop points, alarms). Large fleets use DeviceMarkerLayer.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import '../html/leafletGuard.ts';
import { text } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';

export interface MapMarkerProps {
  /** WGS-84 [lat, lon] */
  position: [number, number];
  icon?: L.Icon | L.DivIcon;
  title?: string;
  zIndexOffset?: number;
  /** Plain text shown on hover (a device name): shown as text, never parsed as HTML. */
  tooltip?: string;
  onClick?: () => void;
}

export function MapMarker({ position, icon, title, zIndexOffset, tooltip, onClick }: MapMarkerProps) {
  const map = useLeafletMap();
  const marker = useRef<L.Marker | null>(null);
  const click = useRef(onClick);
  click.current = onClick;
  const initial = useRef(position);
  initial.current = position;

  useEffect(() => {
    if (!map) return;
    const m = L.marker(initial.current, { icon: icon ?? new L.Icon.Default(), title, zIndexOffset, keyboard: false });
    m.on('click', () => click.current?.());
    if (tooltip) m.bindTooltip(text(tooltip));
    m.addTo(map);
    marker.current = m;
    return () => {
      m.remove();
      marker.current = null;
    };
  }, [map, icon, title, zIndexOffset, tooltip]);

  useEffect(() => {
    marker.current?.setLatLng(position);
  }, [position[0], position[1]]);

  return null;
}
