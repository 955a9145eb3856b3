// /api/config/*: the configuration platform (spec §2 /test/configPlatformForUser, §7 /config findAll, add, update;
// toHex lives with the command console). Per device model the parameter set a device should carry (server,
// heartbeat, upload interval, APN, time zone). A push is one task (kind 'configPush'): a JT/T 808 terminal gets one
// 0x8103 with every parameter (the server as its edition wants it), a GT06 device one text command per parameter
// (SERVER, HBT, TIMER, APN, GMT). A read-back is one task (kind 'configRead'): JT/T 808 0x8104 (answered by 0x0104),
// GT06 PARAM#; its results show each device's parameters and where they differ from its model's set.

import { TASK_ITEM_STATES } from '@carhere/domain';
import { JT808_QUERY_CONTENT, jt808ParamsContent } from '@carhere/protocols';
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
import type { ItemTarget } from '../tasks/store.ts';
import { gt06ServerCommand } from '../transferIp/service.ts';

const PERM = ['factory:config_platform'];
const TTL_HOURS = 72;
const idSchema = z.string().regex(/^\d{1,18}$/);

export const paramsSchema = z
  .object({
    /** host:port */
    server: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.-]{1,200}:\d{1,5}$/)
      .refine((s) => {
        const port = Number(s.slice(s.lastIndexOf(':') + 1));
        return port >= 1 && port <= 65535;
      })
      .optional(),
    heartbeat: z.number().int().min(1).max(65535).optional(),
    interval: z.number().int().min(1).max(65535).optional(),
    apn: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
    /** Hours east of UTC (GT06 GMT command; JT/T 808 has no standard parameter for it). */
    timezone: z.number().int().min(-12).max(14).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'no parameters' });
export type ConfigParams = z.infer<typeof paramsSchema>;
type Key = keyof ConfigParams;
const KEYS: Key[] = ['server', 'heartbeat', 'interval', 'apn', 'timezone'];

const profileSchema = z.object({
  id: z.string(),
  model: z.number().int(),
  name: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  updatedBy: z.string(),
  updatedAt: z.string(),
});

const isJt808 = (protocol: number) => protocol === 1 || protocol === 3;

/** The commands that set `p` on a device of `protocol`: one 0x8103 for JT/T 808, one text each for GT06. */
export function configCommands(protocol: number, p: ConfigParams): string[] {
  if (isJt808(protocol)) {
    const ids: Record<string, string | number> = {};
    if (p.server) ids.server = p.server;
    if (p.heartbeat !== undefined) ids['0001'] = p.heartbeat;
    if (p.apn) ids['0010'] = p.apn;
    if (p.interval !== undefined) ids['0029'] = p.interval;
    return Object.keys(ids).length > 0 ? [jt808ParamsContent(ids)] : [];
  }
  const out: string[] = [];
  if (p.server) {
    const at = p.server.lastIndexOf(':');
    out.push(gt06ServerCommand(p.server.slice(0, at), Number(p.server.slice(at + 1))));
  }
  if (p.heartbeat !== undefined) out.push(`HBT,${p.heartbeat}#`);
  if (p.interval !== undefined) out.push(`TIMER,${p.interval}#`);
  if (p.apn) out.push(`APN,${p.apn}#`);
  if (p.timezone !== undefined) out.push(`GMT,${p.timezone < 0 ? 'W' : 'E'},${Math.abs(p.timezone)},0#`);
  return out;
}

