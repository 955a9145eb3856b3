// /api/device/* reads: the ordered device list of a user (or its subtree) with tabs, search and expiry filter,
// tab counts, one device, devices by IMEI list, batch limits.
import { EXPIRY_FILTERS, parseImeiLines } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, noPermission } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idSchema } from '../agent/schema.ts';
import { type Caller, callerIsAdmin, loadReachableUser } from '../agent/scope.ts';
import { deviceImportRoutes } from './importRoutes.ts';
import {
  DEVICE_ROW_FIELDS,
  type DeviceListQuery,
  deviceRowById,
  deviceRowsByIds,
  listPage,
  listRowsJson,
  tabCounts,
} from './listQueries.ts';
import { deviceManageRoutes } from './manageRoutes.ts';
import { deviceItemSchema, deviceRowSchema, presentDevice } from './presenter.ts';
import { loadReachableDevice, resolveDevices } from './resolve.ts';
import { batchLimits, batchLimitsSchema, isSpecialBrandAgent, saveBatchLimits, syncServiceTerms } from './settings.ts';

const tabSchema = z.enum(['all', 'unknown', 'online', 'offline', 'unactivated', 'expired']);
const expirySchema = z.enum(EXPIRY_FILTERS.map((f) => f.id) as [string, ...string[]]);

const listFilter = {
  /** Whose devices (default: the caller). */
  userId: idSchema.optional(),
  /** Include the devices of every account below (default true). */
  includeChildren: z.boolean().default(true),
  tab: tabSchema.default('all'),
  expiry: expirySchema.default('all'),
  keyword: z.string().trim().max(50).optional(),
  /** IMEIs exempt from the special-brand hiding rule (the client's 'no process' set). */
  noProcess: z.array(z.string().max(32)).max(10_000).optional(),
};
const listFilterSchema = z.object(listFilter);

/** Pages of full items hold at most this many rows; longer lists use the 'rows' format. */
export const FULL_ITEMS_MAX = 1000;

export const countsSchema = z.object({
  all: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  unactivated: z.number().int(),
  expired: z.number().int(),
  unknown: z.number().int(),
});

/**
 * A page in the 'rows' format (format: 'rows', up to 100,000 rows a page: the whole list at once): one tuple
 * per device in the order of `fields` (DEVICE_ROW_FIELDS), nothing derived. The client derives the display
 * name, car icon state and map state code with the domain rules at `now`, when the server ordered the list.
 * Decoded by apps/web/src/features/device/deviceRows.ts.
 */
export const deviceRowsPageSchema = z.object({
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  /** Rows of the whole list (all pages): known from the last page, or from the counts (withCounts); else null. */
  total: z.number().int().nullable(),
  counts: countsSchema.nullable(),
  /** Epoch ms: the server's clock when it ordered the list. */
  now: z.number(),
  fields: z.array(z.enum(DEVICE_ROW_FIELDS)),
  rows: z.array(deviceRowSchema),
});

/** The list query for a request: the owner is checked against the caller's reach first. */
async function buildQuery(
  ctx: AppContext,
  caller: Caller,
  f: z.infer<typeof listFilterSchema>,
): Promise<DeviceListQuery> {
  const owner = await loadReachableUser(ctx, caller, f.userId ?? caller.id);
  const special = await isSpecialBrandAgent(ctx, caller);
  const wholeTree = f.includeChildren && callerIsAdmin(caller) && owner.id === caller.id;
  return {
    scope: f.includeChildren
      ? { subtreePath: wholeTree ? null : owner.path }
      : { subtreePath: owner.path, ownerId: owner.id },
    tab: f.tab,
    expiry: f.expiry as DeviceListQuery['expiry'],
    keyword: f.keyword,
    specialBrand: special ? { noProcess: f.noProcess ?? [] } : null,
    now: new Date(),
  };
}

