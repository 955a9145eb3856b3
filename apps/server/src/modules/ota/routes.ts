// /api/ota/*, /api/user_ota: OTA upgrades (spec §2 /test/ota/*, otaUpdateListForUser). The firmware library
// (upload with size and SHA-256 kept, download, delete while unused); a push to many devices as one task of kind
// 'ota': JT/T 808 terminals get 0x8108 sub-packages from the gateway (pusher.ts), GT06 devices a command carrying
// an HTTP URL of the firmware (served below with Range support, downloads counted per device); per-device progress
// and results. Role otaLookPremissionUser reads the versions and the results for its own devices.
import { createHash, randomBytes } from 'node:crypto';
import { TASK_ITEM_STATES } from '@carhere/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { type CommandSendRequest, Subjects } from '../../gateway/events.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { terminalIdSchema } from '../location/params.ts';
import { MAX_TASK_DEVICES, terminalIdsOf } from '../tasks/routes.ts';
import { INSERT_CHUNK, type ItemTarget } from '../tasks/store.ts';
import { OTA_PUSH_SUBJECT, type OtaPushRequest } from './pusher.ts';

const OTA = ['factory:ota'];
const READ = ['factory:ota', 'factory:ota_user'];
/** Largest firmware image accepted (the JT/T 808 package length is a DWORD; HTTP devices fetch by Range). */
export const MAX_FIRMWARE_BYTES = 8 * 1024 * 1024;
const OTA_TTL_HOURS = 72;
const idSchema = z.string().regex(/^\d{1,18}$/);

const firmwareSchema = z.object({
  id: z.string(),
  model: z.number().int(),
  version: z.string(),
  notes: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  upgradeType: z.number().int(),
  manufacturer: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Devices of OTA tasks using it (a firmware in use cannot be deleted). */
  uses: z.number().int(),
});

