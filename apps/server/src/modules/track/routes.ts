// /api/track/* — history tracks: at most 90 days and 5 devices at once, valid fixes in time order, the
// compact encoding for long ranges (spec §5, §7, §9).
import { type CoordSystem, convertCoords, trackDeviceCount, trackRange } from '@carhere/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { type Caller, devicesByIds, devicesByTerminalIds, type ReachableDevice } from '../location/devices.ts';
import { coordTypeSchema, idSchema, instantSchema, terminalIdSchema } from '../location/params.ts';
import { assertNotExpired } from '../location/usable.ts';
import { convertCompactCoords } from './compact.ts';
import { countTrack, loadTrack } from './queries.ts';
import { loadCompactTrack } from './segments.ts';

const TRACK = ['main:track'];
/** Above this many fixes the answer is compact unless the caller asks for a list. */
export const LIST_LIMIT = 5000;

const formatSchema = z.enum(['list', 'compact']).optional();

const pointSchema = z.object({
  time: z.string(),
  lat: z.number(),
  lon: z.number(),
  speed: z.number(),
  course: z.number(),
});
const compactSchema = z.object({
  start: z.number(),
  times: z.string(),
  coords: z.string(),
  speeds: z.string(),
  courses: z.string(),
});
const trackSchema = z.object({
  deviceId: z.string(),
  terminalID: z.string(),
  count: z.number(),
  format: z.enum(['list', 'compact']),
  points: z.array(pointSchema).optional(),
  compact: compactSchema.optional(),
});
type Track = z.infer<typeof trackSchema>;

function checkRange(startTime: number, endTime: number): void {
  const range = trackRange(startTime, endTime);
  if (!range.ok) throw badRequest(range.message, range.params ?? {});
}

/** One device's track in the asked form; without one, a list up to LIST_LIMIT fixes and compact above. */
async function readTrack(
  pool: Pool,
  device: ReachableDevice,
  from: number,
  to: number,
  format: 'list' | 'compact' | undefined,
  log: FastifyBaseLogger,
  coordType: CoordSystem = 'wgs84',
): Promise<Track> {
  const chosen =
    format ?? ((await countTrack(pool, device.id, from, to, LIST_LIMIT)) > LIST_LIMIT ? 'compact' : 'list');
  const base = { deviceId: device.id, terminalID: device.terminalId, format: chosen };
  if (chosen === 'compact') {
    // A first read of a long range stores its day segments after answering (the user waits only for the read).
    const t = await loadCompactTrack(pool, device.id, from, to, Date.now(), (storing) =>
      storing.catch((err) => log.warn({ err, deviceId: device.id }, 'track segments not stored')),
    );
    return { ...base, count: t.count, compact: convertCompactCoords(t.compact, coordType) };
  }
  const t = await loadTrack(pool, device.id, from, to);
  const points = new Array(t.count);
  for (let i = 0; i < t.count; i++) {
    const p =
      coordType === 'wgs84'
        ? { lat: t.lats[i], lon: t.lons[i] }
        : convertCoords({ lat: t.lats[i], lon: t.lons[i] }, 'wgs84', coordType);
    points[i] = {
      time: new Date(Math.round(t.times[i] * 1000)).toISOString(),
      lat: p.lat,
      lon: p.lon,
      speed: Math.round(t.speeds[i] * 10) / 10,
      course: Math.round(t.courses[i]),
    };
  }
  return { ...base, count: t.count, points };
}

const singleSchema = z.object({
  terminalID: terminalIdSchema,
  startTime: instantSchema,
  endTime: instantSchema,
  format: formatSchema,
  coordType: coordTypeSchema.optional(),
});

export async function trackRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/track/find',
    {
      config: { permission: TRACK },
      schema: {
        tags: ['track'],
        summary: 'Tracks of up to 5 devices over up to 90 days',
        body: z.object({
          terminalIDs: z.array(terminalIdSchema).max(50).optional(),
          deviceIds: z.array(idSchema).max(50).optional(),
          startTime: instantSchema,
          endTime: instantSchema,
          format: formatSchema,
          coordType: coordTypeSchema.optional(),
        }),
        response: { 200: envelopeOf(z.array(trackSchema)) },
      },
    },
    async (req) => {
      const { terminalIDs = [], deviceIds = [], startTime, endTime, format, coordType } = req.body;
      const count = trackDeviceCount(terminalIDs.length + deviceIds.length);
      if (!count.ok) throw badRequest(count.message, count.params ?? {});
      checkRange(startTime, endTime);
      const devices = [
        ...(await devicesByTerminalIds(ctx, req.user!, terminalIDs)),
        ...(await devicesByIds(ctx, req.user!, deviceIds)),
      ];
      await assertNotExpired(
        ctx,
        devices.map((d) => d.id),
      );
      const tracks: Track[] = [];
      for (const d of devices) {
        tracks.push(await readTrack(ctx.dbHandle.pool, d, startTime, endTime, format, req.log, coordType));
      }
      return ok(tracks);
    },
  );

  const findByTerminalID = async (caller: Caller, q: z.infer<typeof singleSchema>, log: FastifyBaseLogger) => {
    checkRange(q.startTime, q.endTime);
    const [device] = await devicesByTerminalIds(ctx, caller, [q.terminalID]);
    await assertNotExpired(ctx, [device.id]);
    return ok(await readTrack(ctx.dbHandle.pool, device, q.startTime, q.endTime, q.format, log, q.coordType));
  };

  app.get(
    '/track/findByTerminalID',
    {
      config: { permission: TRACK },
      schema: {
        tags: ['track'],
        summary: 'Track of one device (query parameters)',
        querystring: singleSchema,
        response: { 200: envelopeOf(trackSchema) },
      },
    },
    async (req) => findByTerminalID(req.user!, req.query, req.log),
  );

  app.post(
    '/track/findByTerminalID',
    {
      config: { permission: TRACK },
      schema: {
        tags: ['track'],
        summary: 'Track of one device',
        body: singleSchema,
        response: { 200: envelopeOf(trackSchema) },
      },
    },
    async (req) => findByTerminalID(req.user!, req.body, req.log),
  );
}
