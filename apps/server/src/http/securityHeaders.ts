// Security headers (@fastify/helmet) for every answer: an enforced Content-Security-Policy, nosniff, no
// framing, a referrer policy, and HSTS when the request came over HTTPS. Registered from app.ts.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Tile hosts of the map providers (apps/web/src/map/providers.ts; a test keeps the two in step). The maps are
 * tiles only: no provider script runs in the page (geocoding goes through our server), so script-src stays
 * 'self'.
 */
export const MAP_TILE_HOSTS: readonly string[] = [
  'https://*.bdimg.com', // Baidu
  'https://*.is.autonavi.com', // AMap (Gaode)
  'https://*.google.com', // Google (mt0–mt3)
  'https://core-renderer-tiles.maps.yandex.net', // Yandex
  'https://*.tiles.virtualearth.net', // Bing
  'https://tile.openstreetmap.org', // OpenStreetMap
];

type Directives = Readonly<Record<string, readonly string[]>>;

/** The web app: our own scripts only. */
export const APP_CSP: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // antd's CSS-in-JS injects <style> elements and React/Leaflet set style attributes: styles need
  // 'unsafe-inline'. Scripts never do (the built index.html has no inline script).
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', ...MAP_TILE_HOSTS],
  'font-src': ["'self'", 'data:'],
  // 'self' covers the same-origin WebSocket (/api/ws) too.
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** /api/docs (swagger-ui): its bundle and initializer are files of ours; it needs inline styles and data: images. */
export const DOCS_CSP: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

export const DOCS_PREFIX = '/api/docs';
export const HSTS = 'max-age=31536000; includeSubDomains';

export function cspHeader(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * `extraImageOrigins`: origins the operator configured for map tiles (the self-hosted tile server of
 * TILE_URL, modules/map/tileProviders.ts).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  extraImageOrigins: readonly string[] = [],
): Promise<void> {
  const directives: Record<string, string[]> = Object.fromEntries(Object.entries(APP_CSP).map(([k, v]) => [k, [...v]]));
  directives['img-src'].push(...extraImageOrigins);
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives,
    },
    // Sent below only for requests that came over HTTPS.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // Cross-origin requests (map tiles) carry our origin only: providers whose keys are limited to a site
    // still recognise it, and no path or query leaves the page.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xContentTypeOptions: true,
  });
  const docs = cspHeader(DOCS_CSP);
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  app.addHook('onSend', async (req, reply) => {
    if (req.url === DOCS_PREFIX || req.url.startsWith(`${DOCS_PREFIX}/`) || req.url.startsWith(`${DOCS_PREFIX}?`)) {
      reply.header('content-security-policy', docs);
    }
  });
}