const resultSchema = z.object({
  taskId: z.string(),
  terminalID: z.string(),
  firmwareId: z.string(),
  model: z.number().int(),
  version: z.string(),
  method: z.enum(['jt808', 'http']),
  status: z.enum(TASK_ITEM_STATES),
  reply: z.string().nullable(),
  detail: z.string(),
  packetsTotal: z.number().int(),
  packetsAcked: z.number().int(),
  resent: z.number().int(),
  bytesSent: z.number().int(),
  downloads: z.number().int(),
  sentTime: z.string().nullable(),
  doneTime: z.string().nullable(),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The GT06 command that makes a device fetch its firmware over HTTP. */
export function gt06UpgradeCommand(url: string): string {
  return `UPGRADE,${url}#`;
}

/** Parses a single "bytes=a-b" Range header against a size; null for none or an unsatisfiable one. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

interface FirmwareRow {
  id: string;
  model: number;
  version: string;
  notes: string;
  file_name: string;
  size: number;
  sha256: string;
  upgrade_type: number;
  manufacturer: string;
  created_by: string;
  created_at: Date;
  uses: string | number;
}

function presentFirmware(r: FirmwareRow) {
  return {
    id: String(r.id),
    model: r.model,
    version: r.version,
    notes: r.notes,
    fileName: r.file_name,
    size: r.size,
    sha256: r.sha256,
    upgradeType: r.upgrade_type,
    manufacturer: r.manufacturer,
    createdBy: r.created_by,
    createdAt: iso(r.created_at) as string,
    uses: Number(r.uses),
  };
}

function publicBase(ctx: AppContext, req: { protocol: string; headers: { host?: string } }): string {
  const configured = process.env.PUBLIC_URL;
  if (configured) return configured.replace(/\/$/, '');
  void ctx;
  return `${req.protocol}://${req.headers.host ?? '127.0.0.1'}`;
}

export async function otaRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/ota/firmware/upload',
    {
      config: { permission: OTA },
      schema: {
        tags: ['ota'],
        summary: 'Add a firmware image (base64) for a model and version; its size and SHA-256 are kept',
        body: z.object({
          model: z.number().int().min(0).max(32767),
          version: z.string().trim().min(1).max(64),
          notes: z.string().trim().max(1000).default(''),
          fileName: z.string().trim().min(1).max(200),
          data: z
            .string()
            .min(1)
            .max(Math.ceil((MAX_FIRMWARE_BYTES * 4) / 3) + 4),
          upgradeType: z.number().int().min(0).max(255).default(0),
          manufacturer: z
            .string()
            .trim()
            .max(11)
            .regex(/^[0-9A-Za-z]*$/)
            .default(''),
        }),
        response: { 200: envelopeOf(firmwareSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      if (!/^[A-Za-z0-9+/]+=*$/.test(b.data)) throw badRequest('invalidParam', { field: 'data' });
      const bytes = Buffer.from(b.data, 'base64');
      if (bytes.length === 0 || bytes.length > MAX_FIRMWARE_BYTES) throw badRequest('invalidParam', { field: 'data' });
      const taken = await ctx.db
        .selectFrom('ota_firmware')
        .select('id')
        .where('model', '=', b.model)
        .where('version', '=', b.version)
        .executeTakeFirst();
      if (taken) throw badRequest('invalidParam', { field: 'version' });
      const row = await ctx.db
        .insertInto('ota_firmware')
        .values({
          model: b.model,
          version: b.version,
          notes: b.notes,
          file_name: b.fileName,
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          data: bytes,
          upgrade_type: b.upgradeType,
          manufacturer: b.manufacturer,
          created_by: req.user!.username,
        })
        .returning([
          'id',
          'model',
          'version',
          'notes',
          'file_name',
          'size',
          'sha256',
          'upgrade_type',
          'manufacturer',
          'created_by',
          'created_at',
        ])
        .executeTakeFirstOrThrow();
      return ok(presentFirmware({ ...row, uses: 0 }));
    },
  );

  app.post(
    '/ota/firmware/find',
    {
      config: { permission: READ },
      schema: {
        tags: ['ota'],
        summary: 'The firmware library, newest first (without the images)',
        body: z.object({ model: z.number().int().optional(), ...pageQuery }),
        response: { 200: envelopeOf(pageOf(firmwareSchema)) },
      },
    },
    async (req) => {
      const where = req.body.model === undefined ? sql`TRUE` : sql`f.model = ${req.body.model}`;
      const total = await sql<{ n: string }>`SELECT count(*) AS n FROM ota_firmware f WHERE ${where}`.execute(ctx.db);
      const rows = await sql<FirmwareRow>`
        SELECT f.id, f.model, f.version, f.notes, f.file_name, f.size, f.sha256, f.upgrade_type, f.manufacturer,
               f.created_by, f.created_at, (SELECT count(*) FROM ota_items o WHERE o.firmware_id = f.id) AS uses
          FROM ota_firmware f WHERE ${where} ORDER BY f.id DESC
         LIMIT ${req.body.pageSize} OFFSET ${(req.body.pageNum - 1) * req.body.pageSize}`.execute(ctx.db);
      return ok({ total: Number(total.rows[0]?.n ?? 0), list: rows.rows.map(presentFirmware) });
    },
  );

  app.get(
    '/ota/firmware/download',
    {
      config: { permission: OTA },
      schema: {
        tags: ['ota'],
        summary: 'A firmware image as stored',
        querystring: z.object({ id: idSchema }),
      },
    },
    async (req, reply) => {
      const f = await ctx.db
        .selectFrom('ota_firmware')
        .select(['file_name', 'data', 'sha256'])
        .where('id', '=', req.query.id)
        .executeTakeFirst();
      if (!f) throw notFound();
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${f.file_name.replace(/[^\w.-]/g, '_')}"`)
        .header('x-sha256', f.sha256)
        .send(Buffer.from(f.data));
    },
  );

  app.post(
    '/ota/firmware/delete',
    {
      config: { permission: OTA },
      schema: {
        tags: ['ota'],
        summary: 'Delete a firmware image no OTA task uses',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ deleted: z.boolean() })) },
      },
    },
    async (req) => {
      const f = await ctx.db.selectFrom('ota_firmware').select('id').where('id', '=', req.body.id).executeTakeFirst();
      if (!f) throw notFound();
      const used = await ctx.db
        .selectFrom('ota_items')
        .select('item_id')
        .where('firmware_id', '=', req.body.id)
        .executeTakeFirst();
      if (used) throw new ApiError(409, 'invalidParam', 409, { field: 'id' });
      await ctx.db.deleteFrom('ota_firmware').where('id', '=', req.body.id).execute();
      return ok({ deleted: true });
    },
  );

  app.post(
    '/ota/push',
    {
      config: { permission: OTA },
      schema: {
        tags: ['ota'],
        summary:
          'Upgrade up to 10,000 devices with a firmware: JT/T 808 terminals by 0x8108 sub-packages (0x0005 re-sends, 0x0108 result), GT06 devices by a command carrying the firmware’s HTTP URL. One task; offline devices at their next connection',
        body: z
          .object({
            firmwareId: idSchema,
            terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
            text: z
              .string()
              .max(MAX_TASK_DEVICES * 24)
              .optional(),
          })
          .refine((b) => terminalIdsOf(b).length > 0, { message: 'no devices', path: ['terminalIDs'] }),
        response: { 200: envelopeOf(z.object({ taskId: z.string(), total: z.number().int() })) },
      },
    },
    async (req) => {
      const tasks = ctx.services.tasks;
      if (!tasks) throw new ApiError(500, 'serverBusy', 500);
      const ids = [...new Set(terminalIdsOf(req.body))];
      if (ids.length > MAX_TASK_DEVICES) throw badRequest('invalidParam', { field: 'terminalIDs' });
      for (const t of ids)
        if (!terminalIdSchema.safeParse(t).success) throw badRequest('invalidParam', { field: 'text' });
      const fw = await ctx.db
        .selectFrom('ota_firmware')
        .select(['id', 'model', 'version'])
        .where('id', '=', req.body.firmwareId)
        .executeTakeFirst();
      if (!fw) throw badRequest('invalidParam', { field: 'firmwareId' });
      const lang = callerLang(req);
      const user = req.user!;
      const devices = await sql<{ id: string; terminal_id: string; protocol: number }>`
        SELECT id, terminal_id, protocol FROM devices WHERE terminal_id = ANY(${ids}::text[])`.execute(ctx.db);
      const byTerminal = new Map(devices.rows.map((d) => [d.terminal_id, d]));
      const base = publicBase(ctx, req);
      const task = await tasks.store.createTask(
        {
          kind: 'ota',
          title: `model ${fw.model} → ${fw.version}`,
          params: { firmwareId: String(fw.id), model: fw.model, version: fw.version },
          createdBy: user.id,
          creatorName: user.username,
          creatorPath: user.path,
          area: 'factory',
          expiresAt: new Date(Date.now() + OTA_TTL_HOURS * 3_600_000),
        },
        ids.length,
      );
      const unknown: ItemTarget[] = [];
      const http: (ItemTarget & { token: string })[] = [];
      const jt808: { deviceId: string; terminalId: string }[] = [];
      for (const t of ids) {
        const d = byTerminal.get(t);
        if (!d)
          unknown.push({ deviceId: null, terminalId: t, protocol: 0, refused: translate('factory.imeiUnknown', lang) });
        else if (d.protocol === 1 || d.protocol === 3) jt808.push({ deviceId: String(d.id), terminalId: t });
        else {
          const token = randomBytes(16).toString('hex');
          http.push({
            deviceId: String(d.id),
            terminalId: t,
            protocol: d.protocol,
            token,
            content: gt06UpgradeCommand(`${base}/api/ota/fw/${token}`),
          });
        }
      }
      if (unknown.length > 0) await tasks.store.insertFailed(task.id, unknown);
      if (http.length > 0) {
        await tasks.store.insertCommandItems(task, http, '', { id: user.id, name: user.username });
        await sql`
          INSERT INTO ota_items (item_id, task_id, firmware_id, device_id, token)
          SELECT ti.id, ti.task_id, ${fw.id}::bigint, ti.device_id, x.token
            FROM task_items ti JOIN unnest(${http.map((h) => h.deviceId)}::bigint[], ${http.map((h) => h.token)}::text[])
                 AS x(d, token) ON x.d = ti.device_id
           WHERE ti.task_id = ${task.id}`.execute(ctx.db);
      }
      for (let i = 0; i < jt808.length; i += INSERT_CHUNK) {
        const chunk = jt808.slice(i, i + INSERT_CHUNK);
        await sql`
          WITH items AS (
            INSERT INTO task_items (task_id, device_id, terminal_id)
            SELECT ${task.id}::bigint, d, t FROM unnest(${chunk.map((c) => c.deviceId)}::bigint[],
                                                      ${chunk.map((c) => c.terminalId)}::text[]) AS x(d, t)
            RETURNING id, task_id, device_id
          )
          INSERT INTO ota_items (item_id, task_id, firmware_id, device_id)
          SELECT id, task_id, ${fw.id}::bigint, device_id FROM items`.execute(ctx.db);
      }
      // Start at once on the devices online now: commands for HTTP devices, pushes for JT/T 808 terminals.
      const online = await sql<{ item_id: string; device_id: string; terminal_id: string; command_id: string | null }>`
        SELECT ti.id AS item_id, ti.device_id, ti.terminal_id, ti.command_id
          FROM task_items ti JOIN device_state s ON s.device_id = ti.device_id
         WHERE ti.task_id = ${task.id} AND ti.state = 'pending' AND s.online`.execute(ctx.db);
      for (const r of online.rows) {
        if (r.command_id !== null) {
          ctx.bus.publish(Subjects.commandSend, {
            commandId: String(r.command_id),
            deviceId: String(r.device_id),
            terminalId: r.terminal_id,
          } satisfies CommandSendRequest);
        } else {
          ctx.bus.publish(OTA_PUSH_SUBJECT, {
            itemId: String(r.item_id),
            deviceId: String(r.device_id),
          } satisfies OtaPushRequest);
        }
      }
      return ok({ taskId: String(task.id), total: ids.length });
    },
  );

  const results = async (q: {
    taskId?: string;
    terminalID?: string;
    status?: (typeof TASK_ITEM_STATES)[number];
    withinPath?: string;
    pageNum: number;
    pageSize: number;
  }) => {
    const open = await sql<{ task_id: string }>`
      SELECT DISTINCT ti.task_id FROM task_items ti JOIN tasks t ON t.id = ti.task_id
       WHERE t.kind = 'ota' AND ti.command_id IS NOT NULL AND ti.state IN ('pending', 'sent')`.execute(ctx.db);
    if (open.rows.length > 0) await ctx.services.tasks?.store.settle(open.rows.map((r) => String(r.task_id)));
    const conds = [sql`t.kind = 'ota'`];
    if (q.taskId) conds.push(sql`ti.task_id = ${q.taskId}::bigint`);
    if (q.terminalID) conds.push(sql`ti.terminal_id LIKE ${`${q.terminalID}%`}`);
    if (q.status) conds.push(sql`ti.state = ${q.status}`);
    if (q.withinPath !== undefined) {
      conds.push(sql`EXISTS (SELECT 1 FROM devices d JOIN users u ON u.id = d.user_id
                              WHERE d.id = ti.device_id AND u.path LIKE ${`${q.withinPath}%`})`);
    }
    const where = sql.join(conds, sql` AND `);
    const total = await sql<{ n: string }>`
      SELECT count(*) AS n FROM task_items ti JOIN tasks t ON t.id = ti.task_id WHERE ${where}`.execute(ctx.db);
    const rows = await sql<{
      task_id: string;
      terminal_id: string;
      firmware_id: string | null;
      params: { firmwareId?: string; model?: number; version?: string };
      command_id: string | null;
      state: (typeof TASK_ITEM_STATES)[number];
      reply: string | null;
      detail: string;
      packets_total: number | null;
      packets_acked: number | null;
      resent: number | null;
      bytes_sent: string | null;
      downloads: number | null;
      sent_at: Date | null;
      done_at: Date | null;
    }>`
      SELECT ti.task_id, ti.terminal_id, o.firmware_id, t.params, ti.command_id, ti.state, ti.reply, ti.detail,
             o.packets_total, o.packets_acked, o.resent, o.bytes_sent, o.downloads, ti.sent_at, ti.done_at
        FROM task_items ti JOIN tasks t ON t.id = ti.task_id LEFT JOIN ota_items o ON o.item_id = ti.id
       WHERE ${where} ORDER BY ti.id DESC LIMIT ${q.pageSize} OFFSET ${(q.pageNum - 1) * q.pageSize}`.execute(ctx.db);
    return {
      total: Number(total.rows[0]?.n ?? 0),
      list: rows.rows.map((r) => ({
        taskId: String(r.task_id),
        terminalID: r.terminal_id,
        firmwareId: String(r.firmware_id ?? r.params.firmwareId ?? ''),
        model: Number(r.params.model ?? 0),
        version: String(r.params.version ?? ''),
        method: (r.command_id === null && r.firmware_id !== null ? 'jt808' : 'http') as 'jt808' | 'http',
        status: r.state,
        reply: r.reply,
        detail: r.detail,
        packetsTotal: r.packets_total ?? 0,
        packetsAcked: r.packets_acked ?? 0,
        resent: r.resent ?? 0,
        bytesSent: Number(r.bytes_sent ?? 0),
        downloads: r.downloads ?? 0,
        sentTime: iso(r.sent_at),
        doneTime: iso(r.done_at),
      })),
    };
  };

  const resultsQuery = z.object({
    taskId: idSchema.optional(),
    terminalID: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z]{1,32}$/)
      .optional(),
    status: z.enum(TASK_ITEM_STATES).optional(),
    ...pageQuery,
  });

  app.post(
    '/ota/results',
    {
      config: { permission: OTA },
      schema: {
        tags: ['ota'],
        summary:
          'Per-device OTA progress and results: sub-packages acknowledged / total and re-sent (JT/T 808), bytes and downloads (HTTP), state',
        body: resultsQuery,
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => ok(await results(req.body)),
  );

  app.post(
    '/user_ota',
    {
      config: { permission: READ },
      schema: {
        tags: ['ota'],
        summary:
          'otaUpdateListForUser: OTA results of the caller’s own devices (its subtree), read-only; factory OTA staff see all',
        body: resultsQuery,
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => {
      const user = req.user!;
      const all = user.role === 1 || req.permissions.includes('factory:ota');
      return ok(await results({ ...req.body, withinPath: all ? undefined : user.path }));
    },
  );

  app.get(
    '/ota/fw/:token',
    {
      config: { public: true },
      schema: {
        tags: ['ota'],
        summary:
          'A device’s firmware download (the URL its upgrade command carries): Range requests answered with 206, each download counted for the device',
        params: z.object({ token: z.string().regex(/^[0-9a-f]{32}$/) }),
      },
    },
    async (req, reply) => {
      const row = await sql<{ item_id: string; data: Uint8Array; sha256: string; size: number }>`
        SELECT o.item_id, f.data, f.sha256, f.size FROM ota_items o JOIN ota_firmware f ON f.id = o.firmware_id
         WHERE o.token = ${req.params.token}`.execute(ctx.db);
      const r = row.rows[0];
      if (!r) throw notFound();
      const data = Buffer.from(r.data);
      const range = parseRange(req.headers.range, data.length);
      reply.header('accept-ranges', 'bytes').header('etag', `"${r.sha256}"`).type('application/octet-stream');
      if (range === 'invalid') {
        return reply.code(416).header('content-range', `bytes */${data.length}`).send();
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? data.length - 1;
      // A download starts with its first byte; the bytes served are counted whatever the ranges.
      await sql`UPDATE ota_items SET downloads = downloads + ${start === 0 ? 1 : 0},
                  bytes_sent = bytes_sent + ${end - start + 1}, updated_at = now()
                 WHERE item_id = ${r.item_id}`.execute(ctx.db);
      if (range) {
        reply.code(206).header('content-range', `bytes ${start}-${end}/${data.length}`);
      }
      return reply.send(data.subarray(start, end + 1));
    },
  );
}
