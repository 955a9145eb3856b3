// /api/recording/* — the recordings terminals upload (JT/T 808 0x0801): a device's list for its owners (with the
// command that asked for each), the fleet-wide tape download search of the test role (factory:tape_download), and
// the file itself to play or download.
import { commandLabel } from '@carhere/domain';
import { type Expression, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { holdsPermission } from '../../http/access.ts';
import { envelopeOf, ok, pageOf, pageQuery } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { callerLang } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { assertFeature } from '../deviceTypes/store.ts';
import { deviceByRef, devicesByIds } from '../location/devices.ts';
import { flagSchema, idSchema, instantSchema, terminalIdSchema } from '../location/params.ts';
import { mediaFormat } from './media.ts';

const OWNER = ['main:command'];
const TAPE = ['factory:tape_download'];

const recordingSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  /** When the platform received the whole file (ISO). */
  time: z.string(),
  /** Length in milliseconds (WAV, MP3), or null when the format does not tell. */
  durationMs: z.number().nullable(),
  size: z.number(),
  /** 0 image, 1 audio, 2 video */
  mediaType: z.number(),
  /** 0 JPEG, 1 TIF, 2 MP3, 3 WAV, 4 WMV */
  format: z.number(),
  mime: z.string(),
  /** 0 the platform's command, 1 timer, 2 robbery alarm, 3 collision, … */
  event: z.number(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  /** The record-audio command that asked for it, with its text and label. */
  commandId: z.string().nullable(),
  command: z.string().nullable(),
  commandType: z.string().nullable(),
});

type Row = {
  id: string;
  terminal_id: string;
  received_at: Date;
  duration_ms: number | null;
  size: number;
  media_type: number;
  format: number;
  event: number;
  lat: number | null;
  lon: number | null;
  command_id: string | null;
  content: string | null;
};

function present(r: Row, lang: string): z.infer<typeof recordingSchema> {
  return {
    id: String(r.id),
    terminalID: r.terminal_id,
    time: new Date(r.received_at).toISOString(),
    durationMs: r.duration_ms,
    size: r.size,
    mediaType: r.media_type,
    format: r.format,
    mime: mediaFormat(r.format).mime,
    event: r.event,
    lat: r.lat,
    lon: r.lon,
    commandId: r.command_id === null ? null : String(r.command_id),
    command: r.content,
    commandType: r.content === null ? null : commandLabel(r.content, lang),
  };
}

const range = {
  startTime: instantSchema.optional(),
  endTime: instantSchema.optional(),
};

export async function recordingRoutes(app: App, ctx: AppContext): Promise<void> {
  const page = async (
    where: Expression<SqlBool>[],
    p: { pageNum: number; pageSize: number; startTime?: number; endTime?: number },
    lang: string,
  ) => {
    if (p.startTime !== undefined && p.endTime !== undefined && p.startTime > p.endTime) {
      throw badRequest('invalidParam', { field: 'startTime' });
    }
    const all = [...where];
    if (p.startTime !== undefined) all.push(sql<SqlBool>`r.received_at >= ${new Date(p.startTime)}`);
    if (p.endTime !== undefined) all.push(sql<SqlBool>`r.received_at <= ${new Date(p.endTime)}`);
    const base = ctx.db
      .selectFrom('recordings as r')
      .leftJoin('commands as c', 'c.id', 'r.command_id')
      .where((eb) => eb.and(all));
    const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'r.id',
        'r.terminal_id',
        'r.received_at',
        'r.duration_ms',
        'r.size',
        'r.media_type',
        'r.format',
        'r.event',
        'r.lat',
        'r.lon',
        'r.command_id',
        'c.content',
      ])
      .orderBy('r.received_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(p.pageSize)
      .offset((p.pageNum - 1) * p.pageSize)
      .execute();
    return ok({ total: Number(total.n), list: rows.map((r) => present(r as Row, lang)) });
  };

  app.post(
    '/recording/find',
    {
      config: { permission: OWNER },
      schema: {
        tags: ['recordings'],
        summary:
          "A device's recordings, newest first: time, length, size, format and the record-audio command that asked for each",
        body: z.object({ terminalID: terminalIdSchema, ...range, ...pageQuery }),
        response: { 200: envelopeOf(pageOf(recordingSchema)) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      await assertFeature(ctx.db, device.deviceType, 'recording');
      return page([sql<SqlBool>`r.device_id = ${device.id}`], req.body, callerLang(req));
    },
  );

  app.post(
    '/recording/search',
    {
      config: { permission: TAPE },
      schema: {
        tags: ['recordings'],
        summary: 'Tape download (factory:tape_download): recordings of the whole fleet by IMEI and time, newest first',
        body: z.object({ terminalID: z.string().trim().max(32).optional(), ...range, ...pageQuery }),
        response: { 200: envelopeOf(pageOf(recordingSchema)) },
      },
    },
    async (req) => {
      const where: Expression<SqlBool>[] = [];
      const t = req.body.terminalID;
      if (t) where.push(sql<SqlBool>`r.terminal_id LIKE ${`${t.replace(/[\\%_]/g, '\\$&')}%`}`);
      return page(where, req.body, callerLang(req));
    },
  );

  app.get(
    '/recording/file',
    {
      config: { permission: [...OWNER, ...TAPE] },
      schema: {
        tags: ['recordings'],
        summary:
          'The recorded file (audio/wav, audio/mpeg, …) to play; download=1 asks the browser to save it. Owners reach their subtree, the test role the fleet',
        querystring: z.object({ id: idSchema, download: flagSchema.optional() }),
      },
    },
    async (req, reply) => {
      const row = await ctx.db
        .selectFrom('recordings')
        .select(['device_id', 'terminal_id', 'format', 'data', 'received_at', 'media_id'])
        .where('id', '=', req.query.id)
        .executeTakeFirst();
      if (!holdsPermission(req.permissions, TAPE)) {
        // Owners: the device must be within reach (a missing row and an unreachable one answer alike).
        if (!row) throw notFound();
        await devicesByIds(ctx, req.user!, [String(row.device_id)]);
      }
      if (!row) throw notFound();
      const { mime, ext } = mediaFormat(row.format);
      const stamp = new Date(row.received_at).toISOString().replace(/[-:]/g, '').slice(0, 15);
      const name = `${row.terminal_id.replace(/[^\w-]/g, '_')}-${stamp}-${row.media_id}.${ext}`;
      const data = Buffer.from(row.data);
      return reply
        .type(mime)
        .header('content-disposition', `${req.query.download ? 'attachment' : 'inline'}; filename="${name}"`)
        .header('cache-control', 'private, max-age=3600')
        .send(data);
    },
  );
}
