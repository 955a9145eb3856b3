// The stays of one device on the map: a pin per stay (the chosen one red and in front), fitted to all stays,
// flying to the chosen one. Pins carry no names: what a stay is shows as text beside the map, never as HTML.
import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { BaseMap, useLeafletMap } from '../../map/BaseMap.tsx';
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { pinIcon } from '../fence/pinIcon.ts';
import type { Stay } from './api.ts';

const PIN = pinIcon('#1677ff');
const CHOSEN = pinIcon('#ff4d4f');

function Fit({ stays, chosen }: { stays: Stay[]; chosen: number | null }) {
  const map = useLeafletMap();
  useEffect(() => {
    if (!map || stays.length === 0) return;
    const bounds = L.latLngBounds(stays.map((s) => [s.lat, s.lon] as [number, number]));
    map.fitBounds(bounds.pad(0.2), { maxZoom: 16 });
  }, [map, stays]);
  useEffect(() => {
    if (!map || chosen === null) return;
    const s = stays[chosen];
    if (s) map.setView([s.lat, s.lon], Math.max(map.getZoom(), 16));
  }, [map, stays, chosen]);
  return null;
}

export function StayMap({
  stays,
  chosen,
  onChoose,
}: {
  stays: Stay[];
  chosen: number | null;
  onChoose: (index: number) => void;
}) {
  const located = useMemo(() => stays.filter((s) => Number.isFinite(s.lat) && Number.isFinite(s.lon)), [stays]);
  return (
    <BaseMap showTypeSelector={false} center={located[0] ? [located[0].lat, located[0].lon] : undefined}>
      {located.map((s, i) => (
        <MapMarker
          key={`${s.startTime}/${i === chosen ? 'chosen' : 'pin'}`}
          position={[s.lat, s.lon]}
          icon={i === chosen ? CHOSEN : PIN}
          zIndexOffset={i === chosen ? 1000 : 0}
          onClick={() => onChoose(i)}
        />
      ))}
      <Fit stays={located} chosen={chosen} />
    </BaseMap>
  );
}
