// /api/map/*: map keys for the web (set by the administrator in System → mapKey), reverse geocoding and
// place suggestions through the configured provider with a server-side cache.
import { createReadStream, statSync } from 'node:fs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { localizedError, localText } from '../fence/localized.ts';
import { parseRange } from '../ota/routes.ts';
import { GEOCODER_SETTING, Geocoder, isHongKongUser, loadGeocoderSettings } from './geocoder.ts';
import { deleteKey, findKey, listKeys, mapVendor, saveKey } from './keys.ts';
import {
  addressAnswer,
  addressBody,
  geocoderSettingsSchema,
  getKeyBody,
  keySlot,
  mapKeyEntry,
  type REGIONS,
  saveKeyBody,
  suggestionAnswer,
  suggestionBody,
} from './schema.ts';
import { writeSetting } from './settings.ts';
import { MAP_TEXTS } from './texts.ts';
import {
  loadProviderSettings,
  PMTILES_URL,
  pmtilesFromEnv,
  providersAnswer,
  providersSchema,
  saveProviderSettings,
} from './tileProviders.ts';

const ADMIN = { permission: ['main:system_config'] };
const tags = ['map'];
const LANGS = ['cn', 'en', 'vi', 'fr', 'pt', 'en-IN', 'es', 'km', 'th', 'ru', 'my'];

/** The vendor API's language names ('zh-CN', 'en') as our language codes. */
function langOf(value: string | undefined, fallback: string): string {
  if (!value) return fallback;
  if (LANGS.includes(value)) return value;
  if (value.toLowerCase().startsWith('zh')) return 'cn';
  const base = value.split(/[-_]/)[0].toLowerCase();
  return LANGS.includes(base) ? base : fallback;
}

