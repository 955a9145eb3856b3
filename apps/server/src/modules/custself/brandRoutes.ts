// Brands (issue 16, "per-brand login pages"): the administrator defines brands — name, logo, title, colours,
// app link, default language and map — each chosen by a path key (/b/<key>) or a host name. Before anyone signs
// in, GET /brand/current tells the login page which brand the host name or path asks for; the signed-in layout
// keeps following it. Brands are the platform's, not an account's: only the system configuration permission
// (the administrator's) lists or edits them, and no account tree is involved.
import { LANGUAGES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import type { App } from '../../http/types.ts';
import { idBody, text } from '../agent/schema.ts';

const brandSchema = z.object({
  id: z.string(),
  key: z.string().describe('path key: the brand’s login page is /b/<key>'),
  host: z.string().describe('host name that selects the brand (empty: by path only)'),
  name: z.string(),
  title: z.string(),
  logo: z.string().describe('data: URL of the logo image, or empty'),
  primaryColor: z.string(),
  headerColor: z.string(),
  appUrl: z.string(),
  defaultLang: z.string(),
  defaultMap: z.string(),
});
type Brand = z.infer<typeof brandSchema>;

const COLOUR = /^#[0-9a-fA-F]{6}$/;
/** Logos are small pictures kept in the row: PNG, JPEG, WebP or GIF as a base64 data URL (no SVG: it can script). */
const LOGO = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;
const MAX_LOGO_CHARS = 200_000;

const brandInput = z.object({
  id: z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()]).optional(),
  key: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{1,31}$/),
  host: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^$|^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/)
    .default(''),
  name: text(50).min(1),
  title: text(100).default(''),
  logo: z
    .string()
    .max(MAX_LOGO_CHARS)
    .refine((v) => v === '' || LOGO.test(v), 'a PNG, JPEG, WebP or GIF data URL')
    .default(''),
  primaryColor: z.string().regex(COLOUR).default('#1677ff'),
  headerColor: z.string().regex(COLOUR).default('#001529'),
  appUrl: z
    .string()
    .trim()
    .max(500)
    .regex(/^$|^https?:\/\/[^\s"'<>]+$/)
    .default(''),
  defaultLang: z.union([z.literal(''), z.enum(LANGUAGES)]).default(''),
  defaultMap: z
    .string()
    .regex(/^[A-Za-z]{0,20}$/)
    .default(''),
});

const COLUMNS = [
  'id',
  'key',
  'host',
  'name',
  'title',
  'logo',
  'primary_color',
  'header_color',
  'app_url',
  'default_lang',
  'default_map',
] as const;

type Row = {
  id: string;
  key: string;
  host: string;
  name: string;
  title: string;
  logo: string;
  primary_color: string;
  header_color: string;
  app_url: string;
  default_lang: string;
  default_map: string;
};

function toBrand(r: Row): Brand {
  return {
    id: String(r.id),
    key: r.key,
    host: r.host,
    name: r.name,
    title: r.title,
    logo: r.logo,
    primaryColor: r.primary_color,
    headerColor: r.header_color,
    appUrl: r.app_url,
    defaultLang: r.default_lang,
    defaultMap: r.default_map,
  };
}

/** The brand a path key names, else the one whose host name is the request's. */
async function brandFor(ctx: AppContext, key: string | undefined, hostname: string): Promise<Brand | null> {
  if (key) {
    const byKey = await ctx.db.selectFrom('brands').select(COLUMNS).where('key', '=', key).executeTakeFirst();
    if (byKey) return toBrand(byKey);
  }
  const host = hostname.toLowerCase().replace(/:\d+$/, '');
  if (host === '') return null;
  const byHost = await ctx.db
    .selectFrom('brands')
    .select(COLUMNS)
    .where('host', '<>', '')
    .where((eb) => eb(eb.fn('lower', ['host']), '=', host))
    .executeTakeFirst();
  return byHost ? toBrand(byHost) : null;
}

export async function brandRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/brand/current',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary:
          'The brand of the login page and layout: by its path key (/b/<key>) if given and known, else by the host name of the request; null for the platform’s own look',
        querystring: z.object({
          key: z
            .string()
            .trim()
            .toLowerCase()
            .regex(/^[a-z0-9-]{0,32}$/)
            .optional(),
        }),
        response: { 200: envelopeOf(brandSchema.nullable()) },
      },
    },
    async (req) => ok(await brandFor(ctx, req.query.key, req.hostname)),
  );

  app.post(
    '/brand/list',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary: 'Brands of the login pages (administrator)',
        body: z.object({}).optional(),
        response: { 200: envelopeOf(z.array(brandSchema)) },
      },
    },
    async () => {
      const rows = await ctx.db.selectFrom('brands').select(COLUMNS).orderBy('key').execute();
      return ok(rows.map(toBrand));
    },
  );

  app.post(
    '/brand/save',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary: 'Add a brand, or change one (with id): key and host name are each unique (administrator)',
        body: brandInput,
        response: { 200: envelopeOf(brandSchema) },
      },
    },
    async (req) => {
      const b = req.body;
      const id = b.id === undefined ? undefined : String(b.id);
      const clash = await ctx.db
        .selectFrom('brands')
        .select(['id', 'key', 'host'])
        .where((eb) => eb.or([eb('key', '=', b.key), ...(b.host ? [eb(eb.fn('lower', ['host']), '=', b.host)] : [])]))
        .execute();
      const other = clash.find((c) => String(c.id) !== id);
      if (other) throw badRequest('invalidParam', { field: other.key === b.key ? 'key' : 'host' });
      const values = {
        key: b.key,
        host: b.host,
        name: b.name,
        title: b.title,
        logo: b.logo,
        primary_color: b.primaryColor,
        header_color: b.headerColor,
        app_url: b.appUrl,
        default_lang: b.defaultLang,
        default_map: b.defaultMap,
      };
      let row: Row | undefined;
      if (id === undefined) {
        row = await ctx.db.insertInto('brands').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
      } else {
        row = await ctx.db
          .updateTable('brands')
          .set({ ...values, updated_at: new Date() })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!row) throw notFound();
      }
      return ok(toBrand(row), translate('action.save.success', callerLang(req)));
    },
  );

  app.post(
    '/brand/delete',
    {
      config: { permission: ['main:system_config'] },
      schema: {
        tags: ['system'],
        summary: 'Delete a brand (administrator): its path and host name show the platform’s own look again',
        body: idBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (req) => {
      const res = await ctx.db.deleteFrom('brands').where('id', '=', req.body.id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound();
      return ok(null, translate('action.delete.success', callerLang(req)));
    },
  );
}
