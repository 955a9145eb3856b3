/** Map providers (spec §1). Bing exists as a provider but is not a selectable map type. */
export const MAP_TYPES = ['baidu', 'google', 'gaode', 'yandex'] as const;
export type MapType = (typeof MAP_TYPES)[number];
export const DEFAULT_MAP_TYPE: MapType = 'baidu';

/** A stored map type that is not Google, Baidu, GaoDe or Yandex falls back to Baidu (case-insensitive). */
export function resolveMapType(value: unknown): MapType {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (MAP_TYPES as readonly string[]).includes(text) ? (text as MapType) : DEFAULT_MAP_TYPE;
}

/** The map selector's options, the first being the default (spec §1). */
export const MAP_SELECTOR_OPTIONS = [
  { id: 'baidu', provider: 'baidu', satellite: false, cn: '百度地图', en: 'Baidu' },
  { id: 'baiduSatellite', provider: 'baidu', satellite: true, cn: '百度卫星', en: 'Baidu satellite' },
  { id: 'amap', provider: 'gaode', satellite: false, cn: '高德地图', en: 'AMap' },
  { id: 'amapSatellite', provider: 'gaode', satellite: true, cn: '高德卫星', en: 'AMap satellite' },
  { id: 'google', provider: 'google', satellite: false, cn: '谷歌地图', en: 'Google' },
  { id: 'googleSatellite', provider: 'google', satellite: true, cn: '谷歌卫星', en: 'Google satellite' },
] as const;

/** Default map centre for both coordinate systems (spec §1). */
export const DEFAULT_MAP_CENTER = { lon: 116.404, lat: 39.915 } as const;

/** Address-suggestion region: Hong Kong accounts get Hong Kong, everyone else China (spec §6). */
export function suggestionRegion(isHongKongUser: boolean): 'Hong Kong' | 'China' {
  return isHongKongUser ? 'Hong Kong' : 'China';
}
