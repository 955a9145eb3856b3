// /api/share/* — share links (issue 18): a user shares one device's live position for 1 hour to 7 days. The link
// carries an unguessable token (32 random bytes, base64url); only its SHA-256 is stored, so the link is shown once,
// at creation. The public view answers that one device's name and last position and nothing else: it takes no
// other parameter, sets no session, and a revoked, expired or transferred-away link answers only its state.
// The page polls the view (every SHARE_POLL_SECONDS): anonymous viewers get no socket on the live hub (whose
// filtering is by account), each poll re-checks revocation and expiry, and the device state it reads is written
// by the gateway within 250 ms of a fix.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { noPermission, notFound } from '../../http/errors.ts';
import { reachesPath } from '../../http/hierarchy.ts';
import type { App } from '../../http/types.ts';
import { deviceByRef } from '../location/devices.ts';
import { idSchema, terminalIdSchema } from '../location/params.ts';

const PERMISSION = ['main:monitor'];
const MIN_HOURS = 1;
const MAX_HOURS = 24 * 7;
/** How often the public page asks again (the web reads it from the view's answer). */
export const SHARE_POLL_SECONDS = 5;

const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type ShareState = 'active' | 'expired' | 'revoked';

function stateOf(r: { revoked_at: Date | null; expires_at: Date }, now = Date.now()): ShareState {
  if (r.revoked_at) return 'revoked';
  return new Date(r.expires_at).getTime() <= now ? 'expired' : 'active';
}

const linkSchema = z.object({
  id: z.string(),
  terminalID: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
  lastViewedAt: z.string().nullable(),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const viewSchema = z.object({
  state: z.enum(['active', 'expired', 'revoked']),
  expiresAt: z.string(),
  pollSeconds: z.number(),
  device: z
    .object({
      name: z.string(),
      online: z.boolean(),
      position: z
        .object({
          time: z.string(),
          lat: z.number(),
          lon: z.number(),
          speed: z.number(),
          course: z.number(),
        })
        .nullable(),
    })
    .nullable(),
});

export async function shareRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/share/add',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['share'],
        summary:
          "Shares one device's live position for 1 to 168 hours: answers the link's token once (only its hash is kept); the public page is /share/<token>",
        body: z.object({
          terminalID: terminalIdSchema.optional(),
          deviceId: idSchema.optional(),
          hours: z.number().int().min(MIN_HOURS).max(MAX_HOURS),
        }),
        response: {
          200: envelopeOf(z.object({ id: z.string(), token: z.string(), path: z.string(), expiresAt: z.string() })),
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const device = await deviceByRef(ctx, user, req.body);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + req.body.hours * 3_600_000);
      const row = await ctx.db
        .insertInto('share_links')
        .values({
          device_id: device.id,
          token_hash: hashToken(token),
          owner_id: device.userId,
          created_by: user.id,
          created_by_name: user.username,
          expires_at: expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return ok({ id: String(row.id), token, path: `/share/${token}`, expiresAt: expiresAt.toISOString() });
    },
  );

  app.post(
    '/share/find',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['share'],
        summary:
          "A device's share links, newest first (at most 100): who made each, until when, state, when last viewed",
        body: z.object({ terminalID: terminalIdSchema.optional(), deviceId: idSchema.optional() }),
        response: { 200: envelopeOf(z.array(linkSchema)) },
      },
    },
    async (req) => {
      const device = await deviceByRef(ctx, req.user!, req.body);
      const rows = await ctx.db
        .selectFrom('share_links')
        .selectAll()
        .where('device_id', '=', device.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      return ok(
        rows.map((r) => ({
          id: String(r.id),
          terminalID: device.terminalId,
          createdBy: r.created_by_name,
          createdAt: iso(r.created_at)!,
          expiresAt: iso(r.expires_at)!,
          revokedAt: iso(r.revoked_at),
          revokedBy: r.revoked_by_name,
          state: stateOf(r),
          lastViewedAt: iso(r.last_viewed_at),
        })),
      );
    },
  );

  app.post(
    '/share/revoke',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['share'],
        summary: 'Revokes a share link at once (its page then says so); a link of a device out of reach is refused',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ id: z.string(), state: z.enum(['active', 'expired', 'revoked']) })) },
      },
    },
    async (req) => {
      const user = req.user!;
      const link = await ctx.db
        .selectFrom('share_links as s')
        .innerJoin('devices as d', 'd.id', 's.device_id')
        .leftJoin('users as u', 'u.id', 'd.user_id')
        .select(['s.id', 's.revoked_at', 's.expires_at', 'u.path'])
        .where('s.id', '=', req.body.id)
        .executeTakeFirst();
      if (!link) throw user.role === 1 ? notFound() : noPermission();
      if (!reachesPath(user, link.path ?? '')) throw noPermission();
      if (!link.revoked_at) {
        await ctx.db
          .updateTable('share_links')
          .set({ revoked_at: new Date(), revoked_by_name: user.username })
          .where('id', '=', link.id)
          .where('revoked_at', 'is', null)
          .execute();
      }
      return ok({ id: String(link.id), state: 'revoked' as const });
    },
  );

  app.get(
    '/share/view/:token',
    {
      config: { public: true },
      schema: {
        tags: ['share'],
        summary:
          "The public share page's data (no sign-in): the shared device's name and last position while the link is active; only the state (expired, revoked) otherwise",
        params: z.object({ token: tokenSchema }),
        response: { 200: envelopeOf(viewSchema) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      const r = await ctx.db
        .selectFrom('share_links as s')
        .innerJoin('devices as d', 'd.id', 's.device_id')
        .leftJoin('device_state as st', 'st.device_id', 'd.id')
        .select([
          's.id',
          's.owner_id',
          's.expires_at',
          's.revoked_at',
          'd.user_id',
          'd.nickname',
          'd.car_number',
          'st.online',
          'st.pos_time',
          'st.lat',
          'st.lon',
          'st.speed',
          'st.course',
        ])
        .where('s.token_hash', '=', hashToken(req.params.token))
        .executeTakeFirst();
      if (!r) throw notFound();
      // A device that changed hands since the link was made is no longer the sharer's to show.
      const transferred = String(r.owner_id ?? '') !== String(r.user_id ?? '');
      const state: ShareState = transferred ? 'revoked' : stateOf(r);
      const expiresAt = iso(r.expires_at)!;
      if (state !== 'active') return ok({ state, expiresAt, pollSeconds: SHARE_POLL_SECONDS, device: null });
      // When it was last looked at (at most one write a minute, however many viewers poll).
      await sql`UPDATE share_links SET last_viewed_at = now() WHERE id = ${r.id}
        AND (last_viewed_at IS NULL OR last_viewed_at < now() - interval '1 minute')`.execute(ctx.db);
      const position =
        r.lat === null || r.lon === null || r.pos_time === null
          ? null
          : {
              time: iso(r.pos_time)!,
              lat: Number(r.lat),
              lon: Number(r.lon),
              speed: Number(r.speed ?? 0),
              course: Number(r.course ?? 0),
            };
      return ok({
        state,
        expiresAt,
        pollSeconds: SHARE_POLL_SECONDS,
        device: { name: r.nickname || r.car_number || '', online: Boolean(r.online), position },
      });
    },
  );
}
