// The one API client (spec §7): cookies, 300000 ms timeout, a loading flag per URL, 407 → login,
// network and server failures turned into the spec's messages, cancellation passed through unchanged.
import { isSessionExpired, REQUEST_TIMEOUT_MS } from '@carhere/domain';
import i18n from 'i18next';

export interface Meta {
  success: boolean;
  message: string;
  code: number;
}

export interface Envelope<T> {
  meta: Meta;
  data: T;
}

/** A failed call: `meta` is the server's answer when there was one. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'business' | 'network' | 'server' | 'session',
    readonly meta?: Meta,
  ) {
    super(message);
  }
}

type Listener = () => void;
const loading = new Map<string, number>();
const listeners = new Set<Listener>();
/**
 * The white list of spec §7: URLs that never show the global loading indicator. They are the calls a screen
 * repeats by itself (polling, the session check) or makes per row (addresses), where an indicator would flicker.
 */
const quietUrls = new Set<string>([
  '/session',
  '/health',
  '/map/getKeyAddress',
  '/command/find',
  '/command/findAndOffline',
  '/deviceAlarms/findAll',
  '/deviceAlarms/findAllById',
  '/tire/find',
  '/battery',
  '/recording/find',
]);
const quietPrefixes = ['/stat/export/', '/job/'];
let onSessionExpired: () => void = () => {};

export function setSessionExpiredHandler(fn: () => void): void {
  onSessionExpired = fn;
}

export function subscribeLoading(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function isLoading(url?: string): boolean {
  if (url) return (loading.get(url) ?? 0) > 0;
  for (const n of loading.values()) if (n > 0) return true;
  return false;
}

/** Whether a call to `url` shows the global loading indicator (spec §7: every call not on the white list). */
export function showsLoading(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return !quietUrls.has(path) && !quietPrefixes.some((p) => path.startsWith(p));
}

function mark(url: string, delta: number): void {
  if (!showsLoading(url)) return;
  const n = (loading.get(url) ?? 0) + delta;
  if (n <= 0) loading.delete(url);
  else loading.set(url, n);
  for (const l of listeners) l();
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  signal?: AbortSignal;
  /** 0 means no timeout (imports). */
  timeoutMs?: number;
}

/** Calls /api{url} and returns the whole envelope; throws ApiFailure for transport and session problems. */
export async function callEnvelope<T>(url: string, body?: unknown, opts: CallOptions = {}): Promise<Envelope<T>> {
  const method = opts.method ?? 'POST';
  const controller = new AbortController();
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs)
      : undefined;
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort);
  mark(url, 1);
  try {
    let res: Response;
    try {
      res = await fetch(`/api${url}`, {
        method,
        credentials: 'same-origin',
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), lang: i18n.language || 'cn' },
        body: body !== undefined && method !== 'GET' ? JSON.stringify(body) : undefined,
        signal: controller.signal,
      });
    } catch (err) {
      // A cancelled request passes through unchanged (spec §8); everything else is a network problem.
      if (opts.signal?.aborted) throw err;
      throw new ApiFailure(i18n.t('common:error.network'), 'network');
    }
    let envelope: Envelope<T> | null = null;
    try {
      envelope = (await res.json()) as Envelope<T>;
    } catch {
      envelope = null;
    }
    if (envelope && isSessionExpired(envelope.meta)) {
      onSessionExpired();
      throw new ApiFailure(i18n.t('common:error.sessionExpired'), 'session', envelope.meta);
    }
    if (!envelope?.meta) throw new ApiFailure(i18n.t('common:error.server'), 'server');
    if (res.status >= 500)
      throw new ApiFailure(envelope.meta.message || i18n.t('common:error.server'), 'server', envelope.meta);
    return envelope;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    mark(url, -1);
  }
}

/** Calls /api{url} and unwraps `data`; a business failure (meta.success false) throws with the server's message. */
export async function api<T>(url: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  const env = await callEnvelope<T>(url, body, opts);
  if (!env.meta.success) throw new ApiFailure(env.meta.message, 'business', env.meta);
  return env.data;
}
