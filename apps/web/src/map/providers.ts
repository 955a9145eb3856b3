// The map providers of spec §1. The selector offers Baidu (default), Baidu satellite, AMap, AMap satellite,
// Google and Google satellite, plus Yandex and Bing; a stored type that is none of these falls back to Baidu.
// Three more are ours: OpenStreetMap, 'custom', the operator's own XYZ tile server (TILE_URL on the
// server, handed out by /api/map/findProviders), and 'pmtiles', a PMTiles archive served by Carhere itself
// (PMTILES_FILE; drawn by pmtilesLayer.ts). The admin chooses which of them users are offered and the
// default (mapSettings.ts).
import type { CoordSystem } from './coords.ts';
import type { TileScheme } from './crs.ts';

export const MAP_TYPES = [
  'baidu',
  'baiduSatellite',
  'amap',
  'amapSatellite',
  'google',
  'googleSatellite',
  'yandex',
  'bing',
  'osm',
  'custom',
  'pmtiles',
] as const;
export type MapType = (typeof MAP_TYPES)[number];
export const DEFAULT_MAP_TYPE: MapType = 'baidu';

/** The vendor behind a map type: the key of /api/map/getKey and of the key settings screen. */
export type MapVendor = 'baidu' | 'amap' | 'google' | 'yandex' | 'bing' | 'osm' | 'custom' | 'pmtiles';

/** Map types offered only when the server has them configured (TILE_URL, PMTILES_FILE). */
export const CONFIGURED_TYPES: readonly MapType[] = ['custom', 'pmtiles'];

export interface MapProvider {
  type: MapType;
  vendor: MapVendor;
  /** i18n key in the `map` namespace. */
  labelKey: string;
  system: CoordSystem;
  scheme: TileScheme;
  /** Tile URL template: {s} subdomain, {x} {y} {z}, {q} Bing quadkey, {lang} provider language, {key}. */
  url: string;
  subdomains: string[];
  minZoom: number;
  maxZoom: number;
  /** Query parameter that carries the key from /api/map/getKey, when the provider takes one. */
  keyParam?: string;
  /** Tiles are refused without a key: 'map configuration not obtained' is shown when none is configured. */
  keyRequired: boolean;
  /** Whether the device popup offers street view. */
  streetView: boolean;
  attribution: string;
}

const BAIDU_SUBDOMAINS = ['0', '1', '2', '3'];

