// Fits the map to the loaded tracks once when they arrive.
import L from 'leaflet';
import { useEffect } from 'react';
import { useLeafletMap } from '../../../map/mapContext.ts';
import type { TrackView } from '../trackView.ts';

export function FitTracks({ views }: { views: TrackView[] }) {
  const map = useLeafletMap();
  useEffect(() => {
    if (!map) return;
    const bounds = L.latLngBounds([]);
    for (const v of views) {
      const idx = v.simplifier.indexesAt(10);
      for (let k = 0; k < idx.length; k++) bounds.extend([v.data.lats[idx[k]], v.data.lons[idx[k]]]);
    }
    // Street level at most: a short track (a few hundred metres) fills the view instead of a dot in the middle.
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 18 });
  }, [map, views]);
  return null;
}
