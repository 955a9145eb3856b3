// Request and response schemas of /api/map/*.
import { LANGUAGES } from '@carhere/domain';
import { z } from 'zod';
import { int32 } from '../../http/input.ts';
import { MAP_VENDORS } from './keys.ts';
import { GEOCODER_KINDS } from './providers.ts';

export const getKeyBody = z.object({
  projectName: z.string().trim().min(1).max(50).default('carhere'),
  devicePlatform: z.coerce.number().int().min(0).max(1000).default(1),
  /** baidu, amap (gaode), google, yandex, bing; anything else reads as baidu */
  mapType: z.string().max(40).optional(),
});

export const keySlot = z.object({
  projectName: z.string().trim().min(1).max(50).default('carhere'),
  devicePlatform: z.coerce.number().int().min(0).max(1000).default(1),
  mapType: z.enum(MAP_VENDORS),
});

export const saveKeyBody = keySlot.extend({ key: z.string().trim().min(1).max(300) });

export const mapKeyEntry = z.object({
  projectName: z.string(),
  devicePlatform: int32(),
  mapType: z.enum(MAP_VENDORS),
  key: z.string(),
  updatedAt: z.string(),
});

const lang = z.enum(LANGUAGES).optional();

/** {lat, lon} in WGS-84, or the vendor API's {param: {location: 'lat,lng', language}}. */
export const addressBody = z.union([
  z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180), lang }),
  z.object({
    param: z.object({
      location: z.string().max(60),
      language: z.string().max(10).optional(),
      output: z.string().max(10).optional(),
    }),
  }),
]);

export const addressAnswer = z.object({
  available: z.boolean(),
  address: z.string().nullable(),
  description: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  cached: z.boolean(),
  /** answered by the built-in place index (no provider configured, or it failed): "3.2 km NE of Bao'an, China" */
  offline: z.boolean(),
  /** why no address: notConfigured, providerFailed, notFound */
  reason: z.string().nullable(),
  /** 'Address unavailable' in the caller's language when there is no address */
  message: z.string().nullable(),
  /** the vendor API's shape (spec §7): status 0 with result.formatted_address and sematic_description */
  status: z.number().int(),
  result: z.object({ formatted_address: z.string(), sematic_description: z.string() }).nullable(),
});

export const REGIONS = ['Hong Kong', 'China'] as const;

export const suggestionBody = z.union([
  z.object({ query: z.string().trim().min(1).max(100), region: z.enum(REGIONS).optional(), lang }),
  z.object({
    param: z.object({
      query: z.string().trim().min(1).max(100),
      region: z.string().max(40).optional(),
      output: z.string().max(10).optional(),
      coord_type: z.coerce.number().int().optional(),
    }),
  }),
]);

export const suggestionAnswer = z.object({
  available: z.boolean(),
  region: z.enum(REGIONS),
  cached: z.boolean(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  /** positions in WGS-84 */
  list: z.array(
    z.object({ name: z.string(), address: z.string(), lat: z.number().nullable(), lon: z.number().nullable() }),
  ),
});

const urlTemplate = z.string().trim().max(500);

export const geocoderSettingsSchema = z.object({
  provider: z.enum(GEOCODER_KINDS),
  key: z.string().trim().max(300).default(''),
  reverseUrl: urlTemplate.default(''),
  suggestUrl: urlTemplate.default(''),
  hongKongUserIds: z
    .array(z.string().regex(/^\d{1,18}$/))
    .max(100)
    .default([]),
});