export const MAP_PROVIDERS: Readonly<Record<MapType, MapProvider>> = {
  baidu: {
    type: 'baidu',
    vendor: 'baidu',
    labelKey: 'provider.baidu',
    system: 'bd09',
    scheme: 'baidu',
    url: 'https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=pl&scaler=1&udt=20240101',
    subdomains: BAIDU_SUBDOMAINS,
    minZoom: 3,
    maxZoom: 19,
    keyParam: 'ak',
    keyRequired: false,
    streetView: false,
    attribution: '&copy; Baidu',
  },
  baiduSatellite: {
    type: 'baiduSatellite',
    vendor: 'baidu',
    labelKey: 'provider.baiduSatellite',
    system: 'bd09',
    scheme: 'baidu',
    url: 'https://maponline{s}.bdimg.com/starpic/?qt=satepic&u=x={x};y={y};z={z};v=009;type=sate&fm=46&udt=20240101',
    subdomains: BAIDU_SUBDOMAINS,
    minZoom: 3,
    maxZoom: 19,
    keyParam: 'ak',
    keyRequired: false,
    streetView: false,
    attribution: '&copy; Baidu',
  },
  amap: {
    type: 'amap',
    vendor: 'amap',
    labelKey: 'provider.amap',
    system: 'gcj02',
    scheme: 'webMercator',
    url: 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}',
    subdomains: ['1', '2', '3', '4'],
    minZoom: 3,
    maxZoom: 18,
    keyParam: 'key',
    keyRequired: false,
    streetView: false,
    attribution: '&copy; AutoNavi',
  },
  amapSatellite: {
    type: 'amapSatellite',
    vendor: 'amap',
    labelKey: 'provider.amapSatellite',
    system: 'gcj02',
    scheme: 'webMercator',
    url: 'https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}',
    subdomains: ['1', '2', '3', '4'],
    minZoom: 3,
    maxZoom: 18,
    keyParam: 'key',
    keyRequired: false,
    streetView: false,
    attribution: '&copy; AutoNavi',
  },
  google: {
    type: 'google',
    vendor: 'google',
    labelKey: 'provider.google',
    // Google's road map of China (gl=cn) is drawn in GCJ-02; outside China GCJ-02 equals WGS-84.
    system: 'gcj02',
    scheme: 'webMercator',
    url: 'https://mt{s}.google.com/vt/lyrs=m&hl={lang}&gl=cn&x={x}&y={y}&z={z}',
    subdomains: ['0', '1', '2', '3'],
    minZoom: 2,
    maxZoom: 20,
    keyParam: 'key',
    keyRequired: false,
    streetView: true,
    attribution: '&copy; Google',
  },
  googleSatellite: {
    type: 'googleSatellite',
    vendor: 'google',
    labelKey: 'provider.googleSatellite',
    // Google's imagery is not shifted, even in China.
    system: 'wgs84',
    scheme: 'webMercator',
    url: 'https://mt{s}.google.com/vt/lyrs=s&x={x}&y={y}&z={z}',
    subdomains: ['0', '1', '2', '3'],
    minZoom: 2,
    maxZoom: 20,
    keyParam: 'key',
    keyRequired: false,
    streetView: true,
    attribution: '&copy; Google',
  },
  yandex: {
    type: 'yandex',
    vendor: 'yandex',
    labelKey: 'provider.yandex',
    system: 'wgs84',
    scheme: 'ellipticalMercator',
    url: 'https://core-renderer-tiles.maps.yandex.net/tiles?l=map&x={x}&y={y}&z={z}&scale=1&lang={lang}',
    subdomains: [],
    minZoom: 2,
    maxZoom: 19,
    keyParam: 'apikey',
    keyRequired: false,
    streetView: false,
    attribution: '&copy; Yandex',
  },
  bing: {
    type: 'bing',
    vendor: 'bing',
    labelKey: 'provider.bing',
    system: 'gcj02',
    scheme: 'webMercator',
    url: 'https://ecn.t{s}.tiles.virtualearth.net/tiles/r{q}.jpeg?g=1&mkt={lang}&shading=hill',
    subdomains: ['0', '1', '2', '3'],
    minZoom: 2,
    maxZoom: 19,
    keyParam: 'key',
    keyRequired: true,
    streetView: false,
    attribution: '&copy; Microsoft',
  },
  osm: {
    type: 'osm',
    vendor: 'osm',
    labelKey: 'provider.osm',
    system: 'wgs84',
    scheme: 'webMercator',
    url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    subdomains: [],
    minZoom: 2,
    maxZoom: 19,
    keyRequired: false,
    streetView: false,
    attribution: '&copy; OpenStreetMap contributors',
  },
  custom: {
    type: 'custom',
    vendor: 'custom',
    labelKey: 'provider.custom',
    system: 'wgs84',
    scheme: 'webMercator',
    // Replaced by the server's TILE_URL (setCustomTiles); without one the type is not offered.
    url: '',
    subdomains: [],
    minZoom: 1,
    maxZoom: 19,
    keyRequired: false,
    streetView: false,
    attribution: '',
  },
  pmtiles: {
    type: 'pmtiles',
    vendor: 'pmtiles',
    labelKey: 'provider.pmtiles',
    system: 'wgs84',
    scheme: 'webMercator',
    // Replaced by the archive's URL on this server (setPmtiles); without one the type is not offered.
    url: '',
    subdomains: [],
    minZoom: 1,
    maxZoom: 19,
    keyRequired: false,
    streetView: false,
    attribution: '',
  },
};

export interface CustomTiles {
  url: string;
  attribution: string;
  maxZoom: number;
}

let customTiles: CustomTiles | null = null;

/** The operator's tile server as /api/map/findProviders gives it (null: none configured). */
export function setCustomTiles(tiles: CustomTiles | null): void {
  customTiles = tiles;
}

let customProvider: { from: CustomTiles; provider: MapProvider } | null = null;

export interface SelfHostedPmtiles {
  url: string;
  attribution: string;
}

let pmtiles: SelfHostedPmtiles | null = null;
let pmtilesProvider: { from: SelfHostedPmtiles; provider: MapProvider } | null = null;

/** The PMTiles archive this server serves, as /api/map/findProviders gives it (null: none). */
export function setPmtiles(archive: SelfHostedPmtiles | null): void {
  pmtiles = archive;
}

