// /api/checkCar/*: vehicle checks (spec §2 checkCar area and point). Which devices of the caller's subtree (or
// of one account in it) are inside a rectangle or polygon now or were during a window of up to 24 h, and which
// passed within a radius of a point in a window, with their times of passage. Answers come from the positions
// table through the grid-cell index (grid.ts), without PostGIS. Coordinates in and out are WGS-84.
import { displayName } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { distanceMetres, insidePolygon } from '../fence/detect.ts';
import { reachableUserPath } from '../location/devices.ts';
import { idSchema, instantSchema } from '../location/params.ts';
import { type Box, boxAround, boxOfPoints, passages } from './grid.ts';
import { deviceNames, devicesInBoxNow, fixesInBox } from './queries.ts';

const CHECK = { permission: ['main:check_car'] };
const tags = ['checkCar'];
export const CHECK_MAX_RANGE_MS = 24 * 3_600_000;
/** A point check's radius, metres. */
export const POINT_RADIUS_MIN_M = 10;
export const POINT_RADIUS_MAX_M = 5000;
/** An area check's box may span at most this many degrees a side (the grid ranges stay few). */
const AREA_MAX_SPAN_DEG = 2;

const lat = z.number().min(-90).max(90);
const lon = z.number().min(-180).max(180);

const areaBody = z.object({
  shape: z.enum(['rectangle', 'polygon']).default('rectangle'),
  minLat: lat.optional(),
  maxLat: lat.optional(),
  minLon: lon.optional(),
  maxLon: lon.optional(),
  points: z
    .array(z.tuple([lat, lon]))
    .min(3)
    .max(200)
    .optional(),
  /** both or neither: without them, the devices inside now (their last position) */
  startTime: instantSchema.optional(),
  endTime: instantSchema.optional(),
  userId: idSchema.optional(),
});

const deviceFields = {
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
};

const areaHit = z.object({
  ...deviceFields,
  firstTime: z.string(),
  lastTime: z.string(),
  points: z.number().int(),
  /** the last position inside */
  lat: z.number(),
  lon: z.number(),
});

const pointBody = z.object({
  lat,
  lon,
  radius: z.number().min(POINT_RADIUS_MIN_M).max(POINT_RADIUS_MAX_M),
  startTime: instantSchema,
  endTime: instantSchema,
  userId: idSchema.optional(),
});

const passageSchema = z.object({
  enteredAt: z.string(),
  leftAt: z.string(),
  fixes: z.number().int(),
  /** closest distance to the point, metres */
  closest: z.number(),
});

const pointHit = z.object({ ...deviceFields, passages: z.array(passageSchema) });

function checkWindow(start: number, end: number): void {
  if (start > end) throw badRequest('validation.rangeOrder');
  if (end - start > CHECK_MAX_RANGE_MS) throw badRequest('validation.trackDays', { days: 1 });
}

function nameOf(d: { terminal_id: string; nickname: string; car_number: string }): string {
  return displayName({ terminalID: d.terminal_id, carNumber: d.car_number, nickname: d.nickname });
}

