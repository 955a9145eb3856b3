// /api/agps/*: AGPS assistance data (spec §2 /test/agps; roles test and wanweiTest). One file per provider and
// kind, uploaded by staff or refreshed from an upstream URL on a schedule (each process checks every
// AGPS_CHECK_SECONDS and claims due files with one UPDATE, so two processes never fetch the same file twice);
// devices fetch it at a stable public URL, /api/agps/file/<provider>/<kind>, answered with Last-Modified and ETag
// (304 for a device that already has it) and counted. The screen shows each file's age and download count.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';

const AGPS = ['factory:agps'];
/** Largest assistance file kept (real ones are a few kB to a few hundred kB). */
export const MAX_AGPS_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;
const nameSchema = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/);
const idSchema = z.string().regex(/^\d{1,18}$/);
const upstreamSchema = z
  .string()
  .trim()
  .max(1000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), { message: 'http(s) only' });

const fileSchema = z.object({
  id: z.string(),
  provider: z.string(),
  kind: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** When the current content arrived (null: nothing yet). */
  modifiedAt: z.string().nullable(),
  /** Seconds since then (the screen's age). */
  ageSeconds: z.number().int().nullable(),
  upstreamUrl: z.string().nullable(),
  refreshMinutes: z.number().int().nullable(),
  nextRefreshAt: z.string().nullable(),
  lastFetchAt: z.string().nullable(),
  lastError: z.string(),
  downloads: z.number().int(),
  /** The path devices fetch, below the server's address. */
  path: z.string(),
});

