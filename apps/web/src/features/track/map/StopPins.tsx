// A track's stop pins, grouped per screen cell at the current zoom (data/stopClusters.ts): a 90-day track's
// thousands of stops become at most a few hundred markers, and only those in and around the view are on the
// map. Pins are regrouped on zoom; a pan only adds and removes markers at the edges. A single stop's pin seeks
// playback to it; a group's pin zooms into its stops.
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { divIcon } from '../../../map/html/leafletGuard.ts';
import { html, text } from '../../../map/html/leafletHtml.ts';
import { markerIcon } from '../../../map/layers/carIcon.ts';
import { useLeafletMap } from '../../../map/mapContext.ts';
import { clusterStops, pinsWithin, type StopPin } from '../data/stopClusters.ts';
import type { StopPoint } from '../data/stops.ts';
import { formatDuration } from '../panel/formatDuration.ts';
import type { TrackView } from '../trackView.ts';

const GROUP_ICON_PX = 30;

function groupIcon(color: string, count: number): L.DivIcon {
  const text = count > 999 ? '999+' : String(count);
  return divIcon({
    className: 'carhere-stop-group',
    html: html`<div data-testid="stop-group" style="width:${GROUP_ICON_PX}px;height:${GROUP_ICON_PX}px;border-radius:50%;background:${color};color:#fff;border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.35);display:grid;place-items:center;font:600 11px/1 sans-serif">${text}</div>`,
    iconSize: [GROUP_ICON_PX, GROUP_ICON_PX],
    iconAnchor: [GROUP_ICON_PX / 2, GROUP_ICON_PX / 2],
  });
}

export function StopPins({ view, onStop }: { view: TrackView; onStop?: (stop: StopPoint) => void }) {
  const map = useLeafletMap();
  const { t } = useTranslation('track');
  const onStopRef = useRef(onStop);
  onStopRef.current = onStop;

  useEffect(() => {
    if (!map || view.stops.length === 0) return;
    const { stops } = view;
    const group = L.layerGroup().addTo(map);
    const markers = new Map<string, L.Marker>();
    let pins: StopPin[] = [];
    let zoom = Number.NaN;

    const marker = (pin: StopPin): L.Marker => {
      if (pin.stops.length === 1) {
        const stop = stops[pin.stops[0]];
        return L.marker([pin.lat, pin.lon], { icon: markerIcon('#2563eb', t('pin.stop')), zIndexOffset: 400 })
          .bindTooltip(text(t('stops.tooltip', { duration: formatDuration(stop.durationMs, t) })))
          .on('click', () => onStopRef.current?.(stop));
      }
      return L.marker([pin.lat, pin.lon], { icon: groupIcon('#2563eb', pin.stops.length), zIndexOffset: 400 })
        .bindTooltip(text(t('stops.group', { count: pin.stops.length, duration: formatDuration(pin.totalMs, t) })))
        .on('click', () => {
          const b = pin.bounds;
          map.fitBounds(
            [
              [b.south, b.west],
              [b.north, b.east],
            ],
            { padding: [40, 40], maxZoom: Math.max(map.getZoom() + 2, 16) },
          );
        });
    };

    const sync = () => {
      const z = map.getZoom();
      if (z !== zoom) {
        zoom = z;
        pins = clusterStops(stops, (lat, lon) => map.project([lat, lon], z));
        group.clearLayers();
        markers.clear();
      }
      const b = map.getBounds().pad(0.25);
      const visible = pinsWithin(pins, {
        south: b.getSouth(),
        west: b.getWest(),
        north: b.getNorth(),
        east: b.getEast(),
      });
      const wanted = new Set<string>();
      for (const pin of visible) {
        wanted.add(pin.key);
        if (markers.has(pin.key)) continue;
        const m = marker(pin);
        markers.set(pin.key, m);
        group.addLayer(m);
      }
      for (const [key, m] of markers) {
        if (wanted.has(key)) continue;
        group.removeLayer(m);
        markers.delete(key);
      }
    };
    sync();
    map.on('zoomend moveend', sync);
    return () => {
      map.off('zoomend moveend', sync);
      group.remove();
    };
  }, [map, view, t]);

  return null;
}
