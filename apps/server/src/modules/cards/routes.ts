// SIM card endpoints (spec §2 /test/card, §7 /card: import, find, check, findDeviceNumberList, export; clear).
import { normalizeIccid } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { trackJobsOnClose } from '../agent/jobs.ts';
import { callerIsAdmin } from '../agent/scope.ts';
import { resolveDevices } from '../device/resolve.ts';
import { importRoute, jobRoutes } from '../stock/jobRoutes.ts';
import { factoryNeeds } from '../stock/needs.ts';
import { sendXlsx } from '../stock/sheet.ts';
import { deviceIccidRoutes } from './deviceIccidRoutes.ts';
import { CARD_STATES, importCards } from './import.ts';
import { cardNumbers, checkCards, clearCards, findCards } from './queries.ts';

export const CARD_IMPORT_MAX_ROWS = 200_000;
const EXPORT_MAX = 100_000;

const stateEnum = z.enum(CARD_STATES as ['inactive', 'active', 'suspended', 'cancelled']);
const filterSchema = z.object({
  iccid: z.string().max(22).optional(),
  msisdn: z.string().max(20).optional(),
  imsi: z.string().max(20).optional(),
  imei: z.string().max(20).optional(),
  operator: z.string().max(40).optional(),
  state: stateEnum.optional(),
  bound: z.boolean().optional(),
});
const cardSchema = z.object({
  iccid: z.string(),
  imsi: z.string(),
  msisdn: z.string(),
  operator: z.string(),
  plan: z.string(),
  activatedOn: z.string().nullable(),
  expiresOn: z.string().nullable(),
  state: stateEnum,
  imei: z.string().nullable(),
  boundAt: z.string().nullable(),
  reportedIccid: z.string(),
});
const page = { pageNum: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(15) };
const imeiList = z.array(z.string().min(1).max(20)).max(100_000);

export async function cardRoutes(app: App, ctx: AppContext): Promise<void> {
  trackJobsOnClose(app, ctx);
  await deviceIccidRoutes(app, ctx);

  importRoute(app, ctx, {
    url: '/card/import',
    kind: 'cards',
    permission: factoryNeeds('cardSearch'),
    tag: 'card',
    summary:
      'Import SIM cards: rows ICCID, IMSI, MSISDN, operator, plan, activation date, expiry date, state ' +
      '(inactive|active|suspended|cancelled) [, IMEI]; text, csv or xlsx. Known cards are updated. Poll GET /card/importJob?kind=cards',
    maxRows: CARD_IMPORT_MAX_ROWS,
    fields: {},
    work: (rows, _body, lang, progress) => importCards(ctx, rows, lang, progress),
  });

  jobRoutes(app, ctx, '/card', ['cards'], factoryNeeds('cardSearch'), 'card');

  app.post(
    '/card/find',
    {
      config: { permission: factoryNeeds('cardSearch') },
      schema: {
        tags: ['card'],
        summary: 'Search SIM cards (prefix match on ICCID, MSISDN, IMSI, IMEI)',
        body: filterSchema.extend(page),
        response: { 200: envelopeOf(z.object({ total: z.number().int(), list: z.array(cardSchema) })) },
      },
    },
    async (req) => {
      const { pageNum, pageSize, ...filter } = req.body;
      return ok(await findCards(ctx, filter, { pageNum, pageSize }));
    },
  );

  app.get(
    '/card/export',
    {
      config: { permission: factoryNeeds('cardSearch') },
      schema: {
        tags: ['card'],
        summary: `SIM cards matching the filter as xlsx (at most ${EXPORT_MAX} rows)`,
        querystring: filterSchema.extend({ bound: z.enum(['true', 'false']).optional() }),
      },
    },
    async (req, reply) => {
      const { bound, ...rest } = req.query;
      const found = await findCards(
        ctx,
        { ...rest, bound: bound === undefined ? undefined : bound === 'true' },
        { pageNum: 1, pageSize: EXPORT_MAX },
      );
      return sendXlsx(
        reply,
        'cards',
        [
          { header: 'ICCID', key: 'iccid', width: 24 },
          { header: 'IMSI', key: 'imsi', width: 18 },
          { header: 'MSISDN', key: 'msisdn', width: 16 },
          { header: 'Operator', key: 'operator', width: 14 },
          { header: 'Plan', key: 'plan', width: 14 },
          { header: 'Activated', key: 'activatedOn', width: 12 },
          { header: 'Expires', key: 'expiresOn', width: 12 },
          { header: 'State', key: 'state', width: 11 },
          { header: 'IMEI', key: 'imei', width: 18 },
          { header: 'Reported ICCID', key: 'reportedIccid', width: 24 },
        ],
        found.list,
      );
    },
  );

  app.post(
    '/card/check',
    {
      config: { permission: factoryNeeds('cardSearch') },
      schema: {
        tags: ['card'],
        summary:
          'Match cards to devices by the ICCID devices report (brings devices.iccid and the cards in step first) and list ' +
          'mismatches: mismatch (bound card ≠ reported ICCID), unknownCard (reported ICCID without a card), notReported',
        body: z.object({ imeis: imeiList.optional(), ...page }),
        response: {
          200: envelopeOf(
            z.object({
              synced: z.number().int(),
              total: z.number().int(),
              list: z.array(
                z.object({
                  kind: z.enum(['mismatch', 'unknownCard', 'notReported']),
                  imei: z.string(),
                  cardIccid: z.string(),
                  reportedIccid: z.string(),
                  msisdn: z.string(),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (req) => ok(await checkCards(ctx, req.body.imeis, req.body)),
  );

  app.post(
    '/card/clear',
    {
      config: { permission: factoryNeeds('cardClear') },
      schema: {
        tags: ['card'],
        summary:
          'Unbind cards from their devices, by ICCID or by IMEI; the devices forget the ICCID until they report again',
        body: z
          .object({ iccids: z.array(z.string().max(22)).max(10_000).default([]), imeis: imeiList.default([]) })
          .refine((b) => b.iccids.length + b.imeis.length > 0, { message: 'iccids or imeis', path: ['iccids'] }),
        response: { 200: envelopeOf(z.object({ cleared: z.number().int() })) },
      },
    },
    async (req) => {
      const cleared = await clearCards(
        ctx,
        req.body.iccids.map(normalizeIccid),
        req.body.imeis.map((i) => i.trim()),
      );
      return ok({ cleared });
    },
  );

  app.post(
    '/card/findDeviceNumberList',
    {
      config: { permission: factoryNeeds('cardNumbers') },
      schema: {
        tags: ['card'],
        summary:
          'Card numbers (ICCID, MSISDN, IMSI, operator, expiry) of devices by IMEI; customers see their own devices only',
        body: z.object({ imeis: imeiList.min(1) }),
        response: {
          200: envelopeOf(
            z.array(
              z.object({
                imei: z.string(),
                iccid: z.string(),
                msisdn: z.string(),
                imsi: z.string(),
                operator: z.string(),
                expiresOn: z.string().nullable(),
              }),
            ),
          ),
        },
      },
    },
    async (req) => {
      const caller = req.user!;
      let imeis = req.body.imeis.map((i) => i.trim());
      const factory = req.permissions.includes('factory:card_search') || callerIsAdmin(caller);
      if (!factory) {
        const { devices } = await resolveDevices(ctx, caller, imeis, callerLang(req));
        imeis = devices.map((d) => d.terminal_id);
      }
      return ok(await cardNumbers(ctx, imeis));
    },
  );
}
