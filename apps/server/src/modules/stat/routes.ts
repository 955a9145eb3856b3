// /api/stat/*, /api/stay/find — statistics (issue 13, spec §2 count/*, §7). Every endpoint checks its
// main:stat_* permission and the caller's reach; lists are `{total, list}` with pageNum / pageSize (up to
// 100000, spec §9; default 100000 as the statistics screens fetch everything in one go).
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf } from '../../http/envelope.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import {
  alarmsBody,
  batteryBody,
  byUserIdsBody,
  fenceVisitsBody,
  pastDueBody,
  STAT_PERMISSIONS,
  statFindBody,
  staysBody,
  tripsBody,
} from './bodies.ts';
import { pageJsonBytes, pageJsonPieces } from './daily.ts';
import { exportRoutes } from './export-routes.ts';
import { placesIn, withStayAddresses, withTripAddresses } from './places.ts';
import {
  alarmCounts,
  alarmRows,
  battery,
  batteryAlarmsPerDay,
  fenceVisits,
  findAllMileage,
  findByUserIds,
  pastDue,
  statFindJson,
  stays,
  trips,
} from './queries.ts';
import { speedLimitRoutes } from './speedLimit.ts';

const totalsFields = {
  mileage: z.number(),
  runSeconds: z.number(),
  stopCount: z.number(),
  stopSeconds: z.number(),
  engineSeconds: z.number(),
  idleSeconds: z.number(),
  maxSpeed: z.number(),
  overspeedCount: z.number(),
  alarmCount: z.number(),
};
export const dailySchema = z.object({
  /** Row id (spec §3): the device id and the day. */
  id: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  statsticDate: z.string(),
  /** 'final': computed after its day ended; 'partial': the day was still running (figures still grow). */
  statsticState: z.enum(['final', 'partial']),
  ...totalsFields,
});
const deviceTotalsSchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  ...totalsFields,
  days: z.number(),
});
const userTotalsSchema = z.object({
  userId: z.string(),
  username: z.string(),
  nickname: z.string(),
  deviceCount: z.number(),
  ...totalsFields,
  days: z.number(),
});
const staySchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  seconds: z.number(),
  lat: z.number(),
  lon: z.number(),
  accOnSeconds: z.number(),
  /** Where: the nearest populated place from the built-in index, in the caller's language ('' far from any). */
  address: z.string(),
});
const tripSchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  seconds: z.number(),
  startLat: z.number(),
  startLon: z.number(),
  endLat: z.number(),
  endLon: z.number(),
  distance: z.number(),
  avgSpeed: z.number(),
  maxSpeed: z.number(),
  /** The driver at the trip's start ('' when none known). */
  driver: z.string(),
  /** The places of the trip's start and end (built-in index, the caller's language). */
  startAddress: z.string(),
  endAddress: z.string(),
});
const visitSchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  fenceId: z.string(),
  fenceName: z.string(),
  enterTime: z.string().nullable(),
  exitTime: z.string().nullable(),
  seconds: z.number(),
});
const alarmCountSchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  type: z.number(),
  count: z.number(),
});
const alarmRowSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  displayName: z.string(),
  type: z.number(),
  name: z.string(),
  time: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  speed: z.number().nullable(),
});
const pastDueSchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  userId: z.string().nullable(),
  username: z.string(),
  platformExpireTime: z.string().nullable(),
  userExpireTime: z.string().nullable(),
  platformDue: z.boolean(),
  userDue: z.boolean(),
});
const batterySchema = z.object({
  terminalID: z.string(),
  displayName: z.string(),
  /** % as last reported */
  battery: z.number().nullable(),
  /** battery-pack voltage, V */
  voltage: z.number().nullable(),
  state: z.enum(['charging', 'discharging', 'idle']).nullable(),
  hasPack: z.boolean(),
  time: z.string().nullable(),
  low: z.boolean(),
});
const batteryAlarmDaySchema = z.object({ statsticDate: z.string(), type: z.number(), count: z.number() });

/** One page of a full list. */
export function page<T>(list: T[], pageNum: number, pageSize: number): { total: number; list: T[] } {
  const from = (pageNum - 1) * pageSize;
  return { total: list.length, list: from === 0 && list.length <= pageSize ? list : list.slice(from, from + pageSize) };
}

