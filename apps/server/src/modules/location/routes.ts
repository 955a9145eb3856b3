// /api/location/* — devices' last positions: by IMEI list, by user, inside a rectangle (spec §7).
import { displayName, wgsTo } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { specialBrandVisible } from '../custself/specialBrand.ts';
import { isSpecialBrandAgent } from '../device/settings.ts';
import { devicesByTerminalIds, ownedBy, reachableUserPath, withinSubtree } from './devices.ts';
import { coordTypeSchema, flagSchema, idSchema, instantSchema, terminalIdSchema } from './params.ts';
import { type LocationRow, locationQuery, locationSchema, presentLocation } from './presenter.ts';

const MONITOR = ['main:monitor'];
const AREA = ['main:monitor', 'main:check_car'];
/** A historical area search looks at most this far (it scans positions of every device in reach). */
const AREA_MAX_RANGE_MS = 24 * 3_600_000;

const terminalList = z.array(terminalIdSchema).min(1).max(100);

const areaHitSchema = z.object({
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  firstTime: z.string(),
  lastTime: z.string(),
  points: z.number(),
  lat: z.number(),
  lon: z.number(),
});

export async function locationRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/location/find',
    {
      config: { permission: MONITOR },
      schema: {
        tags: ['location'],
        summary: 'Last positions of up to 100 devices by IMEI',
        body: z.union([terminalList, z.object({ terminalIDs: terminalList, coordType: coordTypeSchema.optional() })]),
        // The bare-array form names the coordinate system in the query string (?coordType=gcj02).
        querystring: z.object({ coordType: coordTypeSchema.optional() }),
        response: { 200: envelopeOf(z.array(locationSchema)) },
      },
    },
    async (req) => {
      const ids = Array.isArray(req.body) ? req.body : req.body.terminalIDs;
      const coordType = (Array.isArray(req.body) ? undefined : req.body.coordType) ?? req.query.coordType ?? 'wgs84';
      const devices = await devicesByTerminalIds(ctx, req.user!, ids);
      const rows = (await locationQuery(ctx)
        .where(
          'd.id',
          'in',
          devices.map((d) => d.id),
        )
        .execute()) as LocationRow[];
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      const now = Date.now();
      return ok(devices.map((d) => wgsTo(presentLocation(byId.get(d.id) as LocationRow, now), coordType)));
    },
  );

  app.post(
    '/location/findV2',
    {
      config: { permission: MONITOR },
      schema: {
        tags: ['location'],
        summary: "Last positions of a user's devices (the caller by default; children: the whole subtree)",
        body: z.object({
          userId: idSchema.optional(),
          children: flagSchema.optional(),
          online: flagSchema.optional(),
          pageNum: pageQuery.pageNum,
          pageSize: z.coerce.number().int().min(1).max(100_000).default(1000),
          coordType: coordTypeSchema.optional(),
          /** IMEIs a special-brand agent keeps seeing although the rule of spec §6 would hide them ('nis'). */
          noProcess: z.array(z.string().max(32)).max(10_000).optional(),
        }),
        response: { 200: envelopeOf(pageOf(locationSchema)) },
      },
    },
    async (req) => {
      const { userId, children = false, online, pageNum, pageSize, coordType = 'wgs84' } = req.body;
      const user = await reachableUserPath(ctx, req.user!, userId);
      let q = locationQuery(ctx).where(ownedBy(user, children)).where(withinSubtree(req.user!));
      // Special-brand agents (spec §6) do not see not-activated devices nor devices offline 3 days or more.
      if (await isSpecialBrandAgent(ctx, req.user!))
        q = q.where(specialBrandVisible(req.body.noProcess ?? [], new Date()));
      if (online !== undefined)
        q = q.where(online ? sql<boolean>`s.online` : sql<boolean>`coalesce(s.online, false) = false`);
      const total = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = (await q
        .orderBy(sql`coalesce(s.online, false)`, 'desc')
        .orderBy(sql`s.pos_time desc nulls last`)
        .orderBy('d.id')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute()) as LocationRow[];
      const now = Date.now();
      return ok({ total: Number(total.n), list: rows.map((r) => wgsTo(presentLocation(r, now), coordType)) });
    },
  );

  app.post(
    '/location/findArea',
    {
      config: { permission: AREA },
      schema: {
        tags: ['location'],
        summary: 'Devices inside a rectangle: now (last position) or during a time window of up to 24 h',
        body: z
          .object({
            minLat: z.number().min(-90).max(90),
            maxLat: z.number().min(-90).max(90),
            minLon: z.number().min(-180).max(180),
            maxLon: z.number().min(-180).max(180),
            startTime: instantSchema.optional(),
            endTime: instantSchema.optional(),
            userId: idSchema.optional(),
            /** The answer's coordinates; the box itself is WGS-84. */
            coordType: coordTypeSchema.optional(),
          })
          .refine((b) => b.minLat <= b.maxLat && b.minLon <= b.maxLon, 'min must not exceed max'),
        response: { 200: envelopeOf(pageOf(areaHitSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      const coordType = b.coordType ?? 'wgs84';
      const user = await reachableUserPath(ctx, req.user!, b.userId);
      if ((b.startTime === undefined) !== (b.endTime === undefined)) throw badRequest('validation.rangeRequired');
      if (b.startTime !== undefined && b.endTime !== undefined) {
        if (b.startTime > b.endTime) throw badRequest('validation.rangeOrder');
        if (b.endTime - b.startTime > AREA_MAX_RANGE_MS) throw badRequest('validation.trackDays', { days: 1 });
        const rows = await ctx.db
          .selectFrom('positions as p')
          .innerJoin('devices as d', 'd.id', 'p.device_id')
          .leftJoin('users as u', 'u.id', 'd.user_id')
          .where(ownedBy(user, true))
          .where(withinSubtree(req.user!))
          .where('p.time', '>=', new Date(b.startTime))
          .where('p.time', '<=', new Date(b.endTime))
          .where('p.valid', '=', true)
          .where('p.lat', '>=', b.minLat)
          .where('p.lat', '<=', b.maxLat)
          .where('p.lon', '>=', b.minLon)
          .where('p.lon', '<=', b.maxLon)
          .groupBy(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number'])
          .select((eb) => [
            'd.id',
            'd.terminal_id',
            'd.nickname',
            'd.car_number',
            eb.fn.min('p.time').as('first_time'),
            eb.fn.max('p.time').as('last_time'),
            eb.fn.countAll<string>().as('points'),
            eb.fn.avg<number>('p.lat').as('lat'),
            eb.fn.avg<number>('p.lon').as('lon'),
          ])
          .orderBy('d.id')
          .limit(10_000)
          .execute();
        const list = rows.map((r) => ({
          deviceId: String(r.id),
          terminalID: r.terminal_id,
          displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
          firstTime: new Date(r.first_time as Date).toISOString(),
          lastTime: new Date(r.last_time as Date).toISOString(),
          points: Number(r.points),
          lat: Number(r.lat),
          lon: Number(r.lon),
        }));
        return ok({ total: list.length, list: list.map((hit) => wgsTo(hit, coordType)) });
      }
      const rows = await ctx.db
        .selectFrom('devices as d')
        .leftJoin('users as u', 'u.id', 'd.user_id')
        .innerJoin('device_state as s', 's.device_id', 'd.id')
        .where(ownedBy(user, true))
        .where(withinSubtree(req.user!))
        .where('s.lat', '>=', b.minLat)
        .where('s.lat', '<=', b.maxLat)
        .where('s.lon', '>=', b.minLon)
        .where('s.lon', '<=', b.maxLon)
        .select(['d.id', 'd.terminal_id', 'd.nickname', 'd.car_number', 's.pos_time', 's.lat', 's.lon'])
        .orderBy('d.id')
        .limit(10_000)
        .execute();
      const list = rows.map((r) => {
        const t = (r.pos_time ?? new Date(0)).toISOString();
        return {
          deviceId: String(r.id),
          terminalID: r.terminal_id,
          displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
          firstTime: t,
          lastTime: t,
          points: 1,
          lat: r.lat as number,
          lon: r.lon as number,
        };
      });
      return ok({ total: list.length, list: list.map((hit) => wgsTo(hit, coordType)) });
    },
  );
}
