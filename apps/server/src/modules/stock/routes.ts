// Stock endpoints (spec §2 /test/stock, §7 stock): list, preset IMEI import, device import, Removal, and the
// "factory checks" system setting. Imports run as jobs with progress (agent/jobs.ts, like the accounts area).
import { STOCK_STATES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { trackJobsOnClose } from '../agent/jobs.ts';
import { idSchema } from '../agent/schema.ts';
import { factoryChecksOn, setFactoryChecks } from './facts.ts';
import { importPresetImeis, importStockDevices } from './imports.ts';
import { importRoute, jobRoutes } from './jobRoutes.ts';
import { factoryNeeds } from './needs.ts';
import { destinationAgents, loadDestinationAgent, stockOut } from './out.ts';
import { findStock } from './queries.ts';

export const STOCK_IMPORT_MAX_ROWS = 200_000;

const countsSchema = z.object({
  success: z.number().int(),
  failure: z.number().int(),
  unqualified: z.number().int(),
  noFactoryTest: z.number().int(),
  notPreset: z.number().int(),
  alreadyStocked: z.number().int(),
  rejected: z.array(z.object({ line: z.number().int(), value: z.string(), reason: z.string(), message: z.string() })),
});

const stockItemSchema = z.object({
  imei: z.string(),
  model: z.string(),
  batch: z.string(),
  iccid: z.string(),
  preset: z.boolean(),
  state: z.enum(['unused', 'in', 'out']),
  qcPass: z.boolean().nullable(),
  inAt: z.string().nullable(),
  outAt: z.string().nullable(),
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  createdAt: z.string(),
});

export async function stockRoutes(app: App, ctx: AppContext): Promise<void> {
  trackJobsOnClose(app, ctx);

  app.post(
    '/stock/find',
    {
      config: { permission: factoryNeeds('stockView') },
      schema: {
        tags: ['stock'],
        summary:
          'Stock records. state is derived from the device row: unused (preset only, no device), in (device without owner), out (delivered)',
        body: z.object({
          imei: z.string().max(20).optional(),
          model: z.string().max(40).optional(),
          batch: z.string().max(60).optional(),
          state: z.enum(STOCK_STATES as ['unused', 'in', 'out']).optional(),
          pageNum: z.number().int().min(1).default(1),
          pageSize: z.number().int().min(1).max(100).default(15),
        }),
        response: { 200: envelopeOf(z.object({ total: z.number().int(), list: z.array(stockItemSchema) })) },
      },
    },
    async (req) => ok(await findStock(ctx, req.body)),
  );

  importRoute(app, ctx, {
    url: '/stock/importImei',
    kind: 'stockImei',
    permission: factoryNeeds('stockImportImei'),
    tag: 'stock',
    summary:
      'Put IMEIs on the preset list (first cell of each row; text, csv or xlsx). Answers the job; poll GET /stock/importJob?kind=stockImei',
    maxRows: STOCK_IMPORT_MAX_ROWS,
    fields: { model: z.string().max(40).optional(), batch: z.string().max(60).optional() },
    work: (rows, body, lang, progress) => importPresetImeis(ctx, rows, body, lang, progress),
  });

  importRoute(app, ctx, {
    url: '/stock/importDevice',
    kind: 'stockDevice',
    permission: factoryNeeds('stockImportDevice'),
    tag: 'stock',
    summary:
      'Bring produced devices into stock: rows IMEI, model [, ICCID]. Each must be preset, have a factory test record ' +
      'and a passing latest QC result, and not be stocked already. Answers the job; poll GET /stock/importJob?kind=stockDevice',
    maxRows: STOCK_IMPORT_MAX_ROWS,
    fields: {
      model: z.string().max(40).optional(),
      batch: z.string().max(60).optional(),
      protocol: z.number().int().min(0).max(4).default(2),
    },
    work: (rows, body, lang, progress) => importStockDevices(ctx, rows, body, lang, progress),
  });

  jobRoutes(app, ctx, '/stock', ['stockImei', 'stockDevice'], factoryNeeds('stockJobs'), 'stock');

  app.post(
    '/stock/agents',
    {
      config: { permission: factoryNeeds('stockOut') },
      schema: {
        tags: ['stock'],
        summary: 'Agent accounts devices may be delivered to (below the caller’s organisation), by username keyword',
        body: z.object({ keyword: z.string().max(50).default('') }),
        response: {
          200: envelopeOf(z.array(z.object({ id: z.string(), username: z.string(), nickname: z.string() }))),
        },
      },
    },
    async (req) => {
      const rows = await destinationAgents(ctx, req.user!, req.body.keyword);
      return ok(rows.map((r) => ({ id: r.id, username: r.username, nickname: r.nickname })));
    },
  );

  app.post(
    '/stock/out',
    {
      config: { permission: factoryNeeds('stockOut') },
      schema: {
        tags: ['stock'],
        summary: 'Removal: deliver devices in stock (IMEI lines) into an agent’s account',
        body: z.object({ agentId: idSchema, text: z.string().min(1).max(2_000_000) }),
        response: { 200: envelopeOf(countsSchema) },
      },
    },
    async (req) => {
      const agent = await loadDestinationAgent(ctx, req.user!, req.body.agentId);
      return ok(await stockOut(ctx, req.user!, agent, req.body.text, callerLang(req)));
    },
  );

  app.get(
    '/stock/factoryChecks',
    {
      config: { permission: factoryNeeds('factoryChecksView') },
      schema: {
        tags: ['stock'],
        summary: 'Whether the customer device import applies the factory checks (preset list, factory test, QC pass)',
        response: { 200: envelopeOf(z.object({ enabled: z.boolean() })) },
      },
    },
    async () => ok({ enabled: await factoryChecksOn(ctx) }),
  );

  app.post(
    '/stock/factoryChecks',
    {
      config: { permission: factoryNeeds('factoryChecksSet') },
      schema: {
        tags: ['stock'],
        summary: 'Switch the factory checks of the customer device import on or off (off on a new install)',
        body: z.object({ enabled: z.boolean() }),
        response: { 200: envelopeOf(z.object({ enabled: z.boolean() })) },
      },
    },
    async (req) => {
      await setFactoryChecks(ctx, req.body.enabled);
      return ok({ enabled: req.body.enabled });
    },
  );
}
