// /api/bus/*: bus routes (spec §2 bus/busLineList, §7 POST add, edit, delete {id}; GET routes?userId=). A route is
// an ordered list of stops (name, point, radius) and a polyline, owned by an account and assigned to devices
// that owner reaches. GET /bus/live names each assigned bus's next stop and ETA from its last position.
// Every call needs main:bus (the administrator's, or granted to an agent) and checks the hierarchy.
import { displayName } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { type Caller, devicesByTerminalIds, reachableUserPath } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';
import { busProgress } from './eta.ts';

const BUS = { permission: ['main:bus'] };
const tags = ['bus'];

const lat = z.number().min(-90).max(90);
const lon = z.number().min(-180).max(180);
const stopSchema = z.object({
  name: z.string().trim().min(1).max(50),
  lat,
  lon,
  /** metres: inside it a bus is at the stop */
  radius: z.number().min(10).max(1000).default(50),
});
const polylineSchema = z.array(z.tuple([lat, lon])).max(5000);
const terminalIDs = z.array(terminalIdSchema).max(500);

const routeSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  stops: z.array(z.object({ name: z.string(), lat: z.number(), lon: z.number(), radius: z.number() })),
  polyline: z.array(z.tuple([z.number(), z.number()])),
  devices: z.array(z.object({ deviceId: z.string(), terminalID: z.string(), displayName: z.string() })),
  updatedAt: z.string(),
});

const liveBus = z.object({
  deviceId: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  online: z.boolean(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  speed: z.number().nullable(),
  posTime: z.string().nullable(),
  atStop: z.number().int().nullable(),
  nextStop: z.number().int().nullable(),
  nextStopName: z.string().nullable(),
  /** metres along the route to the next stop */
  distance: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  offRoute: z.number().nullable(),
});

function routeQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('bus_routes as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.id', 'b.user_id', 'u.username', 'u.path', 'u.role', 'b.name', 'b.stops', 'b.polyline', 'b.updated_at']);
}
type RouteRow = Awaited<ReturnType<ReturnType<typeof routeQuery>['executeTakeFirstOrThrow']>>;