interface Row {
  id: string;
  provider: string;
  kind: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  modified_at: Date | null;
  upstream_url: string | null;
  refresh_minutes: number | null;
  next_refresh_at: Date | null;
  last_fetch_at: Date | null;
  last_error: string;
  downloads: string | number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The stable path a device fetches a file at. */
export function agpsPath(provider: string, kind: string): string {
  return `/api/agps/file/${encodeURIComponent(provider)}/${encodeURIComponent(kind)}`;
}

function present(r: Row, now = Date.now()) {
  return {
    id: String(r.id),
    provider: r.provider,
    kind: r.kind,
    fileName: r.file_name,
    contentType: r.content_type,
    size: r.size,
    sha256: r.sha256,
    modifiedAt: iso(r.modified_at),
    ageSeconds: r.modified_at ? Math.max(0, Math.floor((now - new Date(r.modified_at).getTime()) / 1000)) : null,
    upstreamUrl: r.upstream_url,
    refreshMinutes: r.refresh_minutes,
    nextRefreshAt: iso(r.next_refresh_at),
    lastFetchAt: iso(r.last_fetch_at),
    lastError: r.last_error,
    downloads: Number(r.downloads),
    path: agpsPath(r.provider, r.kind),
  };
}

const COLUMNS = sql`id, provider, kind, file_name, content_type, size, sha256, modified_at, upstream_url, refresh_minutes,
  next_refresh_at, last_fetch_at, last_error, downloads`;

async function rowById(ctx: AppContext, id: string): Promise<Row | undefined> {
  const r = await sql<Row>`SELECT ${COLUMNS} FROM agps_files WHERE id = ${id}::bigint`.execute(ctx.db);
  return r.rows[0];
}

/**
 * Fetches one file from its upstream (conditionally, with the upstream's own ETag / Last-Modified) and stores a
 * changed answer. Errors are kept on the row (the screen shows them); the old content stays served.
 */
export async function refreshAgpsFile(ctx: AppContext, id: string): Promise<Row | undefined> {
  const r = await sql<{
    upstream_url: string | null;
    upstream_etag: string | null;
    upstream_last_modified: string | null;
    sha256: string;
  }>`SELECT upstream_url, upstream_etag, upstream_last_modified, sha256 FROM agps_files WHERE id = ${id}::bigint`.execute(
    ctx.db,
  );
  const row = r.rows[0];
  if (!row?.upstream_url) return rowById(ctx, id);
  const headers: Record<string, string> = {};
  if (row.upstream_etag) headers['if-none-match'] = row.upstream_etag;
  if (row.upstream_last_modified) headers['if-modified-since'] = row.upstream_last_modified;
  let error = '';
  try {
    const res = await fetch(row.upstream_url, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (res.status === 304) {
      await res.body?.cancel();
    } else if (!res.ok) {
      await res.body?.cancel();
      error = `upstream answered ${res.status}`;
    } else {
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > MAX_AGPS_BYTES) throw new Error(`upstream file too large (${declared} bytes)`);
      const data = Buffer.from(await res.arrayBuffer());
      if (data.length === 0) throw new Error('upstream answered an empty file');
      if (data.length > MAX_AGPS_BYTES) throw new Error(`upstream file too large (${data.length} bytes)`);
      const sha256 = createHash('sha256').update(data).digest('hex');
      const fileName = new URL(row.upstream_url).pathname.split('/').pop() || 'agps.bin';
      // The same bytes again (an upstream without validators): the file keeps its age.
      await sql`
        UPDATE agps_files SET data = ${data}, size = ${data.length}, sha256 = ${sha256},
               file_name = ${fileName.slice(0, 200)},
               content_type = ${(res.headers.get('content-type') ?? 'application/octet-stream').slice(0, 100)},
               modified_at = CASE WHEN sha256 = ${sha256} AND modified_at IS NOT NULL THEN modified_at ELSE now() END,
               upstream_etag = ${res.headers.get('etag')}, upstream_last_modified = ${res.headers.get('last-modified')}
         WHERE id = ${id}::bigint`.execute(ctx.db);
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  await sql`UPDATE agps_files SET last_fetch_at = now(), last_error = ${error.slice(0, 500)} WHERE id = ${id}::bigint`.execute(
    ctx.db,
  );
  return rowById(ctx, id);
}

/** Claims the files due for a refresh (moving their next time on first) and refreshes them; answers how many. */
export async function refreshDueAgps(ctx: AppContext): Promise<number> {
  const due = await sql<{ id: string }>`
    UPDATE agps_files SET next_refresh_at = now() + make_interval(mins => refresh_minutes)
     WHERE upstream_url IS NOT NULL AND refresh_minutes IS NOT NULL AND next_refresh_at <= now()
     RETURNING id`.execute(ctx.db);
  for (const d of due.rows) await refreshAgpsFile(ctx, String(d.id));
  return due.rows.length;
}

function httpDate(d: Date): string {
  return d.toUTCString();
}

export async function agpsRoutes(app: App, ctx: AppContext): Promise<void> {
  const everyMs = Math.max(1, Number(process.env.AGPS_CHECK_SECONDS ?? 30)) * 1000;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refreshDueAgps(ctx)
      .catch((err) => app.log.warn({ err }, 'AGPS refresh failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.post(
    '/agps/find',
    {
      config: { permission: AGPS },
      schema: {
        tags: ['agps'],
        summary: 'The AGPS files by provider and kind, with age, source, last refresh and download count',
        body: z.object({ provider: nameSchema.optional() }).default({}),
        response: { 200: envelopeOf(z.object({ total: z.number().int(), list: z.array(fileSchema) })) },
      },
    },
    async (req) => {
      const where = req.body.provider ? sql`provider = ${req.body.provider}` : sql`TRUE`;
      const rows = await sql<Row>`SELECT ${COLUMNS} FROM agps_files WHERE ${where} ORDER BY provider, kind`.execute(
        ctx.db,
      );
      const now = Date.now();
      return ok({ total: rows.rows.length, list: rows.rows.map((r) => present(r, now)) });
    },
  );

  app.post(
    '/agps/upload',
    {
      config: { permission: AGPS },
      schema: {
        tags: ['agps'],
        summary: 'Upload (or replace) the file of a provider and kind (base64); its age starts now',
        body: z.object({
          provider: nameSchema,
          kind: nameSchema,
          fileName: z.string().trim().min(1).max(200),
          data: z
            .string()
            .min(1)
            .max(Math.ceil((MAX_AGPS_BYTES * 4) / 3) + 4),
        }),
        response: { 200: envelopeOf(fileSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      if (!/^[A-Za-z0-9+/]+=*$/.test(b.data)) throw badRequest('invalidParam', { field: 'data' });
      const data = Buffer.from(b.data, 'base64');
      if (data.length === 0 || data.length > MAX_AGPS_BYTES) throw badRequest('invalidParam', { field: 'data' });
      const sha256 = createHash('sha256').update(data).digest('hex');
      const r = await sql<Row>`
        INSERT INTO agps_files (provider, kind, file_name, data, size, sha256, modified_at, updated_by)
        VALUES (${b.provider}, ${b.kind}, ${b.fileName}, ${data}, ${data.length}, ${sha256}, now(), ${req.user!.username})
        ON CONFLICT (provider, kind) DO UPDATE SET file_name = EXCLUDED.file_name, data = EXCLUDED.data,
          size = EXCLUDED.size, sha256 = EXCLUDED.sha256, modified_at = now(), updated_by = EXCLUDED.updated_by,
          content_type = 'application/octet-stream'
        RETURNING ${COLUMNS}`.execute(ctx.db);
      return ok(present(r.rows[0] as Row));
    },
  );

  app.post(
    '/agps/source',
    {
      config: { permission: AGPS },
      schema: {
        tags: ['agps'],
        summary:
          'Set (or clear, with upstreamUrl null) the upstream a provider/kind file is refreshed from every refreshMinutes; fetched once now',
        body: z.object({
          provider: nameSchema,
          kind: nameSchema,
          upstreamUrl: upstreamSchema.nullable(),
          refreshMinutes: z
            .number()
            .int()
            .min(1)
            .max(7 * 24 * 60)
            .default(60),
        }),
        response: { 200: envelopeOf(fileSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const r = await sql<{ id: string }>`
        INSERT INTO agps_files (provider, kind, upstream_url, refresh_minutes, next_refresh_at, updated_by)
        VALUES (${b.provider}, ${b.kind}, ${b.upstreamUrl}, ${b.upstreamUrl ? b.refreshMinutes : null},
                ${b.upstreamUrl ? sql`now() + make_interval(mins => ${b.refreshMinutes})` : null}, ${req.user!.username})
        ON CONFLICT (provider, kind) DO UPDATE SET upstream_url = EXCLUDED.upstream_url,
          refresh_minutes = EXCLUDED.refresh_minutes, next_refresh_at = EXCLUDED.next_refresh_at,
          upstream_etag = NULL, upstream_last_modified = NULL, last_error = '', updated_by = EXCLUDED.updated_by
        RETURNING id`.execute(ctx.db);
      const id = String(r.rows[0]?.id);
      const row = b.upstreamUrl ? await refreshAgpsFile(ctx, id) : await rowById(ctx, id);
      return ok(present(row as Row));
    },
  );

  app.post(
    '/agps/refresh',
    {
      config: { permission: AGPS },
      schema: {
        tags: ['agps'],
        summary: 'Fetch a file from its upstream now',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(fileSchema) },
      },
    },
    async (req) => {
      const row = await rowById(ctx, req.body.id);
      if (!row) throw notFound();
      if (!row.upstream_url) throw badRequest('invalidParam', { field: 'id' });
      return ok(present((await refreshAgpsFile(ctx, req.body.id)) as Row));
    },
  );

  app.post(
    '/agps/delete',
    {
      config: { permission: AGPS },
      schema: {
        tags: ['agps'],
        summary: 'Remove a provider/kind file (its URL answers 404 afterwards)',
        body: z.object({ id: idSchema }),
        response: { 200: envelopeOf(z.object({ deleted: z.boolean() })) },
      },
    },
    async (req) => {
      const r = await sql`DELETE FROM agps_files WHERE id = ${req.body.id}::bigint`.execute(ctx.db);
      if (Number(r.numAffectedRows ?? 0) === 0) throw notFound();
      return ok({ deleted: true });
    },
  );

  app.get(
    '/agps/file/:provider/:kind',
    {
      config: { public: true },
      schema: {
        tags: ['agps'],
        summary:
          'A device’s AGPS download at a stable URL: Last-Modified and ETag, 304 when unchanged (If-None-Match / If-Modified-Since); each full download counted',
        params: z.object({ provider: nameSchema, kind: nameSchema }),
      },
    },
    async (req, reply) => {
      const r = await sql<{
        id: string;
        data: Uint8Array | null;
        sha256: string;
        modified_at: Date | null;
        ct: string;
      }>`
        SELECT id, data, sha256, modified_at, content_type AS ct FROM agps_files
         WHERE provider = ${req.params.provider} AND kind = ${req.params.kind}`.execute(ctx.db);
      const f = r.rows[0];
      if (!f?.data || !f.modified_at) throw notFound();
      // HTTP dates have whole seconds.
      const modified = new Date(Math.floor(new Date(f.modified_at).getTime() / 1000) * 1000);
      const etag = `"${f.sha256}"`;
      reply.header('etag', etag).header('last-modified', httpDate(modified)).header('cache-control', 'no-cache');
      const inm = req.headers['if-none-match'];
      const ims = req.headers['if-modified-since'];
      const fresh =
        inm !== undefined
          ? inm
              .split(',')
              .map((s) => s.trim())
              .some((t) => t === etag || t === `W/${etag}` || t === '*')
          : ims !== undefined && Number.isFinite(Date.parse(ims)) && Date.parse(ims) >= modified.getTime();
      if (fresh) return reply.code(304).send();
      await sql`UPDATE agps_files SET downloads = downloads + 1 WHERE id = ${f.id}`.execute(ctx.db);
      return reply.type(f.ct || 'application/octet-stream').send(Buffer.from(f.data));
    },
  );
}
