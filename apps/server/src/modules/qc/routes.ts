// QC and serial results (spec §2 /test/exportSerialResult and /test/qc, §7 serials): uploads from test
// stations (v1 line text, v2 JSON; API key or session), criteria per model (configList), search and export.
import { parseSerialV1, type SerialResult } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { factoryNeeds } from '../stock/needs.ts';
import { sendXlsx } from '../stock/sheet.ts';
import { recordResults, searchQc } from './service.ts';
import { authorizeUpload } from './upload.ts';

const MAX_UPLOAD = 50_000;
const EXPORT_MAX = 100_000;

const outcomeSchema = z.object({
  accepted: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  results: z.array(z.object({ imei: z.string(), pass: z.boolean(), failures: z.array(z.string()) })),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});

const measure = z.number().min(0).max(100_000).nullable().optional();
const v2Result = z.object({
  imei: z.string().regex(/^[A-Za-z0-9]{10,15}$/),
  model: z.string().max(40).default(''),
  firmware: z.string().max(80).nullable().optional(),
  /** When the station tested the device (ISO 8601); default: when received. */
  testedAt: z.string().datetime({ offset: true }).optional(),
  gsm: z.object({ csq: measure }).optional(),
  gps: z.object({ satellites: measure, bestCn0: measure, ttffSeconds: measure }).optional(),
  /** The station's own verdict. */
  pass: z.boolean().nullable().optional(),
});
export const serialV2Schema = z.object({
  station: z.string().max(60).default(''),
  batch: z.string().max(60).default(''),
  /** 'function': a full production test (serialResultManagerV2); 'gps': a GPS test only (serialGPSResultManager). */
  type: z.enum(['function', 'gps']).default('function'),
  results: z.array(v2Result).min(1).max(MAX_UPLOAD),
});

const filterSchema = z.object({
  kind: z.enum(['v1', 'v2', 'gps']).optional(),
  imei: z.string().max(15).optional(),
  batch: z.string().max(60).optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  pass: z.boolean().optional(),
});
const itemSchema = z.object({
  id: z.string(),
  kind: z.enum(['v1', 'v2', 'gps']),
  imei: z.string(),
  model: z.string(),
  batch: z.string(),
  station: z.string(),
  firmware: z.string().nullable(),
  gsm: z.number().nullable(),
  satellites: z.number().nullable(),
  cn0: z.number().nullable(),
  ttff: z.number().nullable(),
  stationPass: z.boolean().nullable(),
  pass: z.boolean(),
  failures: z.array(z.string()),
  testedAt: z.string(),
});
const page = { pageNum: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(15) };
const criteriaSchema = z.object({
  model: z.string().trim().min(1).max(40),
  minSatellites: z.number().int().min(0).max(99).nullable(),
  minCn0: z.number().min(0).max(99).nullable(),
  minGsm: z.number().int().min(0).max(31).nullable(),
  firmware: z.string().trim().max(80).nullable(),
});

