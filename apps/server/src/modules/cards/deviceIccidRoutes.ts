// Customer side of the SIM cards (spec §2 /index/device: deviceUpdateIccid, deviceExportIccid): batch ICCID
// update by IMEI, and an export of the ICCIDs and card numbers of an account's devices. Only devices inside
// the caller's subtree; the card with the ICCID is bound to the device (kept in step with card/check).
import { isIccid, neutraliseRow, normalizeIccid, splitCells } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { idSchema } from '../agent/schema.ts';
import { loadReachableUser, subtreePattern } from '../agent/scope.ts';
import { specialBrandFilter } from '../custself/specialBrand.ts';
import { deviceChanged } from '../device/events.ts';
import { resolveDevices } from '../device/resolve.ts';
import { batchLimits } from '../device/settings.ts';
import { factoryNeeds } from '../stock/needs.ts';
import { newOutcome, refuse } from '../stock/outcome.ts';
import { cardNumbers } from './queries.ts';

export async function deviceIccidRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/device/updateIccid',
    {
      config: { permission: factoryNeeds('deviceIccidUpdate') },
      schema: {
        tags: ['device'],
        summary:
          'Batch ICCID update: lines "IMEI ICCID" (tab, comma, semicolon or space). Devices of the caller’s subtree only',
        body: z.object({ text: z.string().min(1).max(2_000_000) }),
        response: {
          200: envelopeOf(
            z.object({
              success: z.number().int(),
              failure: z.number().int(),
              unqualified: z.number().int(),
              rejected: z.array(
                z.object({ line: z.number().int(), value: z.string(), reason: z.string(), message: z.string() }),
              ),
            }),
          ),
        },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const out = newOutcome();
      const pairs: { line: number; imei: string; iccid: string }[] = [];
      const seen = new Set<string>();
      req.body.text.split(/\r\n|\r|\n/).forEach((raw, i) => {
        const cells = splitCells(raw);
        if (cells.length === 0) return;
        const [imei = '', iccid = ''] = cells;
        if (cells.length !== 2 || !isIccid(iccid)) refuse(out, lang, i + 1, raw.trim(), 'invalid');
        else if (seen.has(imei)) refuse(out, lang, i + 1, imei, 'duplicate');
        else {
          seen.add(imei);
          pairs.push({ line: i + 1, imei, iccid: normalizeIccid(iccid) });
        }
      });
      const limits = await batchLimits(ctx);
      if (pairs.length > limits.devicesPerOperation) {
        throw new ApiError(400, 'device.batchLimit', 400, { max: limits.devicesPerOperation });
      }
      const { devices } = await resolveDevices(
        ctx,
        req.user!,
        pairs.map((p) => p.imei),
        lang,
      );
      const reachable = new Set(devices.map((d) => d.terminal_id));
      const ready = pairs.filter((p) => {
        if (reachable.has(p.imei)) return true;
        refuse(out, lang, p.line, p.imei, 'notFound');
        return false;
      });
      if (ready.length > 0) {
        const imeis = ready.map((p) => p.imei);
        const iccids = ready.map((p) => p.iccid);
        await ctx.db.transaction().execute(async (trx) => {
          await sql`UPDATE devices d SET iccid = u.iccid, updated_at = now()
            FROM unnest(${imeis}::text[], ${iccids}::text[]) AS u(imei, iccid) WHERE d.terminal_id = u.imei`.execute(
            trx,
          );
          await sql`UPDATE sim_cards c SET imei = u.imei, bound_at = now(), updated_at = now()
            FROM unnest(${imeis}::text[], ${iccids}::text[]) AS u(imei, iccid)
            WHERE c.iccid = u.iccid AND c.imei IS DISTINCT FROM u.imei`.execute(trx);
        });
        out.success += ready.length;
        deviceChanged(ctx, { terminalIDs: imeis });
      }
      return ok({ success: out.success, failure: out.failure, unqualified: out.unqualified, rejected: out.rejected });
    },
  );

  app.get(
    '/device/exportIccid',
    {
      config: { permission: factoryNeeds('deviceIccidExport') },
      schema: {
        tags: ['device'],
        summary: 'ICCIDs and card numbers of the devices of an account and its sub-accounts, as xlsx',
        querystring: z.object({ userId: idSchema.optional() }),
      },
    },
    async (req, reply) => {
      const caller = req.user!;
      const root = await loadReachableUser(ctx, caller, req.query.userId ?? caller.id);
      const limits = await batchLimits(ctx);
      // A special-brand agent (spec §6) does not get the devices its device list hides (a plain download link
      // carries no no-process set: the searched-for devices the list spares are left out too).
      const hide = (await specialBrandFilter(ctx, caller, [])) ?? sql<SqlBool>`true`;
      const owned = await sql<{ terminal_id: string; username: string }>`
        SELECT d.terminal_id, u.username FROM devices d JOIN users u ON u.id = d.user_id
        LEFT JOIN device_state s ON s.device_id = d.id
        WHERE u.path LIKE ${subtreePattern(root.path)} AND ${hide}
        ORDER BY d.terminal_id LIMIT ${limits.devicesPerExport}`.execute(ctx.db);
      const owner = new Map(owned.rows.map((r) => [r.terminal_id, r.username]));
      const numbers = await cardNumbers(ctx, [...owner.keys()]);
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('iccid');
      sheet.columns = [
        { header: 'IMEI', key: 'imei', width: 18 },
        { header: 'ICCID', key: 'iccid', width: 24 },
        { header: 'MSISDN', key: 'msisdn', width: 16 },
        { header: 'IMSI', key: 'imsi', width: 18 },
        { header: 'Operator', key: 'operator', width: 14 },
        { header: 'Expires', key: 'expiresOn', width: 12 },
        { header: 'Account', key: 'account', width: 18 },
      ];
      for (const n of numbers) sheet.addRow(neutraliseRow({ ...n, account: owner.get(n.imei) ?? '' }));
      const buffer = await book.xlsx.writeBuffer();
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="iccid-${root.id}.xlsx"`)
        .send(Buffer.from(buffer as ArrayBuffer));
    },
  );
}
