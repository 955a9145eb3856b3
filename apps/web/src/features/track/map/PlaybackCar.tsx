// The car moving along the active track during playback, and the part already played drawn over the line.
import { movementState } from '@carhere/domain';
import L from 'leaflet';
import { useEffect } from 'react';
import { carIcon } from '../../../map/layers/carIcon.ts';
import { headingStep } from '../../../map/layers/carIconHtml.ts';
import { useLeafletMap } from '../../../map/mapContext.ts';
import { keptBefore } from '../data/decimate.ts';
import type { PlaybackClock } from '../data/playbackClock.ts';
import { positionAt } from '../data/trackData.ts';
import type { TrackView } from '../trackView.ts';
import { trackLatLngs } from './trackLatLngs.ts';

/** The played line is redrawn at most this often (ms); the car moves every frame. */
const PLAYED_REDRAW_MS = 100;

export function PlaybackCar({ view, clock, follow }: { view: TrackView; clock: PlaybackClock; follow: boolean }) {
  const map = useLeafletMap();

  useEffect(() => {
    if (!map || view.data.length === 0) return;
    const { data } = view;
    const played = L.polyline([], { color: '#52c41a', weight: 5, opacity: 0.9, interactive: false }).addTo(map);
    const car = L.marker([data.lats[0], data.lons[0]], {
      zIndexOffset: 1000,
      keyboard: false,
      interactive: false,
    }).addTo(map);
    car.getElement()?.setAttribute('data-testid', 'playback-car');
    let iconKey = '';
    let lastDraw = 0;
    const update = (force: boolean) => {
      const { cursor, playing } = clock.get();
      const p = positionAt(data, cursor);
      if (!p) return;
      car.setLatLng([p.lat, p.lon]);
      const state = movementState(p.speed, 0);
      const key = `${state}|${headingStep(p.course)}`;
      if (key !== iconKey) {
        iconKey = key;
        car.setIcon(carIcon({ state, course: p.course }));
        car.getElement()?.setAttribute('data-testid', 'playback-car');
      }
      const now = performance.now();
      if (force || !playing || now - lastDraw >= PLAYED_REDRAW_MS) {
        lastDraw = now;
        const idx = view.simplifier.indexesAt(map.getZoom());
        const upto = keptBefore(idx, Math.floor(cursor));
        const latlngs = trackLatLngs(map, data, idx.subarray(0, upto + 1));
        const car = L.latLng(p.lat, p.lon);
        // The played line ends at the car (the last run of a clipped track).
        if (latlngs.length > 0 && Array.isArray(latlngs[0])) (latlngs[latlngs.length - 1] as L.LatLng[]).push(car);
        else (latlngs as L.LatLng[]).push(car);
        played.setLatLngs(latlngs);
      }
      if (follow && playing && !map.getBounds().pad(-0.2).contains([p.lat, p.lon])) map.panTo([p.lat, p.lon]);
    };
    update(true);
    const off = clock.subscribe(() => update(false));
    const onZoom = () => update(true);
    map.on('zoomend moveend', onZoom);
    return () => {
      off();
      map.off('zoomend moveend', onZoom);
      played.remove();
      car.remove();
    };
  }, [map, view, clock, follow]);

  return null;
}