export async function qcRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/serials/v1',
    {
      config: { public: true },
      // The API key or session is checked on request, before the body is read (as for every other route).
      onRequest: async (req) => {
        await authorizeUpload(ctx, req);
      },
      schema: {
        tags: ['serials'],
        summary:
          'Upload v1 results (API key in x-api-key, or a session): text/plain, one result a line: ' +
          'IMEI,MODEL,FIRMWARE,GSM,SATELLITES,CN0,RESULT[,BATCH[,TTFF]] (comma, tab or semicolon; RESULT PASS|OK|1 or FAIL|NG|0; ' +
          "'#' lines skipped). Or JSON {text, station}. Answers each verdict against the model's criteria and the malformed lines",
        security: [{ apiKey: [] }, { session: [] }],
        body: z.union([
          z.string().max(10_000_000),
          z.object({ text: z.string().max(10_000_000), station: z.string().max(60).default('') }),
        ]),
        response: { 200: envelopeOf(outcomeSchema) },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const body =
        typeof req.body === 'string' ? { text: req.body, station: String(req.headers['x-station'] ?? '') } : req.body;
      const { results, errors } = parseSerialV1(body.text, body.station.slice(0, 60));
      if (results.length > MAX_UPLOAD) throw new ApiError(400, 'file.tooManyRows', 400, { max: MAX_UPLOAD });
      if (results.length === 0 && errors.length === 0) throw new ApiError(400, 'file.unreadable', 400);
      const outcome = await recordResults(ctx, 'v1', results);
      return ok({
        ...outcome,
        errors: errors.map((e) => ({
          line: e.line,
          message: translate('serial.line', lang, { line: e.line, problem: e.problem }),
        })),
      });
    },
  );

  app.post(
    '/serials/v2',
    {
      config: { public: true },
      // The API key or session is checked on request, before the body is read (as for every other route).
      onRequest: async (req) => {
        await authorizeUpload(ctx, req);
      },
      schema: {
        tags: ['serials'],
        summary:
          'Upload v2 results as JSON (API key in x-api-key, or a session). type "gps" records GPS tests (satellites seen, ' +
          'best C/N0, time to first fix). Each result is judged against its model’s criteria',
        security: [{ apiKey: [] }, { session: [] }],
        body: serialV2Schema,
        response: { 200: envelopeOf(outcomeSchema) },
      },
    },
    async (req) => {
      const { station, batch, type, results } = req.body;
      const normalized: SerialResult[] = results.map((r) => ({
        imei: r.imei,
        model: r.model,
        firmware: r.firmware ?? null,
        batch,
        station,
        gsm: r.gsm?.csq ?? null,
        satellites: r.gps?.satellites ?? null,
        cn0: r.gps?.bestCn0 ?? null,
        ttff: r.gps?.ttffSeconds ?? null,
        stationPass: r.pass ?? null,
        testedAt: r.testedAt ? Date.parse(r.testedAt) : null,
      }));
      const outcome = await recordResults(ctx, type === 'gps' ? 'gps' : 'v2', normalized);
      return ok({ ...outcome, errors: [] });
    },
  );

  for (const [url, permission, summary] of [
    [
      '/serials/find',
      factoryNeeds('serialResults'),
      'Serial results (v1, v2, gps) by IMEI prefix, batch, date and verdict',
    ],
    [
      '/qc/find',
      factoryNeeds('qc'),
      'QC search by IMEI prefix, batch, date and pass/fail (newest first; total counted up to 10000)',
    ],
  ] as const) {
    app.post(
      url,
      {
        config: { permission: [...permission] },
        schema: {
          tags: ['qc'],
          summary,
          body: filterSchema.extend(page),
          response: {
            200: envelopeOf(z.object({ total: z.number().int(), more: z.boolean(), list: z.array(itemSchema) })),
          },
        },
      },
      async (req) => {
        const { pageNum, pageSize, ...filter } = req.body;
        return ok(await searchQc(ctx, filter, { pageNum, pageSize }));
      },
    );
  }

  app.get(
    '/qc/export',
    {
      config: { permission: factoryNeeds('qc') },
      schema: {
        tags: ['qc'],
        summary: `QC results matching the filter as xlsx (at most ${EXPORT_MAX} rows)`,
        querystring: filterSchema.extend({ pass: z.enum(['true', 'false']).optional() }),
      },
    },
    async (req, reply) => {
      const { pass, ...rest } = req.query;
      const lang = callerLang(req);
      const found = await searchQc(
        ctx,
        { ...rest, pass: pass === undefined ? undefined : pass === 'true' },
        { pageNum: 1, pageSize: EXPORT_MAX },
      );
      const cn = lang === 'cn';
      return sendXlsx(
        reply,
        'qc',
        [
          { header: 'IMEI', key: 'imei', width: 18 },
          { header: cn ? '型号' : 'Model', key: 'model', width: 12 },
          { header: cn ? '批次' : 'Batch', key: 'batch', width: 12 },
          { header: cn ? '工位' : 'Station', key: 'station', width: 12 },
          { header: cn ? '固件' : 'Firmware', key: 'firmware', width: 16 },
          { header: 'GSM', key: 'gsm', width: 8 },
          { header: cn ? '卫星数' : 'Satellites', key: 'satellites', width: 10 },
          { header: 'C/N0', key: 'cn0', width: 8 },
          { header: 'TTFF (s)', key: 'ttff', width: 9 },
          { header: cn ? '结果' : 'Result', key: 'result', width: 8 },
          { header: cn ? '不合格项' : 'Failures', key: 'failures', width: 24 },
          { header: cn ? '测试时间' : 'Tested at', key: 'testedAt', width: 22 },
          { header: cn ? '类型' : 'Kind', key: 'kind', width: 6 },
        ],
        found.list.map((r) => ({ ...r, result: r.pass ? 'PASS' : 'FAIL', failures: r.failures.join(', ') })),
      );
    },
  );

  app.post(
    '/serials/config/find',
    {
      config: { permission: factoryNeeds('testConfigView') },
      schema: {
        tags: ['serials'],
        summary: 'QC pass criteria per model (configList)',
        response: { 200: envelopeOf(z.array(criteriaSchema.extend({ updatedAt: z.string() }))) },
      },
    },
    async () => {
      const rows = await ctx.db.selectFrom('qc_criteria').selectAll().orderBy('model').execute();
      return ok(
        rows.map((r) => ({
          model: r.model,
          minSatellites: r.min_satellites,
          minCn0: r.min_cn0,
          minGsm: r.min_gsm,
          firmware: r.firmware,
          updatedAt: r.updated_at.toISOString(),
        })),
      );
    },
  );

  app.post(
    '/serials/config/save',
    {
      config: { permission: factoryNeeds('testConfig') },
      schema: {
        tags: ['serials'],
        summary: 'Create or replace the pass criteria of a model; results arriving afterwards are judged by them',
        body: criteriaSchema,
        response: { 200: envelopeOf(criteriaSchema) },
      },
    },
    async (req) => {
      const c = req.body;
      const values = {
        model: c.model,
        min_satellites: c.minSatellites,
        min_cn0: c.minCn0,
        min_gsm: c.minGsm,
        firmware: c.firmware ? c.firmware : null,
        updated_at: new Date(),
      };
      await ctx.db
        .insertInto('qc_criteria')
        .values(values)
        .onConflict((oc) => oc.column('model').doUpdateSet(values))
        .execute();
      return ok({ ...c, firmware: values.firmware });
    },
  );

  app.post(
    '/serials/config/delete',
    {
      config: { permission: factoryNeeds('testConfig') },
      schema: {
        tags: ['serials'],
        summary: 'Remove the pass criteria of a model',
        body: z.object({ model: z.string().trim().min(1).max(40) }),
        response: { 200: envelopeOf(z.object({ deleted: z.number().int() })) },
      },
    },
    async (req) => {
      const res = await ctx.db.deleteFrom('qc_criteria').where('model', '=', req.body.model).executeTakeFirst();
      return ok({ deleted: Number(res.numDeletedRows) });
    },
  );
}