/**
 * A provider with the runtime parts filled in (the custom tile server's template, zoom and attribution).
 * The same object for the same settings, so a map is not rebuilt on every render.
 */
export function effectiveProvider(provider: MapProvider): MapProvider {
  if (provider.type === 'pmtiles' && pmtiles) {
    if (!pmtilesProvider || pmtilesProvider.from !== pmtiles) {
      pmtilesProvider = {
        from: pmtiles,
        provider: { ...provider, url: pmtiles.url, attribution: escapeAttribution(pmtiles.attribution) },
      };
    }
    return pmtilesProvider.provider;
  }
  if (provider.type !== 'custom' || !customTiles) return provider;
  if (!customProvider || customProvider.from !== customTiles) {
    customProvider = {
      from: customTiles,
      provider: {
        ...provider,
        url: customTiles.url,
        maxZoom: customTiles.maxZoom,
        attribution: escapeAttribution(customTiles.attribution),
      },
    };
  }
  return customProvider.provider;
}

/** The attribution is the operator's text; Leaflet shows attributions as HTML, so it is escaped here. */
function escapeAttribution(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function isMapType(value: unknown): value is MapType {
  return typeof value === 'string' && (MAP_TYPES as readonly string[]).includes(value);
}

/**
 * Spec §1: any stored or requested type that is not one of ours falls back to Baidu. Older clients stored
 * vendor names ('gaode', 'Google', 'BMap', …); those map to their road maps.
 */
export function resolveMapType(value: unknown): MapType {
  if (isMapType(value)) return value;
  if (typeof value !== 'string') return DEFAULT_MAP_TYPE;
  const v = value.trim().toLowerCase();
  if (v === 'gaode' || v === 'amap' || v === 'autonavi') return 'amap';
  if (v === 'google' || v === 'gmap') return 'google';
  if (v === 'yandex') return 'yandex';
  if (v === 'bing') return 'bing';
  return DEFAULT_MAP_TYPE;
}

/** Language parameter each vendor understands, from the interface language. */
export function providerLanguage(vendor: MapVendor, lang: string): string {
  const zh = lang === 'cn';
  switch (vendor) {
    case 'google':
      return zh ? 'zh-CN' : lang === 'en-IN' ? 'en' : lang;
    case 'yandex':
      return lang === 'ru' ? 'ru_RU' : zh ? 'zh_CN' : 'en_US';
    case 'bing':
      return zh ? 'zh-CN' : lang === 'en-IN' ? 'en-IN' : `${lang}`;
    default:
      return zh ? 'zh_cn' : 'en';
  }
}

/** Bing's quadkey of a tile. */
export function quadKey(x: number, y: number, z: number): string {
  let key = '';
  for (let i = z; i > 0; i--) {
    let digit = 0;
    const mask = 1 << (i - 1);
    if ((x & mask) !== 0) digit += 1;
    if ((y & mask) !== 0) digit += 2;
    key += digit;
  }
  return key;
}

/** Baidu numbers tile rows upwards from the equator, Leaflet downwards: row r in Leaflet is -r-1 at Baidu. */
export function baiduTileRow(leafletRow: number): number {
  return -leafletRow - 1;
}

/** Baidu writes negative tile indexes with an 'M' prefix. */
export function baiduTileIndex(n: number): string {
  return n < 0 ? `M${-n}` : String(n);
}

/** The tile URL of a provider for Leaflet tile coordinates. */
export function tileUrl(
  provider: MapProvider,
  coords: { x: number; y: number; z: number },
  options: { lang: string; key?: string | null },
): string {
  const subdomains = provider.subdomains;
  const s = subdomains.length > 0 ? subdomains[Math.abs(coords.x + coords.y) % subdomains.length] : '';
  let x = String(coords.x);
  let y = String(coords.y);
  if (provider.scheme === 'baidu') {
    x = baiduTileIndex(coords.x);
    y = baiduTileIndex(baiduTileRow(coords.y));
  }
  let url = provider.url
    .replace('{s}', s)
    .replace('{x}', x)
    .replace('{y}', y)
    .replace('{z}', String(coords.z))
    .replace('{q}', quadKey(coords.x, coords.y, coords.z))
    .replace('{lang}', encodeURIComponent(providerLanguage(provider.vendor, options.lang)));
  if (options.key && provider.keyParam) url += `&${provider.keyParam}=${encodeURIComponent(options.key)}`;
  return url;
}
