// /api/transferIp/*: move devices to another server (spec §2 /test/transferIp/*). send makes a task of kind
// transferIp; results pages through one task's (or every task's) per-device results; search and export look
// across many devices' results by IMEI list, time and status. Factory staff work on the factory's whole fleet.
import { neutraliseRow, TASK_ITEM_STATES } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { loadDeviceTypes } from '../deviceTypes/store.ts';
import { terminalIdSchema } from '../location/params.ts';
import { MAX_TASK_DEVICES, terminalIdsOf } from '../tasks/routes.ts';
import { TransferIpService } from './service.ts';

declare module '../../context.ts' {
  interface AppServices {
    transferIp: TransferIpService;
  }
}

const SEND = ['factory:transfer_ip'];
const RESULT = ['factory:transfer_ip', 'factory:transfer_ip_result', 'factory:transfer_ip_results'];
const SEARCH = ['factory:transfer_ip', 'factory:transfer_ip_results'];
const EXPORT_MAX = 50_000;

/** A host name or IPv4 address the GT06 SERVER command and the JT/T 808 0x8103 can carry. */
export const hostSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9.-]+$/, 'a domain name or an IPv4 address');

const resultSchema = z.object({
  taskId: z.string(),
  terminalID: z.string(),
  host: z.string(),
  port: z.number().int(),
  status: z.enum(TASK_ITEM_STATES),
  reply: z.string().nullable(),
  detail: z.string(),
  sentTime: z.string().nullable(),
  replyTime: z.string().nullable(),
  createdAt: z.string(),
});

const timeSchema = z.string().datetime({ offset: true });
const searchFilter = z.object({
  terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
  text: z
    .string()
    .max(MAX_TASK_DEVICES * 24)
    .optional(),
  status: z.enum(TASK_ITEM_STATES).optional(),
  from: timeSchema.optional(),
  to: timeSchema.optional(),
  /** A model of the caller's device-type list (/deviceType/list): the stock's model name or a device type's name. */
  model: z.string().trim().min(1).max(64).optional(),
});

/** The device-type codes named `model` (the list of other roles holds type names). */
async function modelCodes(ctx: AppContext, model: string | undefined): Promise<number[]> {
  if (!model) return [];
  return (await loadDeviceTypes(ctx.db)).filter((t) => t.name === model).map((t) => t.deviceType);
}

function imeisOf(body: { terminalIDs?: string[]; text?: string }): string[] {
  const ids = terminalIdsOf(body);
  if (ids.length > MAX_TASK_DEVICES) throw badRequest('invalidParam', { field: 'terminalIDs' });
  for (const t of ids) if (!terminalIdSchema.safeParse(t).success) throw badRequest('invalidParam', { field: 'text' });
  return ids;
}

export async function transferIpRoutes(app: App, ctx: AppContext): Promise<void> {
  const service = new TransferIpService(ctx, (err) => app.log.error({ err }, 'transfer IP: applying a host failed'));
  ctx.services.transferIp = service;
  app.addHook('onClose', async () => service.close());

  app.post(
    '/transferIp/send',
    {
      config: { permission: SEND },
      schema: {
        tags: ['transferIp'],
        summary:
          'Move up to 10,000 devices to host:port: GT06 `SERVER,<0 IP|1 domain>,host,port,0#`, JT/T 808 0x8103 main server (2013: 0x0013 + 0x0018; 2019: 0x0013 host:port). One task; offline devices are served at their next connection; a success changes the device’s recorded host',
        body: z
          .object({
            terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
            text: z
              .string()
              .max(MAX_TASK_DEVICES * 24)
              .optional(),
            host: hostSchema,
            port: z.number().int().min(1).max(65535),
          })
          .refine((b) => terminalIdsOf(b).length > 0, { message: 'no devices', path: ['terminalIDs'] }),
        response: { 200: envelopeOf(z.object({ taskId: z.string(), total: z.number().int() })) },
      },
    },
    async (req) => {
      const terminalIds = imeisOf(req.body);
      const task = await service.send(
        req.user!,
        { terminalIds, host: req.body.host, port: req.body.port },
        callerLang(req),
      );
      return ok({ taskId: String(task.id), total: task.total });
    },
  );

  app.post(
    '/transferIp/results',
    {
      config: { permission: RESULT },
      schema: {
        tags: ['transferIp'],
        summary:
          'Per-device results of one transfer-IP task (or of all of them), newest first: status pending, sent, success, failed, timeout, cancelled; the reply; sent and reply times',
        body: z.object({
          taskId: z
            .string()
            .regex(/^\d{1,18}$/)
            .optional(),
          terminalID: z
            .string()
            .trim()
            .regex(/^[0-9A-Za-z]{1,32}$/)
            .optional(),
          status: z.enum(TASK_ITEM_STATES).optional(),
          /** A model of the caller's device-type list (/deviceType/list). */
          model: z.string().trim().min(1).max(64).optional(),
          ...pageQuery,
        }),
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => ok(await service.results({ ...req.body, modelCodes: await modelCodes(ctx, req.body.model) })),
  );

  app.post(
    '/transferIp/search',
    {
      config: { permission: SEARCH },
      schema: {
        tags: ['transferIp'],
        summary: 'Transfer-IP results of many devices: by IMEI list, time (item created) and status',
        body: searchFilter.extend(pageQuery),
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => {
      const { text, terminalIDs, ...rest } = req.body;
      const codes = await modelCodes(ctx, rest.model);
      return ok(await service.results({ ...rest, modelCodes: codes, terminalIDs: imeisOf({ text, terminalIDs }) }));
    },
  );

  app.post(
    '/transferIp/export',
    {
      config: { permission: SEARCH },
      schema: {
        tags: ['transferIp'],
        summary: `The search as xlsx (at most ${EXPORT_MAX} rows)`,
        body: searchFilter,
      },
    },
    async (req, reply) => {
      const { text, terminalIDs, ...rest } = req.body;
      const found = await service.results({
        ...rest,
        modelCodes: await modelCodes(ctx, rest.model),
        terminalIDs: imeisOf({ text, terminalIDs }),
        pageNum: 1,
        pageSize: EXPORT_MAX,
      });
      const cn = callerLang(req) === 'cn';
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('transferIp');
      sheet.columns = [
        { header: 'IMEI', key: 'terminalID', width: 18 },
        { header: cn ? '任务' : 'Task', key: 'taskId', width: 8 },
        { header: cn ? '地址' : 'Host', key: 'host', width: 22 },
        { header: cn ? '端口' : 'Port', key: 'port', width: 8 },
        { header: cn ? '状态' : 'Status', key: 'status', width: 10 },
        { header: cn ? '回复' : 'Reply', key: 'reply', width: 30 },
        { header: cn ? '发送时间' : 'Sent', key: 'sentTime', width: 24 },
        { header: cn ? '回复时间' : 'Replied', key: 'replyTime', width: 24 },
      ];
      for (const r of found.list) sheet.addRow(neutraliseRow({ ...r, reply: r.reply ?? r.detail }));
      const buffer = await book.xlsx.writeBuffer();
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="transfer-ip.xlsx"')
        .send(Buffer.from(buffer as ArrayBuffer));
    },
  );
}
