// A Leaflet popup whose content is React: rendered through a portal into the popup's element.
import L from 'leaflet';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import '../html/leafletGuard.ts';
import { element } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';

export interface MapPopupProps {
  /** WGS-84 [lat, lon] */
  position: [number, number];
  onClose?: () => void;
  /** Pixel offset above the anchor (e.g. half a car icon). */
  offsetY?: number;
  minWidth?: number;
  children: ReactNode;
}

export function MapPopup({ position, onClose, offsetY = 20, minWidth = 260, children }: MapPopupProps) {
  const map = useLeafletMap();
  const container = useMemo(() => document.createElement('div'), []);
  const popup = useRef<L.Popup | null>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const initial = useRef(position);
  initial.current = position;

  useEffect(() => {
    if (!map) return;
    const p = L.popup({ autoPan: true, closeOnClick: false, minWidth, maxWidth: 360, offset: [0, -offsetY] })
      .setLatLng(initial.current)
      .setContent(element(container));
    p.openOn(map);
    const onRemove = () => close.current?.();
    p.on('remove', onRemove);
    popup.current = p;
    return () => {
      p.off('remove', onRemove);
      p.remove();
      popup.current = null;
    };
  }, [map, container, offsetY, minWidth]);

  useEffect(() => {
    popup.current?.setLatLng(position);
  }, [position[0], position[1]]);

  return createPortal(children, container);
}
