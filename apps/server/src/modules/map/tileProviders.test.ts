import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../../http/securityHeaders.ts';
import { customTilesFromEnv, customTilesOrigin, MAP_TYPES } from './tileProviders.ts';

describe('self-hosted tile server (TILE_URL)', () => {
  it('reads an XYZ template from the environment, or nothing', () => {
    expect(customTilesFromEnv({})).toBeNull();
    expect(customTilesFromEnv({ TILE_URL: 'https://tiles.example.com/{z}/{x}.png' })).toBeNull(); // no {y}
    expect(customTilesFromEnv({ TILE_URL: 'javascript:alert(1)//{z}/{x}/{y}' })).toBeNull();
    expect(
      customTilesFromEnv({
        TILE_URL: 'https://tiles.example.com:8443/osm/{z}/{x}/{y}.png',
        TILE_ATTRIBUTION: 'My tiles',
        TILE_MAX_ZOOM: '17',
      }),
    ).toEqual({ url: 'https://tiles.example.com:8443/osm/{z}/{x}/{y}.png', attribution: 'My tiles', maxZoom: 17 });
    expect(customTilesFromEnv({ TILE_URL: '/tiles/{z}/{x}/{y}.png', TILE_MAX_ZOOM: '99' })?.maxZoom).toBe(19);
  });

  it("puts the tile server's origin, and only it, into the page's Content-Security-Policy", async () => {
    const env = { TILE_URL: 'https://tiles.example.com:8443/osm/{z}/{x}/{y}.png' };
    expect(customTilesOrigin(env)).toBe('https://tiles.example.com:8443');
    expect(customTilesOrigin({ TILE_URL: '/tiles/{z}/{x}/{y}.png' })).toBeNull(); // served by us: 'self'
    const app = Fastify();
    await registerSecurityHeaders(app, [customTilesOrigin(env) as string]);
    app.get('/', async () => 'ok');
    const res = await app.inject({ method: 'GET', url: '/' });
    const imgSrc = String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('img-src'));
    expect(imgSrc?.split(' ')).toContain('https://tiles.example.com:8443');
    expect(imgSrc?.split(' ')).toContain('https://tile.openstreetmap.org');
    await app.close();
  });

  it('knows the same map types as the web', () => {
    const source = readFileSync(join(import.meta.dirname, '../../../../web/src/map/providers.ts'), 'utf8');
    const list = /export const MAP_TYPES = \[([^\]]+)\]/.exec(source)?.[1] ?? '';
    const web = [...list.matchAll(/'([a-zA-Z]+)'/g)].map((m) => m[1]);
    expect(web.length).toBeGreaterThanOrEqual(8);
    expect([...MAP_TYPES]).toEqual(web);
  });
});
