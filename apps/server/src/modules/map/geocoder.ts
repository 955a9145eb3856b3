// Reverse geocoding and place suggestions through the configured provider, cached in `geocode_cache`
// (addresses by lat/lng rounded to 4 decimals, about 11 m; suggestions by region and query). A provider
// that cannot be reached (offline, timeout, 5xx) is left alone for a short while and the answer says
// "address unavailable" at once, so a page full of markers never waits on a dead network.

import { isLanguage, type Language } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import { offlineAddress } from './offline/places.ts';
import {
  type AddressResult,
  fillTemplate,
  GEOCODER_KINDS,
  type GeocoderKind,
  PROVIDERS,
  providerPoint,
  type Suggestion,
  type SuggestionRegion,
} from './providers.ts';
import { readSetting } from './settings.ts';

export const GEOCODER_SETTING = 'geocoder';

export interface GeocoderSettings {
  provider: GeocoderKind;
  key: string;
  /** URL templates overriding the provider's defaults ({lat} {lon} {key} {lang} {query} {region}) */
  reverseUrl: string;
  suggestUrl: string;
  /** Accounts (and everything below them) that get the Hong Kong suggestion region (spec §6). */
  hongKongUserIds: string[];
}

export type Unavailable = 'notConfigured' | 'providerFailed' | 'notFound';

export type Answer<T> =
  | { ok: true; value: T; cached: boolean /** answered by the offline place index */; offline?: boolean }
  | { ok: false; reason: Unavailable };

const ADDRESS_TTL_MS = 30 * 86_400_000;
const SUGGESTION_TTL_MS = 86_400_000;
const BACKOFF_MS = 30_000;
const MAX_BODY_BYTES = 2_000_000;

