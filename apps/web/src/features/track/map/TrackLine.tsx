// One track drawn from its decimated fixes for the current zoom, with start and end pins (stop pins: StopPins).
import L from 'leaflet';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { text } from '../../../map/html/leafletHtml.ts';
import { markerIcon } from '../../../map/layers/carIcon.ts';
import { useLeafletMap } from '../../../map/mapContext.ts';
import type { TrackView } from '../trackView.ts';
import { trackLatLngs } from './trackLatLngs.ts';

export function TrackLine({ view }: { view: TrackView }) {
  const map = useLeafletMap();
  const { t } = useTranslation('track');

  useEffect(() => {
    if (!map || view.data.length === 0) return;
    const { data } = view;
    const group = L.layerGroup().addTo(map);
    const line = L.polyline([], { color: view.color, weight: 4, opacity: 0.75, interactive: false }).addTo(group);
    const draw = () => line.setLatLngs(trackLatLngs(map, data, view.simplifier.indexesAt(map.getZoom())));
    draw();
    map.on('zoomend moveend', draw);
    const last = data.length - 1;
    L.marker([data.lats[0], data.lons[0]], { icon: markerIcon('#16a34a', t('pin.start')), zIndexOffset: 500 })
      .bindTooltip(text(t('pin.startTooltip')))
      .addTo(group);
    L.marker([data.lats[last], data.lons[last]], { icon: markerIcon('#dc2626', t('pin.end')), zIndexOffset: 500 })
      .bindTooltip(text(t('pin.endTooltip')))
      .addTo(group);
    return () => {
      map.off('zoomend moveend', draw);
      group.remove();
    };
  }, [map, view, t]);

  return null;
}
