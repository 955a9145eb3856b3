// /api/deviceAlarms/* — alarm lists (read / unread), read-state changes, deletion, addresses, export (spec §7).
import {
  alarmLabel,
  DEFAULT_TIME_ZONE,
  formatDateTime,
  isLanguage,
  isValidTimeZone,
  neutraliseRow,
} from '@carhere/domain';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { reachableUserPath } from '../location/devices.ts';
import { coordTypeSchema, flagSchema, idSchema, instantSchema, terminalIdSchema } from '../location/params.ts';
import { offlineAddresser } from '../map/offline/places.ts';
import {
  type AlarmRow,
  alarmColumns,
  alarmQuery,
  alarmSchema,
  findAlarms,
  markRead,
  reachableAlarmIds,
} from './queries.ts';

const ALARMS = ['main:alarms'];
/** An export holds at most this many rows. */
export const EXPORT_MAX_ROWS = 50_000;

const filterFields = {
  terminalID: terminalIdSchema.optional(),
  startTime: instantSchema.optional(),
  endTime: instantSchema.optional(),
  type: z.coerce.number().int().min(0).max(32767).optional(),
  read: flagSchema.optional(),
  /** Coordinate system of the answer's positions (default WGS-84). */
  coordType: coordTypeSchema.optional(),
};
const listBody = z.object({ ...filterFields, deviceIds: z.array(idSchema).max(1000).optional(), ...pageQuery });
const listQuery = z.object({ ...filterFields, ...pageQuery });
const idsBody = z.object({ ids: z.array(idSchema).min(1).max(10_000) });
const countSchema = (key: string) => envelopeOf(z.object({ [key]: z.number() }));

