// /api/setting/subscribe/*: the NB-IoT / CCS platform settings screen (spec §2 /test/setting/subscribe,
// permission factory:subscribe). Find shows each field (secrets only as set / not set) and which ones the
// environment holds; save stores the others (secrets sealed; a secret left out stays, null clears it); test tries
// the platform with the settings in force: a login with appId + secret where there is one, else a request to the
// command URL with the configured credentials.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import {
  DEFAULT_NOTIFY_TYPES,
  downlinkFrom,
  envHeld,
  FIELD_NAMES,
  forgetCallbackSettings,
  notifyTypesOf,
  readStoredSubscribe,
  SUBSCRIBE_CHANGED,
  SUBSCRIBE_FIELDS,
  type SubscribeField,
  writeStoredSubscribe,
} from './settings.ts';

const PERM = ['factory:subscribe'];
const TEST_TIMEOUT_MS = 8000;

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), { message: 'http(s) only' });
const text = z.string().trim().max(200);
const secret = z.string().trim().min(1).max(500).nullable();

const saveSchema = z.object({
  callbackToken: secret.optional(),
  appSecret: secret.optional(),
  accessToken: secret.optional(),
  commandUrl: z.union([httpUrl, z.literal('')]).optional(),
  authUrl: z.union([httpUrl, z.literal('')]).optional(),
  callbackUrl: z.union([httpUrl, z.literal('')]).optional(),
  appId: text.optional(),
  serviceId: text.optional(),
  method: text.optional(),
  paraName: text.optional(),
  encoding: z.enum(['frame', 'text', '']).optional(),
  notifyTypes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/),
    )
    .max(20)
    .optional(),
});

const viewSchema = z.object({
  /** Non-secret values in force (the environment's where it holds them). */
  values: z.record(z.string(), z.string()),
  /** Secrets: set or not (never their value). */
  secrets: z.record(z.string(), z.boolean()),
  /** Fields the environment holds: shown, not editable here. */
  fromEnv: z.array(z.string()),
  notifyTypes: z.array(z.string()),
  defaultNotifyTypes: z.array(z.string()),
  /** The callbacks the platform is given (below the server's address; ?token=… added by the platform). */
  callbacks: z.array(z.string()),
});

async function view(ctx: AppContext) {
  const stored = await readStoredSubscribe(ctx);
  const held = envHeld();
  const values: Record<string, string> = {};
  const secrets: Record<string, boolean> = {};
  for (const name of FIELD_NAMES) {
    const envName = SUBSCRIBE_FIELDS[name].env;
    const v = held.includes(name) ? (process.env[envName] as string) : stored[name];
    if (SUBSCRIBE_FIELDS[name].secret) secrets[name] = v !== undefined && v !== '';
    else if (name !== 'notifyTypes' && v !== undefined) values[name] = v;
  }
  const notify = held.includes('notifyTypes') ? process.env.NB_NOTIFY_TYPES : stored.notifyTypes;
  return {
    values,
    secrets,
    fromEnv: held,
    notifyTypes: notifyTypesOf(notify),
    defaultNotifyTypes: DEFAULT_NOTIFY_TYPES,
    callbacks: ['/api/nb/subscribe', '/api/ccs/subscribe'],
  };
}

async function tryPlatform(ctx: AppContext): Promise<{ ok: boolean; status: number | null; detail: string }> {
  const options = downlinkFrom(await readStoredSubscribe(ctx));
  if (!options) return { ok: false, status: null, detail: 'no platform URL configured' };
  try {
    if (options.authUrl && options.appId && options.appSecret && !options.accessToken) {
      const res = await fetch(options.authUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ appId: options.appId, secret: options.appSecret }).toString(),
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      });
      const body = await res.text();
      let token = false;
      try {
        token = typeof (JSON.parse(body) as { accessToken?: unknown }).accessToken === 'string';
      } catch {
        token = false;
      }
      if (res.ok && token) return { ok: true, status: res.status, detail: 'login accepted (accessToken received)' };
      return {
        ok: false,
        status: res.status,
        detail: `login answered ${res.status}${token ? '' : ' without a token'}`,
      };
    }
    const headers: Record<string, string> = {};
    if (options.appId) headers.app_key = options.appId;
    if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
    const res = await fetch(options.commandUrl, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) {
      return { ok: false, status: res.status, detail: `credentials refused (${res.status})` };
    }
    if (res.status >= 500) return { ok: false, status: res.status, detail: `platform error (${res.status})` };
    return { ok: true, status: res.status, detail: `platform reachable (${res.status})` };
  } catch (err) {
    return { ok: false, status: null, detail: err instanceof Error ? err.message : String(err) };
  }
}

export async function subscribeRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/setting/subscribe/find',
    {
      config: { permission: PERM },
      schema: {
        tags: ['nb-iot'],
        summary:
          'The NB-IoT / CCS platform settings in force (secrets as set / not set) and which fields the environment holds',
        response: { 200: envelopeOf(viewSchema) },
      },
    },
    async () => ok(await view(ctx)),
  );

  app.post(
    '/setting/subscribe/save',
    {
      config: { permission: PERM },
      schema: {
        tags: ['nb-iot'],
        summary:
          'Store NB-IoT / CCS settings (secrets sealed at rest; a secret left out is kept, null clears it); fields the environment holds are refused',
        body: saveSchema,
        response: { 200: envelopeOf(viewSchema) },
      },
    },
    async (req) => {
      const held = envHeld();
      const next = { ...(await readStoredSubscribe(ctx)) };
      for (const [name, value] of Object.entries(req.body) as [SubscribeField, unknown][]) {
        if (value === undefined) continue;
        if (held.includes(name)) throw badRequest('invalidParam', { field: name });
        if (name === 'notifyTypes') {
          const list = value as string[];
          if (list.length === 0) delete next.notifyTypes;
          else next.notifyTypes = list.join(',');
        } else if (value === null || value === '') delete next[name];
        else next[name] = value as string;
      }
      try {
        downlinkFrom(next);
      } catch (err) {
        throw badRequest('invalidParam', { field: err instanceof Error ? err.message.split(' ')[0] : 'settings' });
      }
      await writeStoredSubscribe(ctx, next);
      forgetCallbackSettings(ctx);
      ctx.bus.publish(SUBSCRIBE_CHANGED, {});
      return ok(await view(ctx));
    },
  );

  app.post(
    '/setting/subscribe/test',
    {
      config: { permission: PERM },
      schema: {
        tags: ['nb-iot'],
        summary:
          'Test the connection to the NB-IoT platform with the settings in force: a login with appId + secret, else a request to the command URL',
        response: {
          200: envelopeOf(z.object({ ok: z.boolean(), status: z.number().int().nullable(), detail: z.string() })),
        },
      },
    },
    async () => ok(await tryPlatform(ctx)),
  );
}
