// NB-IoT downlink settings (environment). Unset NB_COMMAND_URL: no platform client; commands to NB-IoT devices
// are recorded with the reason ('no NB-IoT platform configured') instead of waiting in vain.

export type NbCommandEncoding = 'frame' | 'text';

export interface NbDownlinkOptions {
  /** The platform's device-command endpoint (OceanConnect: https://host:8743/iocm/app/cmd/v1.4.0/deviceCommands). */
  commandUrl: string;
  /** A fixed bearer token (NB_ACCESS_TOKEN); else one is obtained with appId + secret at authUrl. */
  accessToken: string | undefined;
  appId: string | undefined;
  appSecret: string | undefined;
  /** Login endpoint for appId + secret (form body appId, secret → {accessToken, expiresIn}). */
  authUrl: string | undefined;
  serviceId: string;
  method: string;
  /** Name of the one parameter in `paras` that carries the command. */
  paraName: string;
  /** 'frame': the GT06 / JT/T 808 downlink frame as hex; 'text': the command text itself. */
  encoding: NbCommandEncoding;
  /** Where the platform posts command status changes (callbackUrl), when set. */
  callbackUrl: string | undefined;
  /** One HTTP attempt's limit. */
  requestTimeoutMs: number;
  /** Further attempts after a failed one (network error, timeout, 5xx, 429), within one delivery. */
  retries: number;
}

const DEFAULT_LOGIN_PATH = '/iocm/app/sec/v1.1.0/login';

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL`);
  return url.toString();
}

/** The NB-IoT downlink settings, or null when NB_COMMAND_URL is unset. */
export function nbDownlinkOptionsFrom(env: NodeJS.ProcessEnv): NbDownlinkOptions | null {
  if (!env.NB_COMMAND_URL) return null;
  const commandUrl = httpUrl('NB_COMMAND_URL', env.NB_COMMAND_URL);
  const appId = env.NB_APP_ID || undefined;
  const appSecret = env.NB_APP_SECRET || undefined;
  const accessToken = env.NB_ACCESS_TOKEN || undefined;
  if (!accessToken && (appId === undefined) !== (appSecret === undefined)) {
    throw new Error('NB_APP_ID and NB_APP_SECRET go together (or set NB_ACCESS_TOKEN)');
  }
  const encoding = (env.NB_COMMAND_ENCODING || 'frame') as NbCommandEncoding;
  if (encoding !== 'frame' && encoding !== 'text') {
    throw new Error(`NB_COMMAND_ENCODING must be frame or text, got "${env.NB_COMMAND_ENCODING}"`);
  }
  return {
    commandUrl,
    accessToken,
    appId,
    appSecret,
    authUrl:
      appId && appSecret && !accessToken
        ? httpUrl('NB_AUTH_URL', env.NB_AUTH_URL || new URL(DEFAULT_LOGIN_PATH, commandUrl).toString())
        : undefined,
    serviceId: env.NB_SERVICE_ID || 'Command',
    method: env.NB_COMMAND_METHOD || 'SEND',
    paraName: env.NB_COMMAND_PARA || 'rawData',
    encoding,
    callbackUrl: env.NB_COMMAND_CALLBACK_URL
      ? httpUrl('NB_COMMAND_CALLBACK_URL', env.NB_COMMAND_CALLBACK_URL)
      : undefined,
    requestTimeoutMs: positiveInt(env, 'NB_REQUEST_TIMEOUT_MS', 10_000) || 10_000,
    retries: positiveInt(env, 'NB_COMMAND_RETRIES', 2),
  };
}
