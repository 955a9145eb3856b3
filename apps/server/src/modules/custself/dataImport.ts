// "Data import for one customer" (device/huaXiangDataImport, agent permission main:data_import, issue 16):
// an agent moves vehicles of its stock or subtree into one customer's account and fills in their data (plate,
// name, SIM, ICCID, the owner or driver and phone, model, icon) from an xlsx sheet. The preview says per line
// what will happen; the import moves the devices (the transfer rules of spec §5) and writes the data.
import { ROLES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { idSchema } from '../agent/schema.ts';
import { type Caller, loadReachableUser } from '../agent/scope.ts';
import { transferDevices } from '../device/service.ts';
import { applyBulkInfo, BULK_FIELDS, type BulkLine, type BulkRow, planBulkInfo } from './bulkInfo.ts';

const PERMISSION = ['main:data_import'];

const rowSchema = z.object({
  terminalID: z.string().trim().min(1).max(32),
  ...Object.fromEntries(
    BULK_FIELDS.map((f) => [
      f,
      z.union([z.string().max(60), z.number().int().min(-1_000_000).max(1_000_000)]).optional(),
    ]),
  ),
}) as z.ZodType<BulkRow>;

const lineSchema = z.object({
  line: z.number().int(),
  terminalID: z.string(),
  status: z.enum(['change', 'unchanged', 'failed']),
  message: z.string(),
  /** The device moves into the customer's account. */
  move: z.boolean(),
  changes: z.array(z.object({ field: z.enum(BULK_FIELDS), from: z.string(), to: z.string() })),
});
type ImportLine = BulkLine & { move: boolean };

const body = z.object({ userId: idSchema, rows: z.array(rowSchema).min(1).max(5000) });

async function plan(ctx: AppContext, caller: Caller, userId: string, rows: BulkRow[], lang: string) {
  const target = await loadReachableUser(ctx, caller, userId);
  // One customer: an end user or a sub-user account below the caller.
  if (target.id === caller.id || (target.role !== ROLES.user && target.role !== ROLES.superUser))
    throw badRequest('invalidParam', { field: 'userId' });
  const info = await planBulkInfo(ctx, caller, rows, lang);
  const named = info.lines.filter((l) => l.status !== 'failed').map((l) => l.terminalID);
  const owners =
    named.length === 0
      ? []
      : await ctx.db
          .selectFrom('devices')
          .select(['terminal_id', 'user_id'])
          .where('terminal_id', 'in', named)
          .execute();
  const moving = new Set(owners.filter((o) => String(o.user_id) !== target.id).map((o) => o.terminal_id));
  const lines: ImportLine[] = info.lines.map((l) => ({
    ...l,
    move: moving.has(l.terminalID),
    status: l.status === 'unchanged' && moving.has(l.terminalID) ? 'change' : l.status,
  }));
  return { target, info, moving, lines };
}

export async function dataImportRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/device/dataImportPreview',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['device'],
        summary:
          'Preview of a data import for one customer (main:data_import): per line whether the device moves into the customer’s account, what data changes, or why the line fails; nothing is written',
        body,
        response: { 200: envelopeOf(z.object({ lines: z.array(lineSchema) })) },
      },
    },
    async (req) => {
      const p = await plan(ctx, req.user!, req.body.userId, req.body.rows, callerLang(req));
      return ok({ lines: p.lines });
    },
  );

  app.post(
    '/device/dataImport',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['device'],
        summary:
          'Data import for one customer (main:data_import): moves the listed devices of the caller’s subtree into the customer’s account (transfer rules) and writes their data (plate, name, SIM, ICCID, owner or driver and phone, model, icon); a result per line. Up to 5000 lines per call (the screen sends larger sheets in parts)',
        body,
        response: {
          200: envelopeOf(
            z.object({ success: z.number().int(), failed: z.number().int(), lines: z.array(lineSchema) }),
          ),
        },
      },
    },
    async (req) => {
      const lang = callerLang(req);
      const p = await plan(ctx, req.user!, req.body.userId, req.body.rows, lang);
      const moved =
        p.moving.size === 0 ? null : await transferDevices(ctx, req.user!, [...p.moving], p.target.id, lang);
      const refused = new Map((moved?.failed ?? []).map((f) => [f.terminalID, f.message]));
      for (const [id, w] of p.info.writes) if (refused.has(w.terminalID)) p.info.writes.delete(id);
      await applyBulkInfo(ctx, p.info);
      const lines = p.lines.map((l) =>
        refused.has(l.terminalID)
          ? { ...l, status: 'failed' as const, message: refused.get(l.terminalID) ?? '', changes: [], move: false }
          : l,
      );
      const failed = lines.filter((l) => l.status === 'failed').length;
      return ok(
        { success: lines.filter((l) => l.status === 'change').length, failed, lines },
        translate(failed === lines.length ? 'action.save.failure' : 'action.save.success', lang),
      );
    },
  );
}
