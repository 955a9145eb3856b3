// Cross-site WebSocket hijacking: a browser sends the session cookie with a WebSocket upgrade from any page,
// so /api/ws checks the page's Origin. Allowed: the server's own origin (the Host the request was sent to,
// over http or https) and the configured ALLOWED_ORIGINS. A request without Origin comes from a program, not
// a page (browsers always send it on WebSocket upgrades): it cannot ride on a victim's cookie, and still
// needs a valid session like every other call.

export interface OriginRequest {
  /** The Origin header, if any. */
  origin: string | undefined;
  /** Host names the request was addressed to (the Host header; behind a trusted proxy also the forwarded host). */
  hosts: readonly (string | undefined)[];
}

export function isAllowedOrigin({ origin, hosts }: OriginRequest, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // 'null' (sandboxed frames, file:) and anything else that is not an origin
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (allowed.includes(url.origin)) return true;
  return hosts.some((h) => h !== undefined && h !== '' && h.toLowerCase() === url.host);
}
