// The self-hosted PMTiles archive (map type 'pmtiles'): one file on the Carhere server read in byte ranges
// by `pmtiles`. Vector archives (Mapbox Vector Tiles in the Protomaps basemap layers: earth, water, roads,
// places …) are drawn on canvas by `protomaps-leaflet` in its light style with labels in the user's
// language; raster archives (PNG, JPEG, WebP, AVIF) by pmtiles' own Leaflet layer. Both libraries are loaded
// only when this map type is chosen.
import type L from 'leaflet';
import type { MapProvider } from './providers.ts';

/** Label language of the Protomaps basemap (its `name:xx` keys) for our interface language. */
function labelLanguage(lang: string): string {
  if (lang === 'cn') return 'zh-Hans';
  if (lang === 'en-IN') return 'en';
  return lang;
}

/** The archive's layer, once its header is read; rejects when the archive cannot be read. */
export async function pmtilesLayer(provider: MapProvider, lang: string): Promise<L.Layer> {
  const { PMTiles, TileType, leafletRasterLayer } = await import('pmtiles');
  const archive = new PMTiles(new URL(provider.url, window.location.href).href);
  const header = await archive.getHeader();
  const common = {
    attribution: provider.attribution,
    minZoom: provider.minZoom,
    maxZoom: provider.maxZoom,
  };
  let layer: L.Layer;
  if (header.tileType === TileType.Mvt) {
    const { leafletLayer } = await import('protomaps-leaflet');
    layer = leafletLayer({
      url: archive,
      flavor: 'light',
      lang: labelLanguage(lang),
      // Beyond the archive's deepest zoom its tiles are drawn larger (overzoom), not left blank.
      maxDataZoom: header.maxZoom,
      ...common,
    }) as unknown as L.Layer;
  } else {
    layer = leafletRasterLayer(archive, { ...common, maxNativeZoom: header.maxZoom }) as L.Layer;
  }
  return layer;
}
