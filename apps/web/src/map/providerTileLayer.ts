// A Leaflet tile layer that asks the provider description for each tile's URL (Baidu's flipped rows and
// 'M' negatives, Bing's quadkeys, the configured key).
import L from 'leaflet';
import { type MapProvider, tileUrl } from './providers.ts';

export interface ProviderTileLayerOptions extends L.TileLayerOptions {
  provider: MapProvider;
  lang: string;
  apiKey?: string | null;
}

export class ProviderTileLayer extends L.TileLayer {
  private readonly provider: MapProvider;
  private readonly lang: string;
  private readonly apiKey: string | null;

  constructor(options: ProviderTileLayerOptions) {
    const { provider, lang, apiKey, ...tileOptions } = options;
    super('', {
      minZoom: provider.minZoom,
      maxZoom: provider.maxZoom,
      attribution: provider.attribution,
      // No wrapping: the Chinese schemes have no world copies and Baidu's grid has no fixed bounds.
      noWrap: provider.scheme === 'baidu',
      ...tileOptions,
    });
    this.provider = provider;
    this.lang = lang;
    this.apiKey = apiKey ?? null;
  }

  override getTileUrl(coords: L.Coords): string {
    return tileUrl(this.provider, coords, { lang: this.lang, key: this.apiKey });
  }
}