export async function statRoutes(app: App, ctx: AppContext): Promise<void> {
  const schema = (summary: string, body: z.ZodTypeAny, item: z.ZodTypeAny) => ({
    tags: ['stat'],
    summary,
    body,
    response: { 200: envelopeOf(pageOf(item)) },
  });

  app.post(
    '/stat/find',
    {
      config: { permission: [...STAT_PERMISSIONS.mileage] },
      schema: schema('Daily statistics rows: one per device and day', statFindBody, dailySchema),
    },
    async (req, reply) => {
      const b = req.body as z.infer<typeof statFindBody>; // validated by the route's schema
      // Up to 100,000 rows: the page is written as JSON text by the database (daily.ts dailyPageJson, the
      // fields of dailySchema) and sent on piece by piece, without an object per row, the schema serializer
      // or one joined string.
      const page = await statFindJson(ctx, req.user!, b, (b.pageNum - 1) * b.pageSize, b.pageSize);
      const envelope = JSON.stringify(ok(null));
      const before = envelope.slice(0, -'null}'.length);
      const bytes = pageJsonBytes(page, before, '}');
      if (bytes) {
        return reply
          .type('application/json; charset=utf-8')
          .header('content-length', bytes.length)
          .send(Readable.from(bytes.pieces, { objectMode: false }) as never);
      }
      function* body() {
        yield before;
        yield* pageJsonPieces(page);
        yield '}';
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(body(), { objectMode: false }) as never);
    },
  );

  app.post(
    '/stat/findAllMileage',
    {
      config: { permission: [...STAT_PERMISSIONS.mileage] },
      schema: schema('Per device totals over a range', statFindBody, deviceTotalsSchema),
    },
    async (req) => {
      const b = statFindBody.parse(req.body);
      return ok(page(await findAllMileage(ctx, req.user!, b), b.pageNum, b.pageSize));
    },
  );

  app.post(
    '/stat/findByUserIds',
    {
      config: { permission: [...STAT_PERMISSIONS.mileage] },
      schema: schema("Per account totals (each account's subtree)", byUserIdsBody, userTotalsSchema),
    },
    async (req) => {
      const b = byUserIdsBody.parse(req.body);
      return ok(page(await findByUserIds(ctx, req.user!, b), b.pageNum, b.pageSize));
    },
  );

  app.post(
    '/stay/find',
    {
      config: { permission: [...STAT_PERMISSIONS.stay] },
      schema: schema('Stays (stop points) in time order', staysBody, staySchema),
    },
    async (req) => {
      const b = staysBody.parse(req.body);
      const p = page(await stays(ctx, req.user!, b), b.pageNum, b.pageSize);
      return ok({ total: p.total, list: withStayAddresses(p.list, await placesIn(callerLang(req))) });
    },
  );

  app.post(
    '/stat/trips',
    {
      config: { permission: [...STAT_PERMISSIONS.trips] },
      schema: schema('Trips between stays', tripsBody, tripSchema),
    },
    async (req) => {
      const b = tripsBody.parse(req.body);
      const p = page(await trips(ctx, req.user!, b), b.pageNum, b.pageSize);
      return ok({ total: p.total, list: withTripAddresses(p.list, await placesIn(callerLang(req))) });
    },
  );

  app.post(
    '/stat/fenceVisits',
    {
      config: { permission: [...STAT_PERMISSIONS.alarms] },
      schema: schema('Fence visits from fence alarms', fenceVisitsBody, visitSchema),
    },
    async (req) => {
      const b = fenceVisitsBody.parse(req.body);
      return ok(page(await fenceVisits(ctx, req.user!, b), b.pageNum, b.pageSize));
    },
  );

  app.post(
    '/stat/alarms',
    {
      config: { permission: [...STAT_PERMISSIONS.alarms] },
      schema: {
        tags: ['stat'],
        summary: 'Alarm counts per device and code; with rows: true also the alarm rows behind them (paged)',
        body: alarmsBody,
        response: {
          200: envelopeOf(
            z.object({ total: z.number(), list: z.array(alarmCountSchema), rows: pageOf(alarmRowSchema).optional() }),
          ),
        },
      },
    },
    async (req) => {
      const b = alarmsBody.parse(req.body);
      const { devices, counts } = await alarmCounts(ctx, req.user!, b);
      if (!b.rows) return ok({ total: counts.length, list: counts });
      const rows = await alarmRows(ctx, devices, b, { offset: (b.pageNum - 1) * b.pageSize, limit: b.pageSize });
      return ok({ total: counts.length, list: counts, rows });
    },
  );

  app.post(
    '/stat/pastDue',
    {
      config: { permission: [...STAT_PERMISSIONS.pastDue] },
      schema: schema('Devices by platform and user expiry', pastDueBody, pastDueSchema),
    },
    async (req) => {
      const b = pastDueBody.parse(req.body);
      return ok(page(await pastDue(ctx, req.user!, b), b.pageNum, b.pageSize));
    },
  );

  app.post(
    '/stat/battery',
    {
      config: { permission: [...STAT_PERMISSIONS.battery] },
      schema: {
        tags: ['stat'],
        summary: 'Battery count: per device the last level, and how many are low',
        body: batteryBody,
        response: {
          200: envelopeOf(z.object({ total: z.number(), lowCount: z.number(), list: z.array(batterySchema) })),
        },
      },
    },
    async (req) => {
      const b = batteryBody.parse(req.body);
      const all = await battery(ctx, req.user!, b);
      const lowCount = all.reduce((n, r) => n + (r.low ? 1 : 0), 0);
      return ok({ ...page(all, b.pageNum, b.pageSize), lowCount });
    },
  );

  app.post(
    '/stat/batteryAlarms',
    {
      config: { permission: [...STAT_PERMISSIONS.battery] },
      schema: schema(
        'Battery alarms per day and code (low battery 14/15/18, battery pack 50–80), from the daily rows',
        statFindBody,
        batteryAlarmDaySchema,
      ),
    },
    async (req) => {
      const b = statFindBody.parse(req.body);
      return ok(page(await batteryAlarmsPerDay(ctx, req.user!, b), b.pageNum, b.pageSize));
    },
  );

  await exportRoutes(app, ctx);
  await speedLimitRoutes(app, ctx);
}