/** A device's parameters from its read-back reply (JT/T 808 0x0104 as id=value;…, GT06 PARAM# as KEY:value;…). */
export function parseConfigReply(reply: string): ConfigParams | null {
  const out: Record<string, string | number> = {};
  if (/^0x[0-9a-f]{4}=/i.test(reply)) {
    const v = new Map<number, string>();
    for (const part of reply.split(';')) {
      const m = /^0x([0-9a-f]+)=(.*)$/i.exec(part);
      if (m) v.set(Number.parseInt(m[1] as string, 16), m[2] as string);
    }
    const host = v.get(0x0013);
    if (host) out.server = host.includes(':') ? host : `${host}:${v.get(0x0018) ?? ''}`;
    if (v.has(0x0001)) out.heartbeat = Number(v.get(0x0001));
    if (v.has(0x0029)) out.interval = Number(v.get(0x0029));
    if (v.get(0x0010)) out.apn = v.get(0x0010) as string;
    return out as ConfigParams;
  }
  if (!/(^|;)\s*(SERVER|APN|HBT|TIMER|IMEI):/i.test(reply)) return null;
  for (const part of reply.split(';')) {
    const at = part.indexOf(':');
    if (at < 0) continue;
    const key = part.slice(0, at).trim().toUpperCase();
    const value = part.slice(at + 1).trim();
    if (key === 'SERVER') out.server = value.replace(',', ':');
    else if (key === 'APN') out.apn = value;
    else if (key === 'HBT') out.heartbeat = Number(value);
    else if (key === 'TIMER') out.interval = Number(value);
    else if (key === 'GMT') {
      const m = /^([EW])(\d{1,2})$/i.exec(value);
      if (m) out.timezone = (m[1]?.toUpperCase() === 'W' ? -1 : 1) * Number(m[2]);
    }
  }
  return out as ConfigParams;
}

/** Where a device's parameters differ from the expected set (only the parameters the set names). */
export function configDifferences(
  expected: ConfigParams,
  actual: ConfigParams,
  protocol: number,
): { key: string; expected: string; actual: string | null }[] {
  const diffs: { key: string; expected: string; actual: string | null }[] = [];
  for (const key of KEYS) {
    const want = expected[key];
    if (want === undefined) continue;
    // A JT/T 808 terminal carries no time zone parameter: nothing to compare.
    if (key === 'timezone' && isJt808(protocol)) continue;
    const have = actual[key];
    if (have === undefined || String(have) !== String(want)) {
      diffs.push({ key, expected: String(want), actual: have === undefined ? null : String(have) });
    }
  }
  return diffs;
}

interface ProfileRow {
  id: string;
  model: number;
  name: string;
  params: ConfigParams;
  updated_by: string;
  updated_at: Date;
}
const present = (r: ProfileRow) => ({
  id: String(r.id),
  model: r.model,
  name: r.name,
  params: r.params as Record<string, string | number>,
  updatedBy: r.updated_by,
  updatedAt: new Date(r.updated_at).toISOString(),
});

