// Which map providers users see and which one they get by default (System → mapKey, admin), and the
// self-hosted tile server. The spec's providers (Baidu, AMap, Google with their satellite views, Yandex,
// Bing) plus two we add: OpenStreetMap and `custom`, an XYZ tile server the operator runs (TILE_URL, e.g.
// https://tiles.example.com/{z}/{x}/{y}.png, or a path on this server). The custom server is set in the
// environment, not in the UI, because its origin goes into the Content-Security-Policy sent with every page.
// A third, `pmtiles`: a PMTiles archive (vector or raster tiles in one file) on this server's disk
// (PMTILES_FILE), served by Carhere itself at PMTILES_URL with HTTP range requests and drawn in the browser by
// protomaps-leaflet (vector) or pmtiles' raster layer; no tile server and no outside host needed.
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { readSetting, writeSetting } from './settings.ts';

/** Every map type the web knows (apps/web/src/map/providers.ts MAP_TYPES; a test keeps the two in step). */
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
export type MapTypeName = (typeof MAP_TYPES)[number];
export const DEFAULT_MAP_TYPE: MapTypeName = 'baidu';

export const TILE_PROVIDERS_SETTING = 'map_providers';

export interface CustomTiles {
  url: string;
  attribution: string;
  maxZoom: number;
}

/** The operator's tile server from the environment, or null (TILE_URL unset or not http(s) / a path). */
export function customTilesFromEnv(env: NodeJS.ProcessEnv = process.env): CustomTiles | null {
  const url = (env.TILE_URL ?? '').trim();
  if (!url || !/\{z\}/.test(url) || !/\{x\}/.test(url) || !/\{y\}/.test(url)) return null;
  if (!/^https?:\/\//i.test(url) && !url.startsWith('/')) return null;
  const maxZoom = Number(env.TILE_MAX_ZOOM);
  return {
    url,
    attribution: (env.TILE_ATTRIBUTION ?? '').trim(),
    maxZoom: Number.isInteger(maxZoom) && maxZoom >= 1 && maxZoom <= 24 ? maxZoom : 19,
  };
}

/** The origin the CSP must allow for the custom tiles (none for a path on this server). */
export function customTilesOrigin(env: NodeJS.ProcessEnv = process.env): string | null {
  const tiles = customTilesFromEnv(env);
  if (!tiles || tiles.url.startsWith('/')) return null;
  try {
    // The template's braces are not valid in a host name; the origin is what precedes the path.
    return new URL(tiles.url.replace(/\{[a-z]+\}/g, '0')).origin;
  } catch {
    return null;
  }
}

/** Where this server serves the PMTiles archive (routes.ts). */
export const PMTILES_URL = '/api/map/tiles.pmtiles';

export interface SelfHostedPmtiles {
  /** absolute path of the archive on this server */
  file: string;
  attribution: string;
}

/** The PMTiles archive from the environment (PMTILES_FILE: an absolute path to a readable file), or null. */
export function pmtilesFromEnv(env: NodeJS.ProcessEnv = process.env): SelfHostedPmtiles | null {
  const file = (env.PMTILES_FILE ?? '').trim();
  if (!file || !isAbsolute(file)) return null;
  try {
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  return { file, attribution: (env.PMTILES_ATTRIBUTION ?? '').trim() };
}

export const providersSchema = z.object({
  /** The map types offered in every map's selector, in this order. */
  visible: z.array(z.enum(MAP_TYPES)).min(1).max(MAP_TYPES.length),
  /** What a user who has not chosen gets. */
  defaultType: z.enum(MAP_TYPES),
});
export type ProviderSettings = z.infer<typeof providersSchema>;

export const providersAnswer = providersSchema.extend({
  custom: z.object({ url: z.string(), attribution: z.string(), maxZoom: z.number().int() }).nullable(),
  /** The PMTiles archive this server serves (PMTILES_FILE), or null. */
  pmtiles: z.object({ url: z.string(), attribution: z.string() }).nullable(),
});

/** Stored settings, with `custom` and `pmtiles` offered only when configured. */
export async function loadProviderSettings(
  ctx: AppContext,
  env: NodeJS.ProcessEnv = process.env,
): Promise<z.infer<typeof providersAnswer>> {
  const custom = customTilesFromEnv(env);
  const archive = pmtilesFromEnv(env);
  const pmtiles = archive ? { url: PMTILES_URL, attribution: archive.attribution } : null;
  const known = MAP_TYPES.filter((t) => (t !== 'custom' || custom) && (t !== 'pmtiles' || pmtiles));
  const stored = await readSetting<Partial<ProviderSettings>>(ctx, TILE_PROVIDERS_SETTING);
  let visible = (stored?.visible ?? known).filter((t): t is MapTypeName => known.includes(t as MapTypeName));
  if (visible.length === 0) visible = [...known];
  const wanted = stored?.defaultType ?? DEFAULT_MAP_TYPE;
  const defaultType = visible.includes(wanted) ? wanted : visible[0];
  return { visible: [...new Set(visible)], defaultType, custom, pmtiles };
}

/** Stores the choice; the default is always offered (added first to `visible` when it was left out). */
export async function saveProviderSettings(ctx: AppContext, settings: ProviderSettings): Promise<void> {
  const visible = [...new Set(settings.visible)];
  if (!visible.includes(settings.defaultType)) visible.unshift(settings.defaultType);
  await writeSetting(ctx, TILE_PROVIDERS_SETTING, { visible, defaultType: settings.defaultType });
}