export async function checkRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/checkCar/area',
    {
      config: CHECK,
      schema: {
        tags,
        summary:
          'Devices inside a rectangle (minLat…maxLon) or polygon (points): now, or during a window of up to 24 h',
        body: areaBody,
        response: {
          200: envelopeOf(z.object({ total: z.number().int(), cut: z.boolean(), list: z.array(areaHit) })),
        },
      },
    },
    async (req) => {
      const b = req.body;
      let box: Box;
      let inside: (lat: number, lon: number) => boolean;
      if (b.shape === 'polygon') {
        if (!b.points) throw badRequest('invalidParam', { field: 'points' });
        const points = b.points;
        box = boxOfPoints(points);
        inside = (la, lo) => insidePolygon(points, la, lo);
      } else {
        if (b.minLat === undefined || b.maxLat === undefined || b.minLon === undefined || b.maxLon === undefined)
          throw badRequest('invalidParam', { field: 'minLat' });
        if (b.minLat > b.maxLat || b.minLon > b.maxLon) throw badRequest('invalidParam', { field: 'minLat' });
        box = { minLat: b.minLat, maxLat: b.maxLat, minLon: b.minLon, maxLon: b.maxLon };
        inside = () => true;
      }
      if (box.maxLat - box.minLat > AREA_MAX_SPAN_DEG || box.maxLon - box.minLon > AREA_MAX_SPAN_DEG)
        throw badRequest('invalidParam', { field: b.shape === 'polygon' ? 'points' : 'maxLat' });
      const owner = await reachableUserPath(ctx, req.user!, b.userId);
      if ((b.startTime === undefined) !== (b.endTime === undefined)) throw badRequest('validation.rangeRequired');
      if (b.startTime === undefined || b.endTime === undefined) {
        const rows = await devicesInBoxNow(ctx, owner.path, box);
        const list = rows
          .filter((r) => r.lat !== null && r.lon !== null && inside(r.lat, r.lon))
          .map((r) => {
            const t = (r.pos_time ?? new Date(0)).toISOString();
            return {
              deviceId: String(r.id),
              terminalID: r.terminal_id,
              displayName: nameOf(r),
              firstTime: t,
              lastTime: t,
              points: 1,
              lat: r.lat as number,
              lon: r.lon as number,
            };
          });
        return ok({ total: list.length, cut: false, list });
      }
      checkWindow(b.startTime, b.endTime);
      const { rows, cut } = await fixesInBox(ctx, owner.path, box, new Date(b.startTime), new Date(b.endTime));
      const byDevice = new Map<string, { first: number; last: number; n: number; lat: number; lon: number }>();
      for (const r of rows) {
        if (!inside(r.lat, r.lon)) continue;
        const t = r.time.getTime();
        const hit = byDevice.get(r.device_id);
        if (!hit) byDevice.set(r.device_id, { first: t, last: t, n: 1, lat: r.lat, lon: r.lon });
        else {
          hit.n++;
          if (t < hit.first) hit.first = t;
          if (t >= hit.last) Object.assign(hit, { last: t, lat: r.lat, lon: r.lon });
        }
      }
      const names = await deviceNames(ctx, [...byDevice.keys()]);
      const list = [...byDevice.entries()]
        .sort((a, b2) => a[1].first - b2[1].first)
        .map(([id, h]) => {
          const d = names.get(id);
          return {
            deviceId: id,
            terminalID: d?.terminal_id ?? '',
            displayName: d ? nameOf(d) : id,
            firstTime: new Date(h.first).toISOString(),
            lastTime: new Date(h.last).toISOString(),
            points: h.n,
            lat: h.lat,
            lon: h.lon,
          };
        });
      return ok({ total: list.length, cut, list });
    },
  );

  app.post(
    '/checkCar/point',
    {
      config: CHECK,
      schema: {
        tags,
        summary: `Devices that passed within a radius (${POINT_RADIUS_MIN_M}–${POINT_RADIUS_MAX_M} m) of a point during a window of up to 24 h, with their passages`,
        body: pointBody,
        response: {
          200: envelopeOf(z.object({ total: z.number().int(), cut: z.boolean(), list: z.array(pointHit) })),
        },
      },
    },
    async (req) => {
      const b = req.body;
      checkWindow(b.startTime, b.endTime);
      const owner = await reachableUserPath(ctx, req.user!, b.userId);
      const result = await pointCheck(ctx, owner.path, b);
      return ok(result);
    },
  );
}

/** The point check itself (also what the benchmark measures through the query layer). */
export async function pointCheck(
  ctx: AppContext,
  ownerPath: string,
  b: { lat: number; lon: number; radius: number; startTime: number; endTime: number },
) {
  const box = boxAround(b.lat, b.lon, b.radius);
  const { rows, cut } = await fixesInBox(ctx, ownerPath, box, new Date(b.startTime), new Date(b.endTime));
  const byDevice = new Map<string, { time: number; lat: number; lon: number; distance: number }[]>();
  for (const r of rows) {
    const distance = distanceMetres(b.lat, b.lon, r.lat, r.lon);
    if (distance > b.radius) continue;
    const fix = { time: r.time.getTime(), lat: r.lat, lon: r.lon, distance };
    const list = byDevice.get(r.device_id);
    if (list) list.push(fix);
    else byDevice.set(r.device_id, [fix]);
  }
  const names = await deviceNames(ctx, [...byDevice.keys()]);
  const list = [...byDevice.entries()]
    .map(([id, fixes]) => {
      fixes.sort((x, y) => x.time - y.time);
      const d = names.get(id);
      return {
        deviceId: id,
        terminalID: d?.terminal_id ?? '',
        displayName: d ? nameOf(d) : id,
        passages: passages(fixes).map((p) => ({
          enteredAt: new Date(p.enteredAt).toISOString(),
          leftAt: new Date(p.leftAt).toISOString(),
          fixes: p.fixes,
          closest: Math.round(p.closest),
        })),
      };
    })
    .sort((x, y) => x.passages[0].enteredAt.localeCompare(y.passages[0].enteredAt));
  return { total: list.length, cut, list };
}
