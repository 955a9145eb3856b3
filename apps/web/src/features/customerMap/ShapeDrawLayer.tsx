// Drawing on the map for the customer map screens and polygon fences. Lat/lng are WGS-84 whatever the provider
// (src/map/crs.ts), so the same drawing works on every map type.
// - point: one click.
// - rectangle: two opposite corners.
// - polygon: a click per vertex; a double-click, a click on the first vertex or Enter closes it (3 vertices at
//   least); a click closer than 5 px to the previous vertex is ignored; Escape cancels.
// - line: like polygon, left open (bus route polylines).
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useLeafletMap } from '../../map/mapContext.ts';

export type DrawMode = 'point' | 'rectangle' | 'polygon' | 'line';
export type Drawn =
  | { mode: 'point'; lat: number; lon: number }
  | { mode: 'rectangle'; minLat: number; minLon: number; maxLat: number; maxLon: number }
  | { mode: 'polygon' | 'line'; points: [number, number][] };

export interface ShapeDrawLayerProps {
  mode: DrawMode | null;
  onDrawn: (shape: Drawn) => void;
  onCancel?: () => void;
}

const STYLE = { color: '#1677ff', weight: 2, dashArray: '6 4', fillOpacity: 0.12 };
const MIN_PX = 5;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export function ShapeDrawLayer({ mode, onDrawn, onCancel }: ShapeDrawLayerProps) {
  const map = useLeafletMap();
  const done = useRef(onDrawn);
  done.current = onDrawn;
  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    if (!map || !mode) return;
    const container = map.getContainer();
    container.style.cursor = 'crosshair';
    map.doubleClickZoom.disable();
    let vertices: L.LatLng[] = [];
    const group = L.layerGroup().addTo(map);
    const minVertices = mode === 'line' ? 2 : 3;

    const redraw = (cursor?: L.LatLng) => {
      group.clearLayers();
      const pts = cursor ? [...vertices, cursor] : vertices;
      if (pts.length === 0) return;
      if (mode === 'rectangle') {
        if (pts.length >= 2) L.rectangle(L.latLngBounds(pts[0], pts[pts.length - 1]), STYLE).addTo(group);
        return;
      }
      if (mode === 'polygon' && pts.length >= 3) L.polygon(pts, STYLE).addTo(group);
      else L.polyline(pts, STYLE).addTo(group);
      for (const v of vertices)
        L.circleMarker(v, { radius: 4, color: '#1677ff', weight: 2, fillOpacity: 1 }).addTo(group);
    };
    const finish = () => {
      if (mode !== 'polygon' && mode !== 'line') return;
      if (vertices.length < minVertices) return;
      const points = vertices.map((v) => [round6(v.lat), round6(v.lng)] as [number, number]);
      vertices = [];
      redraw();
      done.current({ mode, points });
    };
    const onClick = (e: L.LeafletMouseEvent) => {
      if (mode === 'point') {
        done.current({ mode, lat: round6(e.latlng.lat), lon: round6(e.latlng.lng) });
        return;
      }
      if (mode === 'rectangle') {
        if (vertices.length === 0) {
          vertices = [e.latlng];
          return;
        }
        const a = vertices[0];
        const b = e.latlng;
        vertices = [];
        redraw();
        const minLat = round6(Math.min(a.lat, b.lat));
        const maxLat = round6(Math.max(a.lat, b.lat));
        const minLon = round6(Math.min(a.lng, b.lng));
        const maxLon = round6(Math.max(a.lng, b.lng));
        if (minLat === maxLat || minLon === maxLon) return;
        done.current({ mode, minLat, minLon, maxLat, maxLon });
        return;
      }
      const here = map.latLngToContainerPoint(e.latlng);
      const last = vertices[vertices.length - 1];
      if (last && map.latLngToContainerPoint(last).distanceTo(here) < MIN_PX) return;
      const first = vertices[0];
      if (
        mode === 'polygon' &&
        first &&
        vertices.length >= 3 &&
        map.latLngToContainerPoint(first).distanceTo(here) < MIN_PX * 2
      ) {
        finish();
        return;
      }
      vertices = [...vertices, e.latlng];
      redraw();
    };
    const onMove = (e: L.LeafletMouseEvent) => {
      if (vertices.length > 0) redraw(e.latlng);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        vertices = [];
        redraw();
        cancel.current?.();
      }
      if (e.key === 'Enter') finish();
    };
    map.on('click', onClick);
    map.on('dblclick', finish);
    map.on('mousemove', onMove);
    document.addEventListener('keydown', onKey);
    return () => {
      map.off('click', onClick);
      map.off('dblclick', finish);
      map.off('mousemove', onMove);
      document.removeEventListener('keydown', onKey);
      group.remove();
      container.style.cursor = '';
      map.doubleClickZoom.enable();
    };
  }, [map, mode]);

  return null;
}