export async function mapRoutes(app: App, ctx: AppContext): Promise<void> {
  const geocoder = new Geocoder(ctx, Number(process.env.GEOCODER_TIMEOUT_MS) || 5000);

  app.post(
    '/map/getKey',
    {
      schema: {
        tags,
        summary: 'The map key of a vendor (baidu, amap, google, yandex, bing; others read as baidu)',
        body: getKeyBody,
        response: { 200: envelopeOf(z.string().nullable()) },
      },
    },
    async (req) => {
      const { projectName, devicePlatform, mapType } = req.body;
      const key = findKey(await listKeys(ctx), projectName, devicePlatform, mapVendor(mapType));
      // 'map configuration not obtained' (meta code 404). A map without a key is a normal state the web handles,
      // so the HTTP status stays 200: a 404 made every map page log a console error until a key was set.
      if (!key) throw new ApiError(404, 'map.keyMissing', 200);
      return ok(key);
    },
  );

  app.post(
    '/map/findProviders',
    {
      schema: {
        tags,
        summary:
          'The map types users are offered (visible, in order), the default for users who have not chosen, and the self-hosted tile server (TILE_URL) if any',
        response: { 200: envelopeOf(providersAnswer) },
      },
    },
    async () => ok(await loadProviderSettings(ctx)),
  );

  // The self-hosted PMTiles archive (PMTILES_FILE), read by the browser in byte ranges: the header and root
  // directory first, then each tile's bytes. Any signed-in user may read it (a base map holds nobody's data,
  // so there is no account to check against the caller's subtree); the session check of every /api route
  // applies. Ranges are read from disk as asked, never the whole archive at once.
  app.get(
    PMTILES_URL.slice('/api'.length),
    {
      schema: {
        tags,
        summary:
          'The self-hosted PMTiles archive (PMTILES_FILE) for the pmtiles map type: Range requests answered with 206 (404 when none is configured)',
      },
    },
    async (req, reply) => {
      const archive = pmtilesFromEnv();
      if (!archive) throw notFound();
      const stat = statSync(archive.file);
      const size = stat.size;
      const range = parseRange(req.headers.range, size);
      reply
        .header('accept-ranges', 'bytes')
        // The archive's identity: pmtiles re-reads the header when it changes (a replaced file).
        .header('etag', `"${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`)
        .header('cache-control', 'private, max-age=3600')
        .type('application/vnd.pmtiles');
      if (range === 'invalid') return reply.code(416).header('content-range', `bytes */${size}`).send();
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      reply.header('content-length', String(end - start + 1));
      return reply.send(size === 0 ? '' : createReadStream(archive.file, { start, end }));
    },
  );

  app.post(
    '/map/saveProviders',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          "Choose the map types users are offered and the default ('custom' only counts when TILE_URL is set; the default is always offered)",
        body: providersSchema,
        response: { 200: envelopeOf(providersAnswer) },
      },
    },
    async (req) => {
      await saveProviderSettings(ctx, req.body);
      return ok(await loadProviderSettings(ctx));
    },
  );

  app.post(
    '/map/findKeys',
    {
      config: ADMIN,
      schema: { tags, summary: 'Every configured map key', response: { 200: envelopeOf(z.array(mapKeyEntry)) } },
    },
    async () => ok(await listKeys(ctx)),
  );

  app.post(
    '/map/saveKey',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Set the key of a vendor for a project and device platform',
        body: saveKeyBody,
        response: { 200: envelopeOf(z.array(mapKeyEntry)) },
      },
    },
    async (req) => ok(await saveKey(ctx, req.body)),
  );

  app.post(
    '/map/deleteKey',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'Remove the key of a vendor for a project and device platform',
        body: keySlot,
        response: { 200: envelopeOf(z.object({ deleted: z.number().int() })) },
      },
    },
    async (req) => ok({ deleted: await deleteKey(ctx, req.body) }),
  );

  app.post(
    '/map/findGeocoder',
    {
      config: ADMIN,
      schema: {
        tags,
        summary: 'The address provider (none, nominatim, baidu, amap), its key, URL templates and Hong Kong accounts',
        response: { 200: envelopeOf(geocoderSettingsSchema) },
      },
    },
    async () => ok(await loadGeocoderSettings(ctx)),
  );

  app.post(
    '/map/saveGeocoder',
    {
      config: ADMIN,
      schema: {
        tags,
        summary:
          'Set the address provider; URL templates may use {lat} {lon} {key} {lang} {query} {region} (empty: the provider default)',
        body: geocoderSettingsSchema,
        response: { 200: envelopeOf(geocoderSettingsSchema) },
      },
    },
    async (req) => {
      for (const url of [req.body.reverseUrl, req.body.suggestUrl]) {
        if (url && !/^https?:\/\/[^\s]+$/i.test(url)) throw localizedError(req, MAP_TEXTS, 'badTemplate');
      }
      await writeSetting(ctx, GEOCODER_SETTING, req.body);
      geocoder.reset();
      return ok(await loadGeocoderSettings(ctx));
    },
  );

  app.post(
    '/map/getKeyAddress',
    {
      schema: {
        tags,
        summary: 'Address of a WGS-84 point (cached by lat/lng rounded to 4 decimals); "address unavailable" offline',
        body: addressBody,
        response: { 200: envelopeOf(addressAnswer) },
      },
    },
    async (req) => {
      let lat: number;
      let lon: number;
      let lang = callerLang(req);
      if ('param' in req.body) {
        const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(req.body.param.location);
        lat = Number(m?.[1]);
        lon = Number(m?.[2]);
        if (!m || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw localizedError(req, MAP_TEXTS, 'badLocation');
        lang = langOf(req.body.param.language, lang);
      } else {
        ({ lat, lon } = req.body);
        lang = req.body.lang ?? lang;
      }
      const answer = await geocoder.address(await loadGeocoderSettings(ctx), lat, lon, lang);
      if (!answer.ok) {
        return ok({
          available: false,
          address: null,
          description: null,
          lat,
          lon,
          cached: false,
          offline: false,
          reason: answer.reason,
          message: `${localText(MAP_TEXTS, 'addressUnavailable', lang)}: ${localText(MAP_TEXTS, `reason.${answer.reason}`, lang)}`,
          status: 1,
          result: null,
        });
      }
      const { address, description } = answer.value;
      return ok({
        available: true,
        address,
        description,
        lat,
        lon,
        cached: answer.cached,
        offline: answer.offline ?? false,
        reason: null,
        message: null,
        status: 0,
        result: { formatted_address: address, sematic_description: description ?? '' },
      });
    },
  );

  app.post(
    '/map/getSuggestion',
    {
      schema: {
        tags,
        summary: 'Place suggestions (WGS-84); Hong Kong accounts get the Hong Kong region, others China',
        body: suggestionBody,
        response: { 200: envelopeOf(suggestionAnswer) },
      },
    },
    async (req) => {
      const settings = await loadGeocoderSettings(ctx);
      const own = isHongKongUser(req.user?.path ?? '', settings.hongKongUserIds) ? 'Hong Kong' : 'China';
      let query: string;
      let region: (typeof REGIONS)[number];
      let lang = callerLang(req);
      if ('param' in req.body) {
        query = req.body.param.query;
        const asked = req.body.param.region ?? '';
        region = /hong\s*kong|香港/i.test(asked) ? 'Hong Kong' : asked ? 'China' : own;
      } else {
        query = req.body.query;
        region = req.body.region ?? own;
        lang = req.body.lang ?? lang;
      }
      const answer = await geocoder.suggestions(settings, query, region, lang);
      if (!answer.ok) {
        return ok({
          available: false,
          region,
          cached: false,
          offline: false,
          reason: answer.reason,
          message: `${localText(MAP_TEXTS, 'suggestionsUnavailable', lang)}: ${localText(MAP_TEXTS, `reason.${answer.reason}`, lang)}`,
          list: [],
        });
      }
      return ok({ available: true, region, cached: answer.cached, reason: null, message: null, list: answer.value });
    },
  );
}