export async function alarmRoutes(app: App, ctx: AppContext): Promise<void> {
  const list = { tags: ['alarms'], response: { 200: envelopeOf(pageOf(alarmSchema)) } };

  app.post(
    '/deviceAlarms/findAll',
    {
      config: { permission: ALARMS },
      schema: { ...list, summary: 'Alarms of the devices in reach, newest first', body: listBody },
    },
    async (req) => ok(await findAlarms(ctx, req.user!, req.body, req.body, callerLang(req))),
  );

  app.get(
    '/deviceAlarms/findAll',
    {
      config: { permission: ALARMS },
      schema: { ...list, summary: 'Alarms (query parameters)', querystring: listQuery },
    },
    async (req) => ok(await findAlarms(ctx, req.user!, req.query, req.query, callerLang(req))),
  );

  app.post(
    '/deviceAlarms/findAllById',
    {
      config: { permission: ALARMS },
      schema: {
        ...list,
        summary: "Alarms of a user's devices (children: its whole subtree)",
        body: z.object({ id: idSchema, children: flagSchema.optional(), ...filterFields, ...pageQuery }),
      },
    },
    async (req) => {
      const user = await reachableUserPath(ctx, req.user!, req.body.id);
      const owner = { ...user, children: req.body.children ?? false };
      return ok(await findAlarms(ctx, req.user!, req.body, req.body, callerLang(req), owner));
    },
  );

  app.post(
    '/deviceAlarms/save',
    {
      config: { permission: ALARMS },
      schema: {
        tags: ['alarms'],
        summary: 'Mark alarms read',
        body: idsBody,
        response: { 200: countSchema('updated') },
      },
    },
    async (req) => {
      const ids = await reachableAlarmIds(ctx, req.user!, req.body.ids);
      return ok({ updated: await markRead(ctx, req.user!, ids, true) });
    },
  );

  app.post(
    '/deviceAlarms/update',
    {
      config: { permission: ALARMS },
      schema: {
        tags: ['alarms'],
        summary: "Set one alarm's read state",
        body: z.object({ id: idSchema, read: z.boolean() }),
        response: { 200: countSchema('updated') },
      },
    },
    async (req) => {
      const ids = await reachableAlarmIds(ctx, req.user!, [req.body.id]);
      return ok({ updated: await markRead(ctx, req.user!, ids, req.body.read) });
    },
  );

  app.post(
    '/deviceAlarms/delete',
    {
      config: { permission: ALARMS },
      schema: { tags: ['alarms'], summary: 'Delete alarms', body: idsBody, response: { 200: countSchema('deleted') } },
    },
    async (req) => {
      const ids = await reachableAlarmIds(ctx, req.user!, req.body.ids);
      const res = await ctx.db.deleteFrom('alarms').where('id', 'in', ids).executeTakeFirst();
      return ok({ deleted: Number(res.numDeletedRows) });
    },
  );

  app.post(
    '/deviceAlarms/saveAlarmAddress',
    {
      config: { permission: ALARMS },
      schema: {
        tags: ['alarms'],
        summary: 'Keep the geocoded address of an alarm',
        body: z.object({ id: idSchema, address: z.string().trim().min(1).max(500) }),
        response: { 200: countSchema('updated') },
      },
    },
    async (req) => {
      const [id] = await reachableAlarmIds(ctx, req.user!, [req.body.id]);
      const res = await ctx.db
        .updateTable('alarms')
        .set({ address: req.body.address })
        .where('id', '=', id)
        .executeTakeFirst();
      return ok({ updated: Number(res.numUpdatedRows) });
    },
  );

  app.post(
    '/deviceAlarms/exportCount',
    {
      config: { permission: ALARMS },
      schema: {
        tags: ['alarms'],
        summary: `Export count (spec §7): how many alarms the same filter would export, and the export's limit (${EXPORT_MAX_ROWS} rows; the newest are kept), so a screen can say so before it starts`,
        body: z.object({ ...filterFields, deviceIds: z.array(idSchema).max(1000).optional() }),
        response: { 200: envelopeOf(z.object({ total: z.number().int(), max: z.number().int() })) },
      },
    },
    async (req) => {
      const row = await alarmQuery(ctx, req.user!, req.body)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return ok({ total: Number(row.n), max: EXPORT_MAX_ROWS });
    },
  );

  app.post(
    '/deviceAlarms/export',
    {
      config: { permission: ALARMS },
      schema: {
        tags: ['alarms'],
        summary: `Alarms as an .xlsx file (at most ${EXPORT_MAX_ROWS} rows)`,
        body: z.object({ ...filterFields, deviceIds: z.array(idSchema).max(1000).optional() }),
      },
    },
    async (req, reply) => {
      const lang = callerLang(req);
      const rows = (await alarmQuery(ctx, req.user!, req.body)
        .select(alarmColumns)
        .orderBy('a.time', 'desc')
        .limit(EXPORT_MAX_ROWS)
        .execute()) as AlarmRow[];
      const zone = isValidTimeZone(req.user!.timeZone) ? req.user!.timeZone : DEFAULT_TIME_ZONE;
      const cn = lang === 'cn';
      // Alarms whose address nobody looked up get the offline place ("3.2 km NE of Bao'an, China").
      const placeOf = await offlineAddresser(isLanguage(lang) ? lang : 'en');
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet(cn ? '报警' : 'Alarms');
      sheet.columns = [
        { header: cn ? '设备号' : 'IMEI', key: 'terminalID', width: 18 },
        { header: cn ? '设备名称' : 'Device', key: 'device', width: 18 },
        { header: cn ? '报警类型' : 'Alarm', key: 'alarm', width: 22 },
        { header: cn ? '报警时间' : 'Time', key: 'time', width: 20 },
        { header: cn ? '纬度' : 'Latitude', key: 'lat', width: 12 },
        { header: cn ? '经度' : 'Longitude', key: 'lon', width: 12 },
        { header: cn ? '速度(km/h)' : 'Speed (km/h)', key: 'speed', width: 12 },
        { header: cn ? '状态' : 'Read', key: 'read', width: 8 },
        { header: cn ? '地址' : 'Address', key: 'address', width: 40 },
      ];
      for (const r of rows) {
        sheet.addRow(
          neutraliseRow({
            terminalID: r.terminal_id,
            device: r.car_number || r.nickname || r.terminal_id,
            alarm: alarmLabel(r.type, lang),
            time: formatDateTime(r.time.getTime(), zone),
            lat: r.lat,
            lon: r.lon,
            speed: r.speed,
            read: r.read ? (cn ? '已读' : 'read') : cn ? '未读' : 'unread',
            address: r.address || placeOf(r.lat, r.lon),
          }),
        );
      }
      const buffer = Buffer.from(await book.xlsx.writeBuffer());
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="alarms.xlsx"')
        .send(buffer);
    },
  );
}
