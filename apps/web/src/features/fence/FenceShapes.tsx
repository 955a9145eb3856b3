// The fences on the map (WGS-84 layers), the selected one highlighted, and fitting the map to a fence.
import { useEffect } from 'react';
import { MapCircle } from '../../map/layers/MapCircle.tsx';
import { MapPolygon } from '../../map/layers/MapPolygon.tsx';
import { MapRectangle } from '../../map/layers/MapRectangle.tsx';
import { useLeafletMap } from '../../map/mapContext.ts';
import type { FenceGeometry } from './api.ts';
import { boundsOf } from './drawing.ts';

export interface ShapeItem {
  key: string;
  name: string;
  geometry: FenceGeometry;
  closed?: boolean;
}

export function FenceShape({ item, selected }: { item: ShapeItem; selected: boolean }) {
  const color = selected ? '#1677ff' : item.closed ? '#8c8c8c' : '#fa8c16';
  const g = item.geometry;
  if (g.shape === 'circle') {
    return (
      <MapCircle
        center={[g.lat, g.lon]}
        radius={g.radius}
        color={color}
        fillOpacity={selected ? 0.2 : 0.1}
        tooltip={item.name}
      />
    );
  }
  if (g.shape === 'polygon') {
    return <MapPolygon points={g.points} color={color} fillOpacity={selected ? 0.2 : 0.1} tooltip={item.name} />;
  }
  return (
    <MapRectangle
      bounds={[
        [g.minLat, g.minLon],
        [g.maxLat, g.maxLon],
      ]}
      color={color}
      fillOpacity={selected ? 0.2 : 0.1}
      tooltip={item.name}
    />
  );
}

/** Moves the map onto a geometry whenever `fitKey` changes. */
export function FitTo({ geometry, fitKey }: { geometry: FenceGeometry | null; fitKey: string | null }) {
  const map = useLeafletMap();
  // biome-ignore lint/correctness/useExhaustiveDependencies: fit once per key, not on every geometry edit
  useEffect(() => {
    if (!map || !geometry || !fitKey) return;
    map.fitBounds(boundsOf(geometry), { padding: [40, 40], maxZoom: 16 });
  }, [map, fitKey]);
  return null;
}