const resultSchema = z.object({
  taskId: z.string(),
  terminalID: z.string(),
  model: z.number().int().nullable(),
  content: z.string(),
  status: z.enum(TASK_ITEM_STATES),
  reply: z.string().nullable(),
  detail: z.string(),
  sentTime: z.string().nullable(),
  replyTime: z.string().nullable(),
  /** Read-back: the parameters the device answered, and where they differ from its model's set (or the given one). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  differences: z.array(z.object({ key: z.string(), expected: z.string(), actual: z.string().nullable() })).nullable(),
});

const devicesBody = {
  terminalIDs: z.array(terminalIdSchema).max(MAX_TASK_DEVICES).optional(),
  text: z
    .string()
    .max(MAX_TASK_DEVICES * 24)
    .optional(),
};

export async function configRoutes(app: App, ctx: AppContext): Promise<void> {
  const profile = async (id: string) =>
    (await sql<ProfileRow>`SELECT * FROM config_profiles WHERE id = ${id}::bigint`.execute(ctx.db)).rows[0];

  app.post(
    '/config/findAll',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary: 'The parameter sets per device model (optionally one model)',
        body: z.object({ model: z.number().int().optional() }).default({}),
        response: { 200: envelopeOf(z.array(profileSchema)) },
      },
    },
    async (req) => {
      const where = req.body.model === undefined ? sql`TRUE` : sql`model = ${req.body.model}`;
      const rows = await sql<ProfileRow>`SELECT * FROM config_profiles WHERE ${where} ORDER BY model`.execute(ctx.db);
      return ok(rows.rows.map(present));
    },
  );

  app.post(
    '/config/add',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary: 'Add the parameter set of a model (server host:port, heartbeat s, interval s, APN, time zone h)',
        body: z.object({
          model: z.number().int().min(0).max(32767),
          name: z.string().trim().max(100).default(''),
          params: paramsSchema,
        }),
        response: { 200: envelopeOf(profileSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const taken = await sql`SELECT 1 FROM config_profiles WHERE model = ${b.model}`.execute(ctx.db);
      if (taken.rows.length > 0) throw badRequest('invalidParam', { field: 'model' });
      const r = await sql<ProfileRow>`
        INSERT INTO config_profiles (model, name, params, updated_by)
        VALUES (${b.model}, ${b.name}, ${JSON.stringify(b.params)}::jsonb, ${req.user!.username}) RETURNING *`.execute(
        ctx.db,
      );
      return ok(present(r.rows[0] as ProfileRow));
    },
  );

  app.post(
    '/config/update',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary: 'Change a model’s parameter set (replaces its parameters)',
        body: z.object({ id: idSchema, name: z.string().trim().max(100).optional(), params: paramsSchema }),
        response: { 200: envelopeOf(profileSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const r = await sql<ProfileRow>`
        UPDATE config_profiles SET params = ${JSON.stringify(b.params)}::jsonb, name = COALESCE(${b.name ?? null}, name),
               updated_by = ${req.user!.username}, updated_at = now()
         WHERE id = ${b.id}::bigint RETURNING *`.execute(ctx.db);
      if (!r.rows[0]) throw notFound();
      return ok(present(r.rows[0]));
    },
  );

  /** One task of `kind` whose items are `commandsFor(device)` (several per device when a protocol needs it). */
  const createTask = async (
    user: { id: string; username: string; path: string },
    kind: string,
    title: string,
    params: Record<string, unknown>,
    ids: string[],
    commandsFor: (d: { protocol: number; model: number }) => string[],
    lang: string,
  ) => {
    const tasks = ctx.services.tasks;
    if (!tasks) throw new ApiError(500, 'serverBusy', 500);
    const devices = await sql<{ id: string; terminal_id: string; protocol: number; device_type: number }>`
      SELECT id, terminal_id, protocol, device_type FROM devices WHERE terminal_id = ANY(${ids}::text[])`.execute(
      ctx.db,
    );
    const byTerminal = new Map(devices.rows.map((d) => [d.terminal_id, d]));
    const targets: ItemTarget[] = [];
    for (const t of ids) {
      const d = byTerminal.get(t);
      if (!d) {
        targets.push({ deviceId: null, terminalId: t, protocol: 0, refused: translate('factory.imeiUnknown', lang) });
        continue;
      }
      const commands = commandsFor({ protocol: d.protocol, model: d.device_type });
      if (commands.length === 0) {
        targets.push({
          deviceId: String(d.id),
          terminalId: t,
          protocol: d.protocol,
          refused: translate('invalidParam', lang),
        });
      }
      for (const content of commands)
        targets.push({ deviceId: String(d.id), terminalId: t, protocol: d.protocol, content });
    }
    const task = await tasks.store.createTask(
      {
        kind,
        title,
        params,
        createdBy: user.id,
        creatorName: user.username,
        creatorPath: user.path,
        area: 'factory',
        expiresAt: new Date(Date.now() + TTL_HOURS * 3_600_000),
      },
      targets.length,
    );
    await tasks.store.insertCommandItems(task, targets, '', { id: user.id, name: user.username });
    for (const item of await tasks.store.onlineOpenItems(String(task.id))) {
      ctx.bus.publish(Subjects.commandSend, {
        commandId: item.command_id,
        deviceId: item.device_id,
        terminalId: item.terminal_id,
      } satisfies CommandSendRequest);
    }
    return { taskId: String(task.id), total: targets.length };
  };

  const devicesOf = (b: { terminalIDs?: string[]; text?: string }) => {
    const ids = [...new Set(terminalIdsOf(b))];
    if (ids.length === 0 || ids.length > MAX_TASK_DEVICES) throw badRequest('invalidParam', { field: 'terminalIDs' });
    for (const t of ids)
      if (!terminalIdSchema.safeParse(t).success) throw badRequest('invalidParam', { field: 'text' });
    return ids;
  };

  app.post(
    '/config/push',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary:
          'Push a parameter set to up to 10,000 devices as one task: JT/T 808 one 0x8103, GT06 one command per parameter; offline devices at their next connection',
        body: z.object({ id: idSchema, ...devicesBody }),
        response: { 200: envelopeOf(z.object({ taskId: z.string(), total: z.number().int() })) },
      },
    },
    async (req) => {
      const ids = devicesOf(req.body);
      const p = await profile(req.body.id);
      if (!p) throw badRequest('invalidParam', { field: 'id' });
      return ok(
        await createTask(
          req.user!,
          'configPush',
          `model ${p.model} parameters`,
          { profileId: String(p.id), model: p.model, params: p.params },
          ids,
          (d) => configCommands(d.protocol, p.params),
          callerLang(req),
        ),
      );
    },
  );

  app.post(
    '/config/read',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary: 'Read the parameters of up to 10,000 devices back as one task: JT/T 808 0x8104 (0x0104), GT06 PARAM#',
        body: z.object({ ...devicesBody }),
        response: { 200: envelopeOf(z.object({ taskId: z.string(), total: z.number().int() })) },
      },
    },
    async (req) =>
      ok(
        await createTask(
          req.user!,
          'configRead',
          'parameter read-back',
          {},
          devicesOf(req.body),
          (d) => [isJt808(d.protocol) ? JT808_QUERY_CONTENT : 'PARAM#'],
          callerLang(req),
        ),
      ),
  );

  app.post(
    '/config/results',
    {
      config: { permission: PERM },
      schema: {
        tags: ['config'],
        summary:
          'Per-device results of a push or read-back task; a read-back shows the parameters answered and the differences from the model’s set (or profileId’s)',
        body: z.object({ taskId: idSchema, profileId: idSchema.optional(), ...pageQuery }),
        response: { 200: envelopeOf(pageOf(resultSchema)) },
      },
    },
    async (req) => {
      const b = req.body;
      const tasks = ctx.services.tasks;
      const task = (await sql<{ kind: string }>`SELECT kind FROM tasks WHERE id = ${b.taskId}::bigint`.execute(ctx.db))
        .rows[0];
      if (!task || (task.kind !== 'configPush' && task.kind !== 'configRead')) throw notFound();
      await tasks?.store.settle([b.taskId]);
      const fixed = b.profileId ? await profile(b.profileId) : undefined;
      if (b.profileId && !fixed) throw badRequest('invalidParam', { field: 'profileId' });
      const profiles = new Map(
        (await sql<ProfileRow>`SELECT * FROM config_profiles`.execute(ctx.db)).rows.map((p) => [p.model, p]),
      );
      const total = await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM task_items WHERE task_id = ${b.taskId}::bigint`.execute(ctx.db);
      const rows = await sql<{
        task_id: string;
        terminal_id: string;
        state: (typeof TASK_ITEM_STATES)[number];
        reply: string | null;
        detail: string;
        sent_at: Date | null;
        done_at: Date | null;
        content: string | null;
        device_type: number | null;
        protocol: number | null;
      }>`
        SELECT ti.task_id, ti.terminal_id, ti.state, ti.reply, ti.detail, ti.sent_at, ti.done_at, c.content,
               d.device_type, d.protocol
          FROM task_items ti LEFT JOIN commands c ON c.id = ti.command_id LEFT JOIN devices d ON d.id = ti.device_id
         WHERE ti.task_id = ${b.taskId}::bigint ORDER BY ti.terminal_id, ti.id
         LIMIT ${b.pageSize} OFFSET ${(b.pageNum - 1) * b.pageSize}`.execute(ctx.db);
      const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
      return ok({
        total: Number(total.rows[0]?.n ?? 0),
        list: rows.rows.map((r) => {
          const read =
            task.kind === 'configRead' && r.state === 'success' && r.reply ? parseConfigReply(r.reply) : null;
          const expected = fixed ?? (r.device_type === null ? undefined : profiles.get(r.device_type));
          return {
            taskId: String(r.task_id),
            terminalID: r.terminal_id,
            model: r.device_type,
            content: r.content ?? '',
            status: r.state,
            reply: r.reply,
            detail: r.detail,
            sentTime: iso(r.sent_at),
            replyTime: r.state === 'success' || r.state === 'failed' ? iso(r.done_at) : null,
            params: read as Record<string, string | number> | null,
            differences: read && expected ? configDifferences(expected.params, read, r.protocol ?? 2) : null,
          };
        }),
      });
    },
  );
}
