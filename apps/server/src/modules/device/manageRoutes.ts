// /api/device/* writes: edit one device, batch field updates, transfer, sale, reset, expiry changes.
import { parseImeiLines } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { int32 } from '../../http/input.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { dateInput, idSchema, text } from '../agent/schema.ts';
import { applyBulkInfo, BULK_FIELDS, type BulkLine, type BulkRow, planBulkInfo } from '../custself/bulkInfo.ts';
import { updateDevice, updateDevices } from './editService.ts';
import type { BatchResult } from './resolve.ts';
import { recalculateExpiry, resetDevices, sellDevices, setExpiry, setServiceTerm, transferDevices } from './service.ts';

const terminalIDs = z.array(z.string().trim().min(1).max(32)).min(1).max(100_000);

export const batchResultSchema = z.object({
  success: z.number().int(),
  failed: z.array(z.object({ terminalID: z.string(), message: z.string() })),
});

const batchReply = { 200: envelopeOf(batchResultSchema) };

const bulkValue = z.union([z.string().max(60), z.number().int().min(-1_000_000).max(1_000_000)]);
const bulkRows = z
  .array(
    z.object({
      terminalID: z.string().trim().min(1).max(32),
      ...Object.fromEntries(BULK_FIELDS.map((f) => [f, bulkValue.optional()])),
    }) as z.ZodType<BulkRow>,
  )
  .min(1)
  .max(10_000);
const bulkLineSchema = z.object({
  line: z.number().int(),
  terminalID: z.string(),
  status: z.enum(['change', 'unchanged', 'failed']),
  message: z.string(),
  changes: z.array(z.object({ field: z.enum(BULK_FIELDS), from: z.string(), to: z.string() })),
});

function answer(result: BatchResult & { lines?: BulkLine[] }, lang: string, okKey: string) {
  const message = result.success > 0 ? translate(okKey, lang) : translate('action.save.failure', lang);
  return ok(result, message);
}