export async function busRoutes(app: App, ctx: AppContext): Promise<void> {
  const load = async (caller: Caller, id: string): Promise<RouteRow> => {
    const row = await routeQuery(ctx).where('b.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    if (!reachesPath(caller, row.path)) throw noPermission();
    return row;
  };

  const assignedDevices = async (routeIds: string[]) => {
    if (routeIds.length === 0) return new Map<string, z.infer<typeof routeSchema>['devices']>();
    const rows = await ctx.db
      .selectFrom('bus_route_devices as rd')
      .innerJoin('devices as d', 'd.id', 'rd.device_id')
      .select(['rd.route_id', 'd.id', 'd.terminal_id', 'd.nickname', 'd.car_number'])
      .where('rd.route_id', 'in', routeIds)
      .orderBy('d.terminal_id')
      .execute();
    const out = new Map<string, z.infer<typeof routeSchema>['devices']>();
    for (const r of rows) {
      const list = out.get(String(r.route_id)) ?? [];
      list.push({
        deviceId: String(r.id),
        terminalID: r.terminal_id,
        displayName: displayName({ terminalID: r.terminal_id, carNumber: r.car_number, nickname: r.nickname }),
      });
      out.set(String(r.route_id), list);
    }
    return out;
  };

  const present = async (rows: RouteRow[]) => {
    const devices = await assignedDevices(rows.map((r) => String(r.id)));
    return rows.map((r) => ({
      id: String(r.id),
      userId: String(r.user_id),
      username: r.username,
      name: r.name,
      stops: r.stops,
      polyline: r.polyline,
      devices: devices.get(String(r.id)) ?? [],
      updatedAt: r.updated_at.toISOString(),
    }));
  };

  /** Devices the route's owner reaches, by IMEI; any other refuses the call. */
  const resolve = async (caller: Caller, owner: { path: string; role: number }, ids: string[]) => {
    const devices = await devicesByTerminalIds(ctx, caller, ids);
    for (const d of devices) if (!reachesPath(owner, d.path)) throw noPermission();
    return devices;
  };

  const setDevices = async (routeId: string, deviceIds: string[]) => {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('bus_route_devices').where('route_id', '=', routeId).execute();
      if (deviceIds.length > 0)
        await trx
          .insertInto('bus_route_devices')
          .values(deviceIds.map((device_id) => ({ route_id: routeId, device_id })))
          .execute();
    });
  };

  app.get(
    '/bus/routes',
    {
      config: BUS,
      schema: {
        tags,
        summary: "Bus routes of an account's subtree (the caller's by default), with stops, polyline and buses",
        querystring: z.object({ userId: idSchema.optional() }),
        response: { 200: envelopeOf(z.array(routeSchema)) },
      },
    },
    async (req) => {
      const user = await reachableUserPath(ctx, req.user!, req.query.userId);
      const rows = await routeQuery(ctx)
        .where(sql<boolean>`u.path LIKE ${`${user.path}%`}`)
        .orderBy('b.id', 'desc')
        .limit(1000)
        .execute();
      return ok(await present(rows));
    },
  );

  app.post(
    '/bus/add',
    {
      config: BUS,
      schema: {
        tags,
        summary: 'Add a bus route: ordered stops, polyline (WGS-84), buses by IMEI',
        body: z.object({
          name: z.string().trim().min(1).max(50),
          stops: z.array(stopSchema).min(2).max(200),
          polyline: polylineSchema.default([]),
          terminalIDs: terminalIDs.default([]),
          userId: idSchema.optional(),
        }),
        response: { 200: envelopeOf(routeSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const ownerRef = await reachableUserPath(ctx, req.user!, b.userId);
      const owner = await ctx.db
        .selectFrom('users')
        .select(['id', 'path', 'role'])
        .where('id', '=', ownerRef.id)
        .executeTakeFirstOrThrow();
      const devices = await resolve(req.user!, owner, b.terminalIDs);
      const row = await ctx.db
        .insertInto('bus_routes')
        .values({
          user_id: owner.id,
          name: b.name,
          stops: JSON.stringify(b.stops),
          polyline: JSON.stringify(b.polyline),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setDevices(
        String(row.id),
        devices.map((d) => d.id),
      );
      return ok((await present([await load(req.user!, String(row.id))]))[0]);
    },
  );

  app.post(
    '/bus/edit',
    {
      config: BUS,
      schema: {
        tags,
        summary: 'Change a bus route: name, stops, polyline, buses (each only when given)',
        body: z.object({
          id: idSchema,
          name: z.string().trim().min(1).max(50).optional(),
          stops: z.array(stopSchema).min(2).max(200).optional(),
          polyline: polylineSchema.optional(),
          terminalIDs: terminalIDs.optional(),
        }),
        response: { 200: envelopeOf(routeSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const route = await load(req.user!, b.id);
      if (b.name === undefined && !b.stops && !b.polyline && !b.terminalIDs)
        throw badRequest('invalidParam', { field: 'name' });
      const devices = b.terminalIDs ? await resolve(req.user!, route, b.terminalIDs) : null;
      await ctx.db
        .updateTable('bus_routes')
        .set({
          ...(b.name !== undefined ? { name: b.name } : {}),
          ...(b.stops ? { stops: JSON.stringify(b.stops) } : {}),
          ...(b.polyline ? { polyline: JSON.stringify(b.polyline) } : {}),
          updated_at: new Date(),
        })
        .where('id', '=', b.id)
        .execute();
      if (devices)
        await setDevices(
          b.id,
          devices.map((d) => d.id),
        );
      return ok((await present([await load(req.user!, b.id)]))[0]);
    },
  );

  app.post(
    '/bus/delete',
    {
      config: BUS,
      schema: {
        tags,
        summary: 'Delete a bus route',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      await load(req.user!, req.body.id);
      await ctx.db.deleteFrom('bus_routes').where('id', '=', req.body.id).execute();
      return ok(null);
    },
  );

  app.get(
    '/bus/live',
    {
      config: BUS,
      schema: {
        tags,
        summary: "A route's buses from their last positions: the stop each is at, the next stop and the ETA",
        querystring: z.object({ id: idSchema }),
        response: {
          200: envelopeOf(z.object({ route: routeSchema, buses: z.array(liveBus) })),
        },
      },
    },
    async (req) => {
      const route = (await present([await load(req.user!, req.query.id)]))[0];
      const ids = route.devices.map((d) => d.deviceId);
      const states =
        ids.length === 0
          ? []
          : await ctx.db
              .selectFrom('device_state')
              .select(['device_id', 'lat', 'lon', 'speed', 'pos_time', 'online'])
              .where('device_id', 'in', ids)
              .execute();
      const byId = new Map(states.map((s) => [String(s.device_id), s]));
      const buses = route.devices.map((d) => {
        const s = byId.get(d.deviceId);
        const base = {
          ...d,
          online: s?.online === true,
          lat: s?.lat ?? null,
          lon: s?.lon ?? null,
          speed: s?.speed ?? null,
          posTime: s?.pos_time ? s.pos_time.toISOString() : null,
        };
        if (!s || s.lat === null || s.lon === null)
          return {
            ...base,
            atStop: null,
            nextStop: null,
            nextStopName: null,
            distance: null,
            etaSeconds: null,
            offRoute: null,
          };
        const p = busProgress(route.stops, route.polyline, { lat: s.lat, lon: s.lon, speed: s.speed ?? 0 });
        return {
          ...base,
          atStop: p.atStop,
          nextStop: p.nextStop,
          nextStopName: p.nextStop === null ? null : route.stops[p.nextStop].name,
          distance: p.distance === null ? null : Math.round(p.distance),
          etaSeconds: p.etaSeconds,
          offRoute: Math.round(p.offRoute),
        };
      });
      return ok({ route, buses });
    },
  );
}
