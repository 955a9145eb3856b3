// Two clicks on the map draw a fence: circle = centre, then a point on the edge; rectangle = two opposite
// corners. The shape follows the mouse in between; Escape cancels. Lat/lng are WGS-84 (src/map/crs.ts).
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useLeafletMap } from '../../map/mapContext.ts';
import { ShapeDrawLayer } from '../customerMap/ShapeDrawLayer.tsx';
import type { FenceGeometry } from './api.ts';
import { circleFrom, rectangleFrom } from './drawing.ts';

export interface FenceDrawLayerProps {
  shape: 'circle' | 'rectangle' | 'polygon' | null;
  onDrawn: (geometry: FenceGeometry) => void;
  onCancel: () => void;
}

const STYLE = { color: '#1677ff', weight: 2, dashArray: '6 4', fillOpacity: 0.12 };

export function FenceDrawLayer(props: FenceDrawLayerProps) {
  // Polygons: a click per corner (customerMap/ShapeDrawLayer), the same on every map provider.
  if (props.shape === 'polygon') {
    return (
      <ShapeDrawLayer
        mode="polygon"
        onCancel={props.onCancel}
        onDrawn={(d) => d.mode === 'polygon' && props.onDrawn({ shape: 'polygon', points: d.points })}
      />
    );
  }
  return <TwoClickDrawLayer {...props} shape={props.shape} />;
}

function TwoClickDrawLayer({
  shape,
  onDrawn,
  onCancel,
}: FenceDrawLayerProps & { shape: 'circle' | 'rectangle' | null }) {
  const map = useLeafletMap();
  const done = useRef(onDrawn);
  done.current = onDrawn;
  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    if (!map || !shape) return;
    const container = map.getContainer();
    container.style.cursor = 'crosshair';
    map.doubleClickZoom.disable();
    let start: L.LatLng | null = null;
    let preview: L.Circle | L.Rectangle | null = null;

    const geometryTo = (end: L.LatLng): FenceGeometry | null => {
      if (!start) return null;
      const a = { lat: start.lat, lon: start.lng };
      const b = { lat: end.lat, lon: end.lng };
      return shape === 'circle' ? circleFrom(a, b) : rectangleFrom(a, b);
    };
    const draw = (g: FenceGeometry | null) => {
      preview?.remove();
      preview = null;
      if (!g || g.shape === 'polygon') return;
      preview =
        g.shape === 'circle'
          ? L.circle([g.lat, g.lon], { ...STYLE, radius: g.radius })
          : L.rectangle(
              [
                [g.minLat, g.minLon],
                [g.maxLat, g.maxLon],
              ],
              STYLE,
            );
      preview.addTo(map);
    };
    const onClick = (e: L.LeafletMouseEvent) => {
      if (!start) {
        start = e.latlng;
        return;
      }
      const g = geometryTo(e.latlng);
      if (!g) return;
      draw(null);
      start = null;
      done.current(g);
    };
    const onMove = (e: L.LeafletMouseEvent) => {
      if (start) draw(geometryTo(e.latlng));
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        draw(null);
        start = null;
        cancel.current();
      }
    };
    map.on('click', onClick);
    map.on('mousemove', onMove);
    document.addEventListener('keydown', onKey);
    return () => {
      map.off('click', onClick);
      map.off('mousemove', onMove);
      document.removeEventListener('keydown', onKey);
      preview?.remove();
      container.style.cursor = '';
      map.doubleClickZoom.enable();
    };
  }, [map, shape]);

  return null;
}