/** Settings from the database, else from the environment (GEOCODER_PROVIDER, GEOCODER_KEY, …). */
export async function loadGeocoderSettings(
  ctx: AppContext,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GeocoderSettings> {
  const stored = (await readSetting<Partial<GeocoderSettings>>(ctx, GEOCODER_SETTING)) ?? {};
  const envProvider = (GEOCODER_KINDS as readonly string[]).includes(env.GEOCODER_PROVIDER ?? '')
    ? (env.GEOCODER_PROVIDER as GeocoderKind)
    : 'none';
  const provider = (GEOCODER_KINDS as readonly string[]).includes(String(stored.provider))
    ? (stored.provider as GeocoderKind)
    : envProvider;
  const ids = stored.hongKongUserIds ?? (env.HONG_KONG_USER_IDS ?? '').split(',');
  return {
    provider,
    key: stored.key ?? env.GEOCODER_KEY ?? '',
    reverseUrl: stored.reverseUrl ?? env.GEOCODER_REVERSE_URL ?? '',
    suggestUrl: stored.suggestUrl ?? env.GEOCODER_SUGGEST_URL ?? '',
    hongKongUserIds: ids.map((s) => String(s).trim()).filter((s) => /^\d+$/.test(s)),
  };
}

/** Hong Kong accounts are detected by their own id or any ancestor's (the path '/1/5/12/'). */
export function isHongKongUser(path: string, hongKongUserIds: readonly string[]): boolean {
  if (hongKongUserIds.length === 0) return false;
  return path.split('/').some((id) => id !== '' && hongKongUserIds.includes(id));
}

export const roundCoord = (v: number) => v.toFixed(4);

export class Geocoder {
  private downUntil = 0;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly timeoutMs = 5000,
  ) {}

  /** After the settings changed: try the provider again at once. */
  reset(): void {
    this.downUntil = 0;
  }

  /**
   * The configured provider's address; without a provider, or when it fails or knows no address, the
   * offline one (nearest populated place, see offline/places.ts). Offline answers are not cached: they
   * cost microseconds, and a provider configured later must not be shadowed by them.
   */
  async address(settings: GeocoderSettings, lat: number, lon: number, lang: string): Promise<Answer<AddressResult>> {
    const answer = await this.providerAddress(settings, lat, lon, lang);
    if (answer.ok) return answer;
    const address = await offlineAddress(lat, lon, isLanguage(lang) ? lang : ('en' satisfies Language));
    if (address === null) return answer;
    return { ok: true, value: { address, description: null }, cached: false, offline: true };
  }

  private async providerAddress(
    settings: GeocoderSettings,
    lat: number,
    lon: number,
    lang: string,
  ): Promise<Answer<AddressResult>> {
    if (settings.provider === 'none') return { ok: false, reason: 'notConfigured' };
    const def = PROVIDERS[settings.provider];
    const cacheKey = `${roundCoord(lat)},${roundCoord(lon)}`;
    const cached = await this.fromCache<AddressResult>('address', settings.provider, lang, cacheKey, ADDRESS_TTL_MS);
    if (cached) return { ok: true, value: cached, cached: true };
    const point = providerPoint(settings.provider, Number(roundCoord(lat)), Number(roundCoord(lon)));
    const url = fillTemplate(settings.reverseUrl || def.reverseUrl, {
      ...point,
      key: settings.key,
      lang: def.lang(lang),
    });
    return this.once(`a|${settings.provider}|${lang}|${cacheKey}`, async () => {
      const body = await this.fetchJson(url);
      if (body === undefined) return { ok: false, reason: 'providerFailed' } as const;
      const value = def.parseAddress(body);
      if (!value) return { ok: false, reason: 'notFound' } as const;
      await this.toCache('address', settings.provider, lang, cacheKey, value);
      return { ok: true, value, cached: false } as const;
    });
  }

  async suggestions(
    settings: GeocoderSettings,
    query: string,
    region: SuggestionRegion,
    lang: string,
  ): Promise<Answer<Suggestion[]>> {
    if (settings.provider === 'none') return { ok: false, reason: 'notConfigured' };
    const def = PROVIDERS[settings.provider];
    const cacheKey = `${region}|${query.toLowerCase()}`;
    const cached = await this.fromCache<Suggestion[]>(
      'suggestion',
      settings.provider,
      lang,
      cacheKey,
      SUGGESTION_TTL_MS,
    );
    if (cached) return { ok: true, value: cached, cached: true };
    const url = fillTemplate(settings.suggestUrl || def.suggestUrl, {
      query,
      region: def.region[region],
      key: settings.key,
      lang: def.lang(lang),
    });
    return this.once(`s|${settings.provider}|${lang}|${cacheKey}`, async () => {
      const body = await this.fetchJson(url);
      if (body === undefined) return { ok: false, reason: 'providerFailed' } as const;
      const value = def.parseSuggestions(body, url);
      if (!value) return { ok: false, reason: 'notFound' } as const;
      await this.toCache('suggestion', settings.provider, lang, cacheKey, value);
      return { ok: true, value, cached: false } as const;
    });
  }

  /** One provider request per key at a time; concurrent callers share it. */
  private once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const pending = this.inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const p = run().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** The parsed JSON body, or undefined when the provider could not be used (and it is then left alone). */
  private async fetchJson(url: string): Promise<unknown> {
    if (Date.now() < this.downUntil) return undefined;
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'Carhere/0.1 (fleet tracking; reverse geocoding)' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`provider answered ${res.status}`);
      if (!res.ok || text.length > MAX_BODY_BYTES) return null;
      return JSON.parse(text) as unknown;
    } catch {
      this.downUntil = Date.now() + BACKOFF_MS;
      return undefined;
    }
  }

  private async fromCache<T>(
    kind: 'address' | 'suggestion',
    provider: string,
    lang: string,
    key: string,
    ttlMs: number,
  ): Promise<T | undefined> {
    const row = await this.ctx.db
      .selectFrom('geocode_cache')
      .select(['value', 'created_at'])
      .where('kind', '=', kind)
      .where('provider', '=', provider)
      .where('lang', '=', lang)
      .where('cache_key', '=', key)
      .executeTakeFirst();
    if (!row || Date.now() - row.created_at.getTime() > ttlMs) return undefined;
    return row.value as T;
  }

  private async toCache(kind: 'address' | 'suggestion', provider: string, lang: string, key: string, value: unknown) {
    const json = JSON.stringify(value);
    await this.ctx.db
      .insertInto('geocode_cache')
      .values({ kind, provider, lang, cache_key: key, value: json })
      .onConflict((oc) =>
        oc.columns(['kind', 'provider', 'lang', 'cache_key']).doUpdateSet({ value: json, created_at: new Date() }),
      )
      .execute();
  }
}
