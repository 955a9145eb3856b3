// Reverse-geocoding and place-suggestion providers: URL templates and the parsing of their answers.
// Requests go out in the provider's coordinate system; every coordinate that comes back is WGS-84.
import gcoord from 'gcoord';

export const GEOCODER_KINDS = ['none', 'nominatim', 'baidu', 'amap'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

export type SuggestionRegion = 'Hong Kong' | 'China';

export interface AddressResult {
  address: string;
  description: string | null;
}

export interface Suggestion {
  name: string;
  address: string;
  /** WGS-84, null when the provider gave no position (e.g. a district name) */
  lat: number | null;
  lon: number | null;
}

interface ProviderDef {
  reverseUrl: string;
  suggestUrl: string;
  /** what the provider expects for {lat},{lon} */
  input: 'wgs84' | 'gcj02';
  region: Record<SuggestionRegion, string>;
  lang: (lang: string) => string;
  parseAddress(body: unknown): AddressResult | null;
  parseSuggestions(body: unknown, url: string): Suggestion[] | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

function toWgs(lat: number | null, lon: number | null, from: 'gcj02' | 'bd09' | 'wgs84') {
  if (lat === null || lon === null) return { lat: null, lon: null };
  if (from === 'wgs84') return { lat, lon };
  const [wLon, wLat] = gcoord.transform([lon, lat], from === 'gcj02' ? gcoord.GCJ02 : gcoord.BD09, gcoord.WGS84);
  return { lat: Math.round(wLat * 1e6) / 1e6, lon: Math.round(wLon * 1e6) / 1e6 };
}

export const PROVIDERS: Record<Exclude<GeocoderKind, 'none'>, ProviderDef> = {
  nominatim: {
    reverseUrl: 'https://nominatim.openstreetmap.org/reverse?format=jsonv2&lat={lat}&lon={lon}&accept-language={lang}',
    suggestUrl:
      'https://nominatim.openstreetmap.org/search?format=jsonv2&limit=10&q={query}&countrycodes={region}&accept-language={lang}',
    input: 'wgs84',
    region: { 'Hong Kong': 'hk', China: 'cn' },
    lang: (lang) => (lang === 'cn' ? 'zh-CN' : lang),
    parseAddress(body) {
      if (!isObject(body) || body.error || !str(body.display_name)) return null;
      return { address: str(body.display_name), description: null };
    },
    parseSuggestions(body) {
      if (!Array.isArray(body)) return null;
      return body.filter(isObject).map((p) => ({
        name: str(p.name) || str(p.display_name).split(',')[0],
        address: str(p.display_name),
        ...toWgs(num(p.lat), num(p.lon), 'wgs84'),
      }));
    },
  },
  baidu: {
    reverseUrl:
      'https://api.map.baidu.com/reverse_geocoding/v3/?ak={key}&output=json&coordtype=wgs84ll&location={lat},{lon}&language={lang}',
    suggestUrl:
      'https://api.map.baidu.com/place/v2/suggestion?ak={key}&output=json&query={query}&region={region}&ret_coordtype=gcj02ll',
    input: 'wgs84',
    region: { 'Hong Kong': '香港', China: '全国' },
    lang: (lang) => (lang === 'cn' ? 'zh-CN' : lang === 'en-IN' ? 'en' : lang),
    parseAddress(body) {
      if (!isObject(body) || Number(body.status) !== 0 || !isObject(body.result)) return null;
      const address = str(body.result.formatted_address);
      if (!address) return null;
      return { address, description: str(body.result.sematic_description) || null };
    },
    parseSuggestions(body, url) {
      if (!isObject(body) || Number(body.status) !== 0 || !Array.isArray(body.result)) return null;
      // Baidu answers in BD-09 unless asked for GCJ-02 (the default template asks).
      const system = /ret_coordtype=gcj02ll/.test(url) ? 'gcj02' : 'bd09';
      return body.result.filter(isObject).map((p) => {
        const loc = isObject(p.location) ? p.location : {};
        return {
          name: str(p.name),
          address: [str(p.city), str(p.district), str(p.address)].filter(Boolean).join(' '),
          ...toWgs(num(loc.lat), num(loc.lng), system),
        };
      });
    },
  },
  amap: {
    reverseUrl: 'https://restapi.amap.com/v3/geocode/regeo?key={key}&output=JSON&location={lon},{lat}',
    suggestUrl: 'https://restapi.amap.com/v3/assistant/inputtips?key={key}&output=JSON&keywords={query}&city={region}',
    input: 'gcj02',
    region: { 'Hong Kong': '香港', China: '' },
    lang: (lang) => (lang === 'cn' ? 'zh_cn' : 'en'),
    parseAddress(body) {
      if (!isObject(body) || String(body.status) !== '1' || !isObject(body.regeocode)) return null;
      const address = str(body.regeocode.formatted_address);
      return address ? { address, description: null } : null;
    },
    parseSuggestions(body) {
      if (!isObject(body) || String(body.status) !== '1' || !Array.isArray(body.tips)) return null;
      return body.tips.filter(isObject).map((p) => {
        const [lng, lat] = str(p.location).split(',');
        return {
          name: str(p.name),
          address: [str(p.district), str(p.address)].filter(Boolean).join(' '),
          ...toWgs(num(lat), num(lng), 'gcj02'),
        };
      });
    },
  },
};

/** Fills a URL template; every value is URL-encoded. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? encodeURIComponent(String(values[name])) : whole,
  );
}

/** The point as the provider expects it (AMap: GCJ-02), with 6 decimals. */
export function providerPoint(
  kind: Exclude<GeocoderKind, 'none'>,
  lat: number,
  lon: number,
): { lat: string; lon: string } {
  let out = { lat, lon };
  if (PROVIDERS[kind].input === 'gcj02') {
    const [gLon, gLat] = gcoord.transform([lon, lat], gcoord.WGS84, gcoord.GCJ02);
    out = { lat: gLat, lon: gLon };
  }
  return { lat: out.lat.toFixed(6), lon: out.lon.toFixed(6) };
}