export async function deviceManageRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/device/update',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['device'],
        summary:
          'Edit one device: name, SIM (11 or 13 letters or digits), ICCID, plate (unique), icon type 1-12, time zone, picture',
        body: z
          .object({
            id: idSchema.optional(),
            terminalID: z.string().trim().min(1).max(32).optional(),
            nickname: text(50).optional(),
            sim: text(20).optional(),
            iccid: text(30).optional(),
            carNumber: text(20).optional(),
            iconType: int32().optional(),
            timeZone: int32().optional(),
            picture: z.string().max(2_100_000).nullable().optional(),
          })
          .refine((b) => b.id !== undefined || b.terminalID !== undefined, { message: 'id or terminalID' }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const { id, terminalID, ...patch } = req.body;
      const deviceId = await updateDevice(ctx, req.user!, { id, terminalID }, patch);
      return ok({ id: deviceId }, translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/device/deletePicture',
    {
      config: { permission: needs('deviceEdit') },
      schema: {
        tags: ['device'],
        summary: 'Remove a device’s picture',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (req) => {
      const deviceId = await updateDevice(ctx, req.user!, { id: req.body.id }, { picture: null });
      return ok({ id: deviceId }, translate('action.delete.success', callerLang(req)));
    },
  );

  app.post(
    '/device/updateAll',
    {
      config: { permission: needs('devicesBulkInfo') },
      schema: {
        tags: ['device'],
        summary:
          'Set the same name, SIM, ICCID, icon type or time zone on many devices (terminalIDs); or, with rows, a ' +
          'different name, plate, SIM, ICCID, driver, driver phone, model or icon per device (device/' +
          'deviceUpdateDeviceInfo): answers a result per line (see /device/updateAllPreview)',
        body: z
          .object({
            terminalIDs: terminalIDs.optional(),
            nickname: text(50).optional(),
            sim: text(20).optional(),
            iccid: text(30).optional(),
            iconType: int32().optional(),
            timeZone: int32().optional(),
            rows: bulkRows.optional(),
          })
          .refine((b) => (b.terminalIDs === undefined) !== (b.rows === undefined), {
            message: 'terminalIDs or rows',
          }),
        response: { 200: envelopeOf(batchResultSchema.extend({ lines: z.array(bulkLineSchema).optional() })) },
      },
    },
    async (req) => {
      const { terminalIDs: ids, rows, ...patch } = req.body;
      const lang = callerLang(req);
      if (rows) {
        const plan = await planBulkInfo(ctx, req.user!, rows, lang);
        await applyBulkInfo(ctx, plan);
        const failed = plan.lines
          .filter((l) => l.status === 'failed')
          .map((l) => ({ terminalID: l.terminalID, message: l.message }));
        return answer({ success: plan.writes.size, failed, lines: plan.lines }, lang, 'action.save.success');
      }
      return answer(await updateDevices(ctx, req.user!, ids ?? [], patch, lang), lang, 'action.save.success');
    },
  );

  app.post(
    '/device/updateAllPreview',
    {
      config: { permission: needs('devicesBulkInfo') },
      schema: {
        tags: ['device'],
        summary:
          'Preview of a per-device bulk edit (the rows of /device/updateAll): per line what would change (field, from, to), or why it would fail; nothing is written',
        body: z.object({ rows: bulkRows }),
        response: { 200: envelopeOf(z.object({ lines: z.array(bulkLineSchema) })) },
      },
    },
    async (req) => {
      const plan = await planBulkInfo(ctx, req.user!, req.body.rows, callerLang(req));
      return ok({ lines: plan.lines });
    },
  );

  const single = (
    path: string,
    permission: Parameters<typeof needs>[0],
    summary: string,
    field: z.ZodTypeAny,
    toPatch: (value: never) => Parameters<typeof updateDevices>[3],
  ) =>
    app.post(
      path,
      {
        config: { permission: needs(permission) },
        schema: { tags: ['device'], summary, body: z.object({ terminalIDs, value: field }), response: batchReply },
      },
      async (req) => {
        const lang = callerLang(req);
        const patch = toPatch(req.body.value as never);
        return answer(
          await updateDevices(ctx, req.user!, req.body.terminalIDs, patch, lang),
          lang,
          'action.save.success',
        );
      },
    );

  single('/device/updateIconType', 'devicesIcon', 'Batch icon type (1-12)', int32(), (v: number) => ({
    iconType: v,
  }));
  single('/device/updateZone', 'devicesZone', 'Batch time zone (-12 … 12 hours)', int32(), (v: number) => ({
    timeZone: v,
  }));
  single('/device/updateHost', 'devicesHost', 'Batch host name', text(260), (v: string) => ({ host: v }));
  single('/device/updateDevicesType', 'devicesType', 'Batch device model code', int32(), (v: number) => ({
    deviceType: v,
  }));

  app.post(
    '/device/transfer',
    {
      config: { permission: needs('deviceTransfer') },
      schema: {
        tags: ['device'],
        summary: 'Transfer devices by IMEI to an account of the caller’s subtree',
        body: z.object({ terminalIDs, userId: idSchema }),
        response: batchReply,
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const result = await transferDevices(ctx, req.user!, req.body.terminalIDs, req.body.userId, lang);
      return answer(result, lang, 'action.transfer.success');
    },
  );

  app.post(
    '/device/userSale',
    {
      config: { permission: needs('deviceTransfer') },
      schema: {
        tags: ['device'],
        summary:
          'Sell devices to an end-user account of the caller’s subtree (userId), or give each device its own ' +
          'end-user account named by its IMEI (asDeviceAccounts): each new account gets a random password, answered ' +
          'once in data.accounts and to be changed at its first sign-in',
        body: z
          .object({ terminalIDs, userId: idSchema.optional(), asDeviceAccounts: z.boolean().optional() })
          .refine((b) => (b.userId !== undefined) !== (b.asDeviceAccounts === true), {
            message: 'userId or asDeviceAccounts',
          }),
        response: {
          200: envelopeOf(
            batchResultSchema.extend({
              accounts: z
                .array(z.object({ terminalID: z.string(), username: z.string(), password: z.string() }))
                .optional(),
            }),
          ),
        },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const target = req.body.userId !== undefined ? { userId: req.body.userId } : { asDeviceAccounts: true as const };
      return answer(await sellDevices(ctx, req.user!, req.body.terminalIDs, target, lang), lang, 'action.save.success');
    },
  );

  app.post(
    '/device/reset',
    {
      config: { permission: needs('devicesReset') },
      schema: {
        tags: ['device'],
        summary:
          'Reset devices (irreversible): deletes their tracks, alarms and commands, clears name, plate and expiry, and sets them not activated',
        body: z.object({ terminalIDs }),
        response: batchReply,
      },
    },
    async (req) => {
      const lang = callerLang(req);
      return answer(await resetDevices(ctx, req.user!, req.body.terminalIDs, lang), lang, 'action.save.success');
    },
  );

  const expiryBody = {
    platformExpireAt: dateInput.nullable().optional(),
    userExpireAt: dateInput.nullable().optional(),
  };

  app.post(
    '/device/updateTime',
    {
      config: { permission: needs('devicesExpire') },
      schema: {
        tags: ['device'],
        summary: 'Set expiries by hand; a manual platform expiry is no longer recalculated from activation',
        body: z.object({ terminalIDs, ...expiryBody }),
        response: batchReply,
      },
    },
    async (req) => {
      const { terminalIDs: ids, ...change } = req.body;
      const lang = callerLang(req);
      return answer(await setExpiry(ctx, req.user!, ids, change, lang), lang, 'action.save.success');
    },
  );

  app.post(
    '/device/updateTimeByImei',
    {
      config: { permission: needs('devicesExpire') },
      schema: {
        tags: ['device'],
        summary: 'Set expiries by hand for devices given as IMEI lines',
        body: z.object({ text: z.string().min(1).max(2_000_000), ...expiryBody }),
        response: batchReply,
      },
    },
    async (req) => {
      const { text: lines, ...change } = req.body;
      const lang = callerLang(req);
      const parsed = parseImeiLines(lines);
      const result = await setExpiry(ctx, req.user!, parsed.imeis, change, lang);
      for (const bad of parsed.invalid) {
        result.failed.push({ terminalID: bad.value, message: translate('validation.imeiLine', lang) });
      }
      return answer(result, lang, 'action.save.success');
    },
  );

  app.post(
    '/device/updateExpireType',
    {
      config: { permission: needs('devicesExpire') },
      schema: {
        tags: ['device'],
        summary: 'Set the service term; devices without a manual expiry get it recalculated from activation',
        body: z.object({ terminalIDs, serviceTerm: int32() }),
        response: batchReply,
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const result = await setServiceTerm(ctx, req.user!, req.body.terminalIDs, req.body.serviceTerm, lang);
      return answer(result, lang, 'action.save.success');
    },
  );

  app.post(
    '/device/resetExpire',
    {
      config: { permission: needs('devicesExpire') },
      schema: {
        tags: ['device'],
        summary: 'Reset-expiry: drop the manual expiry and recalculate it from the activation time and service term',
        body: z.object({ terminalIDs }),
        response: batchReply,
      },
    },
    async (req) => {
      const lang = callerLang(req);
      return answer(await recalculateExpiry(ctx, req.user!, req.body.terminalIDs, lang), lang, 'action.save.success');
    },
  );
}
