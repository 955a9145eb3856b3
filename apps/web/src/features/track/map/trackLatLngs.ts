// The lat/lngs Leaflet draws for a run of a track's drawing indexes: all of them for a short list, else only
// the runs in and around the view (a 90-day track at street zoom keeps hundreds of thousands of fixes).
import L from 'leaflet';
import { visibleRuns } from '../data/clip.ts';
import type { TrackData } from '../data/trackData.ts';

/** Tracks with more drawn points than this are clipped to the view. */
export const CLIP_ABOVE_POINTS = 20_000;

export function trackLatLngs(map: L.Map, data: TrackData, idx: Uint32Array): L.LatLng[] | L.LatLng[][] {
  if (idx.length <= CLIP_ABOVE_POINTS) {
    const latlngs = new Array<L.LatLng>(idx.length);
    for (let k = 0; k < idx.length; k++) latlngs[k] = L.latLng(data.lats[idx[k]], data.lons[idx[k]]);
    return latlngs;
  }
  const b = map.getBounds().pad(0.5);
  const runs = visibleRuns(idx, data.lats, data.lons, {
    south: b.getSouth(),
    west: b.getWest(),
    north: b.getNorth(),
    east: b.getEast(),
  });
  return runs.map((run) => run.map((k) => L.latLng(data.lats[idx[k]], data.lons[idx[k]])));
}
