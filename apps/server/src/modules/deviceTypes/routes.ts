// /api/deviceType/* — device types as data (issue 16; spec §7 "Device type: find, add or update, detail
// {deviceType}", "All configurations (returned rows keyed by deviceType)", spec §6 device-type lists).
// Reading the configurations is open to every signed-in account (the command, monitor, tyre and battery
// screens need them); listing for the admin screen and saving need main:devices_config (admin only by §6).
// Types are a platform-wide catalogue, not anybody's data: there is no subtree to check, except in
// /deviceType/ofDevice, which answers only for a device within the caller's reach.
import {
  DEVICE_FEATURES,
  type DeviceTypeConfig,
  deviceTypeListFor,
  isIconType,
  MENU_COMMANDS,
  PROTOCOL_TYPES,
} from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { deviceByRef } from '../location/devices.ts';
import { terminalIdSchema } from '../location/params.ts';
import { loadDeviceType, loadDeviceTypes, type StoredDeviceType, saveDeviceType } from './store.ts';

const CONFIG = ['main:devices_config'];
/** Settings key: the username of the one wanweiTest account that gets the long model list (spec §6). */
export const WANWEI_ACCOUNT_KEY = 'wanwei_test_account';
const DEFAULT_WANWEI_ACCOUNT = 'wanweiTest';

const templateSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((t) => !/[\r\n]/.test(t), 'one line');
const labelSchema = z
  .object(
    Object.fromEntries(
      ['cn', 'en', 'en-IN', 'es', 'fr', 'km', 'my', 'pt', 'ru', 'th', 'vi'].map((l) => [
        l,
        z.string().max(64).optional(),
      ]),
    ),
  )
  .partial();
const groupSchema = z.object({
  group: z.string().trim().min(1).max(32),
  commands: z
    .array(z.object({ id: z.string().trim().min(1).max(48), template: templateSchema, label: labelSchema.optional() }))
    .max(100),
});
const menuSchema = z.array(groupSchema).max(30);
const featuresSchema = z.object(
  Object.fromEntries(DEVICE_FEATURES.map((f) => [f, z.boolean()])) as Record<
    (typeof DEVICE_FEATURES)[number],
    z.ZodBoolean
  >,
);
const protocolCodes = PROTOCOL_TYPES.map((p) => p.code) as number[];

export const deviceTypeSchema = z.object({
  deviceType: z.number().int().min(0).max(9999),
  name: z.string().trim().min(1).max(32),
  protocolType: z
    .number()
    .int()
    .refine((n) => protocolCodes.includes(n), 'a protocol type code'),
  iconType: z.number().int().refine(isIconType, 'icon type 1 to 12'),
  features: featuresSchema,
  menu: menuSchema,
  protocolMenus: z.record(z.string().regex(/^[0-4]$/), menuSchema).default({}),
});
const storedSchema = deviceTypeSchema.extend({ edited: z.boolean(), updatedAt: z.string().nullable() });

const present = (t: StoredDeviceType) =>
  ({ ...t, menu: [...t.menu], protocolMenus: { ...t.protocolMenus } }) as z.infer<typeof storedSchema>;

export async function deviceTypeRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/deviceType/findAll',
    {
      schema: {
        tags: ['deviceTypes'],
        summary: 'All device-type configurations, keyed by deviceType (client state devicesConfig)',
        response: { 200: envelopeOf(z.record(z.string(), storedSchema)) },
      },
    },
    async () => {
      const all = await loadDeviceTypes(ctx.db);
      return ok(Object.fromEntries(all.map((t) => [String(t.deviceType), present(t)])));
    },
  );

  app.post(
    '/deviceType/find',
    {
      config: { permission: CONFIG },
      schema: {
        tags: ['deviceTypes'],
        summary: 'Device types, paged, optionally by name or code (device/deviceConfig)',
        body: z.object({ keyword: z.string().trim().max(32).optional(), ...pageQuery }),
        response: { 200: envelopeOf(pageOf(storedSchema)) },
      },
    },
    async (req) => {
      const q = (req.body.keyword ?? '').toLowerCase();
      const all = (await loadDeviceTypes(ctx.db)).filter(
        (t) => q === '' || t.name.toLowerCase().includes(q) || String(t.deviceType) === q,
      );
      const { pageNum, pageSize } = req.body;
      return ok({ total: all.length, list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(present) });
    },
  );

  app.post(
    '/deviceType/detail',
    {
      config: { permission: CONFIG },
      schema: {
        tags: ['deviceTypes'],
        summary: 'One device type {deviceType}: protocol, icon, features, command menus',
        body: z.object({ deviceType: z.coerce.number().int().min(0).max(9999) }),
        response: { 200: envelopeOf(storedSchema) },
      },
    },
    async (req) => ok(present(await loadDeviceType(ctx.db, req.body.deviceType))),
  );

  app.post(
    '/deviceType/addOrUpdate',
    {
      config: { permission: CONFIG },
      schema: {
        tags: ['deviceTypes'],
        summary: 'Add a device type or replace one: protocol, icon, features and command menus',
        body: deviceTypeSchema,
        response: { 200: envelopeOf(storedSchema) },
      },
    },
    async (req) => {
      const config = req.body as DeviceTypeConfig;
      const known = new Set(MENU_COMMANDS.map((c) => c.id));
      for (const menu of [config.menu, ...Object.values(config.protocolMenus)])
        for (const g of menu)
          for (const c of g.commands)
            if (!known.has(c.id) && !c.label?.en && !c.label?.cn)
              throw badRequest('command.invalidParameter', { name: c.id });
      return ok(present(await saveDeviceType(ctx.db, config, req.user!.id)));
    },
  );

  app.post(
    '/deviceType/ofDevice',
    {
      schema: {
        tags: ['deviceTypes'],
        summary: "The configuration of a device's type (a device within the caller's reach)",
        body: z.object({ terminalID: terminalIdSchema }),
        response: { 200: envelopeOf(storedSchema) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      return ok(present(await loadDeviceType(ctx.db, device.deviceType)));
    },
  );

  app.post(
    '/deviceType/list',
    {
      schema: {
        tags: ['deviceTypes'],
        summary:
          'Device-type names for the caller (spec §6): wanweiTest — the named test account the long model list, the others GW005W; other roles the configured types',
        response: { 200: envelopeOf(z.array(z.string())) },
      },
    },
    async (req) => {
      const setting = await ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', WANWEI_ACCOUNT_KEY)
        .executeTakeFirst();
      const named = typeof setting?.value === 'string' ? setting.value : DEFAULT_WANWEI_ACCOUNT;
      const server = (await loadDeviceTypes(ctx.db)).map((t) => t.name);
      return ok([...deviceTypeListFor(req.user!, server, named)]);
    },
  );
}
