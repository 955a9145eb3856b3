// Request and response schemas of /api/fence/*.
import { FENCE_ALARM_TYPES, FENCE_SHAPES, FENCE_STATES } from '@carhere/domain';
import { z } from 'zod';
import { pageOf } from '../../http/envelope.ts';

/** A database id: digits as a string, or a positive integer; always a string afterwards. */
export const idSchema = z
  .union([z.string().regex(/^\d{1,18}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);

export const MAX_DEVICES_PER_CALL = 500;

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const terminalId = z.string().trim().min(1).max(32);

export const pageParams = {
  pageNum: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(15),
};

const geometryFields = {
  shape: z.enum(FENCE_SHAPES),
  /** circle centre (WGS-84) */
  lat: latitude.optional(),
  lon: longitude.optional(),
  /** circle radius in metres, 100 to 1000000 (checked by the domain rule for its message) */
  radius: z.number().optional(),
  /** rectangle corners (WGS-84) */
  minLat: latitude.optional(),
  minLon: longitude.optional(),
  maxLat: latitude.optional(),
  maxLon: longitude.optional(),
  /** polygon vertices [lat, lon] in order, 3 to 200 (WGS-84) */
  points: z
    .array(z.tuple([latitude, longitude]))
    .min(3)
    .max(200)
    .optional(),
};

export const addFenceBody = z.object({
  name: z.string().trim().min(1).max(50),
  ...geometryFields,
  alarmType: z.enum(FENCE_ALARM_TYPES),
  state: z.enum(FENCE_STATES).default('opened'),
  /** owner; the caller by default, else a user inside the caller's hierarchy */
  userId: idSchema.optional(),
  /** devices to link right away */
  terminalIDs: z.array(terminalId).max(MAX_DEVICES_PER_CALL).optional(),
});

export const updateFenceBody = z.object({
  id: idSchema,
  name: z.string().trim().min(1).max(50).optional(),
  shape: z.enum(FENCE_SHAPES).optional(),
  lat: latitude.optional(),
  lon: longitude.optional(),
  radius: z.number().optional(),
  minLat: latitude.optional(),
  minLon: longitude.optional(),
  maxLat: latitude.optional(),
  maxLon: longitude.optional(),
  points: z
    .array(z.tuple([latitude, longitude]))
    .min(3)
    .max(200)
    .optional(),
  alarmType: z.enum(FENCE_ALARM_TYPES).optional(),
  state: z.enum(FENCE_STATES).optional(),
});

export const findFencesBody = z.object({
  name: z.string().trim().max(50).optional(),
  /** only fences of this owner (inside the caller's hierarchy); default: every fence the caller reaches */
  userId: idSchema.optional(),
  state: z.enum(FENCE_STATES).optional(),
  ...pageParams,
});

export const idBody = z.object({ id: idSchema });
export const setStateBody = z.object({ id: idSchema, state: z.enum(FENCE_STATES) });

/** Devices by IMEI (terminalIDs) or by database id (deviceIds). */
export const linkBody = z
  .object({
    id: idSchema,
    terminalIDs: z.array(terminalId).max(MAX_DEVICES_PER_CALL).optional(),
    deviceIds: z.array(idSchema).max(MAX_DEVICES_PER_CALL).optional(),
  })
  .refine((b) => (b.terminalIDs?.length ?? 0) + (b.deviceIds?.length ?? 0) > 0, {
    message: 'terminalIDs or deviceIds',
    path: ['terminalIDs'],
  });

export const findDevicesBody = z.object({ id: idSchema, ...pageParams });
export const findByDeviceBody = z.object({ terminalID: terminalId });

export const fenceSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  shape: z.enum(FENCE_SHAPES),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  radius: z.number().nullable(),
  minLat: z.number().nullable(),
  minLon: z.number().nullable(),
  maxLat: z.number().nullable(),
  maxLon: z.number().nullable(),
  /** polygon vertices [lat, lon]; null for circles and rectangles */
  points: z.array(z.tuple([z.number(), z.number()])).nullable(),
  alarmType: z.enum(FENCE_ALARM_TYPES),
  state: z.enum(FENCE_STATES),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FenceDto = z.infer<typeof fenceSchema>;

export const fencePage = pageOf(fenceSchema);

export const fenceDeviceSchema = z.object({
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  /** side of the fence at the last fix: true inside, false outside, null not known yet */
  inside: z.boolean().nullable(),
  changedAt: z.string().nullable(),
  linkedAt: z.string(),
});
export const fenceDevicePage = pageOf(fenceDeviceSchema);
