// The NB-IoT / CCS platform settings (factory setting/subscribe): the values the NB_* environment variables give,
// editable in the UI and kept in the settings table, the secrets sealed with secretBox. An environment variable
// that is set wins over the stored value of its field (the screen shows which fields the environment holds).
// Readers: the push callbacks (/nb/subscribe, /ccs/subscribe: token and accepted notifyTypes) and the gateway's
// NB-IoT downlink (reconfigured when the settings change, bus subject SUBSCRIBE_CHANGED).
import type { AppContext } from '../../context.ts';
import { type NbDownlinkOptions, nbDownlinkOptionsFrom } from '../../gateway/nb/settings.ts';
import { openSecret, sealSecret } from '../../security/secretBox.ts';
import { readSetting, writeSetting } from '../map/settings.ts';

export const SUBSCRIBE_KEY = 'subscribe.nb';
export const SUBSCRIBE_CHANGED = 'settings.subscribe';

/** The data notifyTypes stored as positions when no list is configured. */
export const DEFAULT_NOTIFY_TYPES = ['deviceDataChanged', 'deviceDatasChanged', 'deviceDataChange', 'dataReport'];

/** Each field with its environment variable; secrets are sealed at rest and never sent back to the screen. */
export const SUBSCRIBE_FIELDS = {
  callbackToken: { env: 'NB_CALLBACK_TOKEN', secret: true },
  commandUrl: { env: 'NB_COMMAND_URL', secret: false },
  authUrl: { env: 'NB_AUTH_URL', secret: false },
  appId: { env: 'NB_APP_ID', secret: false },
  appSecret: { env: 'NB_APP_SECRET', secret: true },
  accessToken: { env: 'NB_ACCESS_TOKEN', secret: true },
  serviceId: { env: 'NB_SERVICE_ID', secret: false },
  method: { env: 'NB_COMMAND_METHOD', secret: false },
  paraName: { env: 'NB_COMMAND_PARA', secret: false },
  encoding: { env: 'NB_COMMAND_ENCODING', secret: false },
  callbackUrl: { env: 'NB_COMMAND_CALLBACK_URL', secret: false },
  notifyTypes: { env: 'NB_NOTIFY_TYPES', secret: false },
} as const;
export type SubscribeField = keyof typeof SUBSCRIBE_FIELDS;
export const FIELD_NAMES = Object.keys(SUBSCRIBE_FIELDS) as SubscribeField[];

/** As stored: field → text (secrets sealed). */
type Stored = Partial<Record<SubscribeField, string>>;

/** The stored values in clear (a secret that cannot be opened, e.g. after a key change, counts as unset). */
export async function readStoredSubscribe(ctx: AppContext): Promise<Stored> {
  const raw = (await readSetting<Stored>(ctx, SUBSCRIBE_KEY)) ?? {};
  const out: Stored = {};
  for (const name of FIELD_NAMES) {
    const v = raw[name];
    if (typeof v !== 'string' || v === '') continue;
    if (!SUBSCRIBE_FIELDS[name].secret) out[name] = v;
    else {
      try {
        out[name] = openSecret(v);
      } catch {
        // unreadable: treated as not set
      }
    }
  }
  return out;
}

export async function writeStoredSubscribe(ctx: AppContext, values: Stored): Promise<void> {
  const sealed: Stored = {};
  for (const name of FIELD_NAMES) {
    const v = values[name];
    if (typeof v !== 'string' || v === '') continue;
    sealed[name] = SUBSCRIBE_FIELDS[name].secret ? sealSecret(v) : v;
  }
  await writeSetting(ctx, SUBSCRIBE_KEY, sealed);
}

/** The NB_* variables in force: the environment's where set, the stored values elsewhere. */
export function effectiveNbEnv(stored: Stored, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, env0] of Object.entries(SUBSCRIBE_FIELDS) as [SubscribeField, { env: string }][]) {
    const fromEnv = env[env0.env];
    const value = fromEnv !== undefined && fromEnv !== '' ? fromEnv : stored[name];
    if (value !== undefined && value !== '') out[env0.env] = value;
  }
  for (const extra of ['NB_REQUEST_TIMEOUT_MS', 'NB_COMMAND_RETRIES']) if (env[extra]) out[extra] = env[extra];
  return out;
}

/** The fields the environment holds (shown read-only). */
export function envHeld(env: NodeJS.ProcessEnv = process.env): SubscribeField[] {
  return FIELD_NAMES.filter((n) => {
    const v = env[SUBSCRIBE_FIELDS[n].env];
    return v !== undefined && v !== '';
  });
}

/** The downlink settings in force (throws on an inconsistent set, as at start). */
export function downlinkFrom(stored: Stored, env: NodeJS.ProcessEnv = process.env): NbDownlinkOptions | null {
  return nbDownlinkOptionsFrom(effectiveNbEnv(stored, env));
}

export function notifyTypesOf(text: string | undefined): string[] {
  const list = (text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length > 0 ? list : DEFAULT_NOTIFY_TYPES;
}

export interface CallbackSettings {
  /** The stored callback token (the gateway's NB_CALLBACK_TOKEN option wins when set). */
  callbackToken: string | undefined;
  notifyTypes: ReadonlySet<string>;
}

const CACHE_MS = 10_000;
const cache = new WeakMap<AppContext, { at: number; value: Promise<CallbackSettings> }>();

/** The callbacks' settings, read at most every few seconds (and at once after a change in this process). */
export function callbackSettings(ctx: AppContext): Promise<CallbackSettings> {
  const hit = cache.get(ctx);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = readStoredSubscribe(ctx).then((s) => {
    const env = effectiveNbEnv(s);
    return { callbackToken: s.callbackToken, notifyTypes: new Set(notifyTypesOf(env.NB_NOTIFY_TYPES)) };
  });
  value.catch(() => cache.delete(ctx));
  cache.set(ctx, { at: Date.now(), value });
  return value;
}

export function forgetCallbackSettings(ctx: AppContext): void {
  cache.delete(ctx);
}