export async function deviceRoutes(app: App, ctx: AppContext): Promise<void> {
  await syncServiceTerms(ctx);

  app.post(
    '/device/findByUserId',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['device'],
        summary:
          'The ordered device list of an account (spec §4 order) with tab, search and expiry filter. Full items ' +
          `for pages of up to ${FULL_ITEMS_MAX} rows; format 'rows' gives one tuple per device for pages of up to ` +
          '100000 (the whole list at once). withCounts adds the tab counts and the total.',
        body: z.object({
          ...listFilter,
          pageNum: z.number().int().min(1).max(1_000_000).default(1),
          pageSize: z.number().int().min(1).max(100_000).default(15),
          format: z.enum(['items', 'rows']).default('items'),
          withCounts: z.boolean().default(false),
        }),
        response: {
          200: envelopeOf(
            z.union([
              z.object({
                pageNum: z.number().int(),
                pageSize: z.number().int(),
                list: z.array(deviceItemSchema),
                /** True when a next page exists. */
                hasMore: z.boolean(),
                total: z.number().int().nullable(),
                counts: countsSchema.nullable(),
              }),
              deviceRowsPageSchema,
            ]),
          ),
        },
      },
    },
    async (req, reply) => {
      const b = req.body;
      if (b.format === 'items' && b.pageSize > FULL_ITEMS_MAX) throw badRequest('invalidParam', { field: 'pageSize' });
      const q = await buildQuery(ctx, req.user!, b);
      const offset = (b.pageNum - 1) * b.pageSize;
      const now = q.now.getTime();
      const counts = b.withCounts ? tabCounts(ctx, q) : Promise.resolve(null);
      if (b.format === 'rows') {
        const [page, c] = await Promise.all([listRowsJson(ctx, q, offset, b.pageSize), counts]);
        const head = {
          pageNum: b.pageNum,
          pageSize: b.pageSize,
          hasMore: page.hasMore,
          total: page.total ?? (c ? c[b.tab] : null),
          counts: c,
          now,
          fields: DEVICE_ROW_FIELDS,
        };
        // The rows are JSON text from the database, spliced in unparsed: for 100,000 devices, parsing and
        // encoding them again here (and the per-row response validation) would cost more than the query.
        const envelope = JSON.stringify(ok(head));
        const body = `${envelope.slice(0, -2)},"rows":${page.rows}}}`;
        return reply.type('application/json; charset=utf-8').send(body as never);
      }
      const [rows, c] = await Promise.all([listPage(ctx, q, offset, b.pageSize + 1), counts]);
      return ok({
        pageNum: b.pageNum,
        pageSize: b.pageSize,
        list: rows.slice(0, b.pageSize).map((r) => presentDevice(r, now)),
        hasMore: rows.length > b.pageSize,
        total: c ? c[b.tab] : null,
        counts: c,
      });
    },
  );

  app.post(
    '/device/countByUserId',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['device'],
        summary: 'Device counts per tab (all, online, offline, unactivated, expired) for the same filters',
        body: listFilterSchema,
        response: { 200: envelopeOf(countsSchema) },
      },
    },
    async (req) => ok(await tabCounts(ctx, await buildQuery(ctx, req.user!, req.body))),
  );

  app.post(
    '/device/findById',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['device'],
        summary: 'One device (by id or IMEI) of the caller’s subtree, with its picture',
        body: z
          .object({ id: idSchema.optional(), terminalID: z.string().trim().min(1).max(32).optional() })
          .refine((b) => b.id !== undefined || b.terminalID !== undefined, { message: 'id or terminalID' }),
        response: { 200: envelopeOf(deviceItemSchema.extend({ picture: z.string().nullable() })) },
      },
    },
    async (req) => {
      const device = await loadReachableDevice(ctx, req.user!, req.body);
      const [row, pic] = await Promise.all([
        deviceRowById(ctx, device.id),
        ctx.db.selectFrom('devices').select('picture').where('id', '=', device.id).executeTakeFirstOrThrow(),
      ]);
      if (!row) throw noPermission();
      return ok({ ...presentDevice(row, Date.now()), picture: pic.picture });
    },
  );

  app.post(
    '/device/findByImeis',
    {
      config: { permission: needs('devicesView') },
      schema: {
        tags: ['device'],
        summary: 'Devices named by IMEI lines, with their owners (transfer preview); unknown IMEIs listed apart',
        body: z.object({ text: z.string().max(2_000_000) }),
        response: {
          200: envelopeOf(
            z.object({
              list: z.array(deviceItemSchema),
              notFound: z.array(z.object({ terminalID: z.string(), message: z.string() })),
              invalid: z.array(z.object({ line: z.number().int(), value: z.string() })),
            }),
          ),
        },
      },
    },
    async (req) => {
      const parsed = parseImeiLines(req.body.text);
      const limits = await batchLimits(ctx);
      const imeis = parsed.imeis.slice(0, limits.devicesPerOperation);
      const { devices, failed } = await resolveDevices(ctx, req.user!, imeis, callerLang(req));
      const now = Date.now();
      const rows = await deviceRowsByIds(
        ctx,
        devices.map((d) => d.id),
      );
      return ok({
        list: rows.map((r) => presentDevice(r, now)),
        notFound: failed,
        invalid: parsed.invalid,
      });
    },
  );

  app.get(
    '/device/limits',
    {
      schema: {
        tags: ['device'],
        summary: 'Batch limits: devices per operation, per export, per import; agents per export; days per export',
        response: { 200: envelopeOf(batchLimitsSchema) },
      },
    },
    async () => ok(await batchLimits(ctx)),
  );

  app.post(
    '/device/limits',
    {
      config: { permission: needs('systemConfig') },
      schema: {
        tags: ['device'],
        summary: 'Change the batch limits (system configuration)',
        body: batchLimitsSchema,
        response: { 200: envelopeOf(batchLimitsSchema) },
      },
    },
    async (req) => {
      await saveBatchLimits(ctx, req.body);
      return ok(await batchLimits(ctx));
    },
  );

  await deviceManageRoutes(app, ctx);
  await deviceImportRoutes(app, ctx);
}
