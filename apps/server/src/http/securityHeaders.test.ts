// Security headers on the app, the API and the API docs; HSTS only over HTTPS; the CSP's image hosts cover
// every map provider of the web app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/harness.ts';
import { MAP_TILE_HOSTS, registerSecurityHeaders } from './securityHeaders.ts';

function directives(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

/** Whether a CSP host source such as https://*.google.com allows a URL. */
function allows(source: string, url: URL): boolean {
  const m = /^(https?):\/\/(\*\.)?(.+)$/.exec(source);
  if (!m || `${m[1]}:` !== url.protocol) return false;
  return m[2] ? url.hostname.endsWith(`.${m[3]}`) : url.hostname === m[3];
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('the page and the API: enforced CSP with our own scripts only, nosniff, no framing, referrer policy', async () => {
    for (const url of ['/', '/api/health', '/index/monitor', '/api/user/info']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy-report-only']).toBeUndefined();
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('style-src')).toContain("'unsafe-inline'");
      expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('/api/docs keeps working with its own policy (no map hosts), the app policy elsewhere', async () => {
    let url = '/api/docs';
    let page = await server.app.inject({ method: 'GET', url });
    for (let hops = 0; page.statusCode >= 300 && page.statusCode < 400 && hops < 3; hops++) {
      url = new URL(String(page.headers.location), `http://x${url}`).pathname;
      page = await server.app.inject({ method: 'GET', url });
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    const docs = directives(page.headers['content-security-policy']);
    expect(docs.get('script-src')).toEqual(["'self'"]);
    expect(docs.get('img-src')).toEqual(["'self'", 'data:']);
    expect(docs.get('frame-ancestors')).toEqual(["'none'"]);
    // Every script the docs page loads is one of ours and is served.
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>\s*\S/);
    for (const src of scripts) {
      const res = await server.app.inject({ method: 'GET', url: new URL(src, `http://x${url}`).pathname });
      expect(res.statusCode, src).toBe(200);
    }
    const app = directives((await server.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(app.get('img-src')).toEqual(expect.arrayContaining([...MAP_TILE_HOSTS]));
  });

  it('every map provider tile host of the web app is allowed as an image, and nothing more is needed', () => {
    const providers = readFileSync(join(import.meta.dirname, '../../../web/src/map/providers.ts'), 'utf8');
    const templates = [...providers.matchAll(/url: '(https:\/\/[^']+)'/g)].map((m) => m[1]);
    expect(templates.length).toBeGreaterThanOrEqual(8);
    for (const template of templates) {
      const url = new URL(template.replace(/\{s\}/g, '1').replace(/\{[a-z]+\}/g, '0'));
      expect(
        MAP_TILE_HOSTS.some((h) => allows(h, url)),
        template,
      ).toBe(true);
    }
  });

  it('HSTS only when the request came over HTTPS', async () => {
    const app = Fastify({ trustProxy: true });
    await registerSecurityHeaders(app);
    app.get('/x', async () => 'ok');
    await app.ready();
    const https = await app.inject({ method: 'GET', url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    const http = await app.inject({ method: 'GET', url: '/x' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });
});
