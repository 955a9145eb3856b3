// HTTP client for the IoT platform's "create device command" API (Huawei OceanConnect / China Telecom's
// platform built on it): POST {deviceId, command: {serviceId, method, paras}, callbackUrl?, expireTime?} with
// `app_key` and `Authorization: Bearer …`. Each attempt has a time limit; network errors, timeouts, 5xx and 429
// are retried a few times, then reported as `retryable` so the caller keeps the command pending.
import type { NbDownlinkOptions } from './settings.ts';

export interface NbCommandRequest {
  /** The platform's device id (devices.nb_device_id). */
  deviceId: string;
  /** The command as it travels in `paras` (hex frame or text). */
  value: string;
  /** Seconds the platform may hold the command for a sleeping device (0: deliver now or fail). */
  expireSeconds?: number;
}

export interface NbCommandAccepted {
  /** The platform's id for the command (status notifications refer to it), when it gave one. */
  platformCommandId: string | null;
  platformStatus: string | null;
  attempts: number;
}

export class NbPlatformError extends Error {
  constructor(
    message: string,
    /** True when trying later may work (network, timeout, 5xx, 429, 401/403 after a token refresh). */
    readonly retryable: boolean,
    readonly attempts: number,
  ) {
    super(message);
  }
}

const BACKOFF_MS = [200, 1000, 3000];

export class NbPlatformClient {
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly options: NbDownlinkOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async sendCommand(req: NbCommandRequest): Promise<NbCommandAccepted> {
    const o = this.options;
    const body: Record<string, unknown> = {
      deviceId: req.deviceId,
      command: { serviceId: o.serviceId, method: o.method, paras: { [o.paraName]: req.value } },
    };
    if (o.callbackUrl) body.callbackUrl = o.callbackUrl;
    if (req.expireSeconds !== undefined) body.expireTime = Math.max(0, Math.floor(req.expireSeconds));
    let last: NbPlatformError | null = null;
    for (let attempt = 1; attempt <= o.retries + 1; attempt++) {
      if (attempt > 1) await this.sleep(BACKOFF_MS[Math.min(attempt - 2, BACKOFF_MS.length - 1)]);
      try {
        return { ...(await this.post(body, attempt)), attempts: attempt };
      } catch (err) {
        last = err instanceof NbPlatformError ? err : new NbPlatformError(describe(err), true, attempt);
        if (!last.retryable) throw last;
      }
    }
    throw last ?? new NbPlatformError('no attempt made', true, 0);
  }

  private async post(body: Record<string, unknown>, attempt: number): Promise<Omit<NbCommandAccepted, 'attempts'>> {
    const url = new URL(this.options.commandUrl);
    if (this.options.appId && !url.searchParams.has('appId')) url.searchParams.set('appId', this.options.appId);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await this.authHeaders()) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.requestTimeoutMs),
    });
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      // An expired or revoked token: log in again on the next attempt.
      this.token = null;
      throw new NbPlatformError(`platform answered ${res.status}: ${excerpt(text)}`, true, attempt);
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
      throw new NbPlatformError(`platform answered ${res.status}: ${excerpt(text)}`, retryable, attempt);
    }
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // Some platforms answer 201 with an empty or non-JSON body; the command was still accepted.
    }
    const id = json.commandId ?? json.id;
    return {
      platformCommandId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
      platformStatus: typeof json.status === 'string' ? json.status : null,
    };
  }

  private async authHeaders(): Promise<Record<string, string>> {
    const o = this.options;
    const headers: Record<string, string> = {};
    if (o.appId) headers.app_key = o.appId;
    const token = o.accessToken ?? (o.authUrl ? await this.login() : undefined);
    if (token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  private async login(): Promise<string> {
    if (this.token && Date.now() < this.token.until) return this.token.value;
    const o = this.options;
    const res = await fetch(o.authUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ appId: o.appId ?? '', secret: o.appSecret ?? '' }).toString(),
      signal: AbortSignal.timeout(o.requestTimeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      // Wrong credentials stay wrong until someone fixes them; still retryable so no command is dropped.
      throw new NbPlatformError(`platform login answered ${res.status}: ${excerpt(text)}`, true, 1);
    }
    let json: { accessToken?: unknown; expiresIn?: unknown } = {};
    try {
      json = JSON.parse(text);
    } catch {
      throw new NbPlatformError('platform login answered no JSON', true, 1);
    }
    if (typeof json.accessToken !== 'string' || json.accessToken === '') {
      throw new NbPlatformError('platform login answered no accessToken', true, 1);
    }
    const seconds = typeof json.expiresIn === 'number' && json.expiresIn > 0 ? json.expiresIn : 3600;
    // Renew a minute early (or at half-life for short tokens).
    this.token = { value: json.accessToken, until: Date.now() + Math.max(seconds * 500, (seconds - 60) * 1000) };
    return json.accessToken;
  }
}

function excerpt(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'platform did not answer in time';
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${err.message} (${cause.code})` : err.message;
  }
  return String(err);
}
