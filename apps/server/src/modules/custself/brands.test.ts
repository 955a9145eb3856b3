// Brands of the login pages (issue 16): the administrator defines them; the public /brand/current answers the
// brand of a path key or of the request's host name; agents and end users may not list or edit them; bad input
// (key, colour, logo, language, duplicate key or host) is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient } from '../../gateway/test-support.ts';
import { ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';

// A 1×1 PNG.
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface Brand {
  id: string;
  key: string;
  host: string;
  name: string;
  title: string;
  logo: string;
  primaryColor: string;
  headerColor: string;
  appUrl: string;
  defaultLang: string;
  defaultMap: string;
}

describe('brands', () => {
  let server: TestServer;
  let admin: ApiClient;
  let agent: ApiClient;
  let anonymous: ApiClient;
  let acme: Brand;

  async function current(query: string, host = 'localhost') {
    const res = await server.app.inject({ method: 'GET', url: `/api/brand/current${query}`, headers: { host } });
    return res.json() as { meta: { success: boolean }; data: Brand | null };
  }

  beforeAll(async () => {
    server = await createTestServer();
    admin = await adminClient(server);
    agent = await userClient(server, 'brand-agent', 2);
    anonymous = new ApiClient(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the administrator adds a brand with every field, and lists it', async () => {
    const res = await admin.post<Brand>('/brand/save', {
      key: 'Acme',
      host: 'track.acme.example',
      name: 'Acme Fleet',
      title: 'Acme vehicle tracking',
      logo: LOGO,
      primaryColor: '#aa3300',
      headerColor: '#221100',
      appUrl: 'https://apps.acme.example/get',
      defaultLang: 'fr',
      defaultMap: 'google',
    });
    expect(res.meta.success).toBe(true);
    acme = res.data;
    expect(acme).toMatchObject({ key: 'acme', host: 'track.acme.example', primaryColor: '#aa3300', logo: LOGO });
    const list = await admin.post<Brand[]>('/brand/list', {});
    expect(list.data.map((b) => b.key)).toEqual(['acme']);
  });

  it('answers the brand of the path key, else of the host name, else none — to anyone', async () => {
    expect((await current('?key=acme')).data).toMatchObject({ name: 'Acme Fleet', defaultLang: 'fr' });
    expect((await current('', 'track.acme.example')).data).toMatchObject({ key: 'acme' });
    expect((await current('', 'TRACK.ACME.EXAMPLE:8443')).data).toMatchObject({ key: 'acme' });
    expect((await current('')).data).toBeNull();
    expect((await current('?key=nobody')).data).toBeNull();
    const bad = await server.app.inject({ method: 'GET', url: '/api/brand/current?key=%3Cscript%3E' });
    expect(bad.statusCode).toBe(400);
  });

  it('changes a brand by id; a second brand may not take its key or host name', async () => {
    const changed = await admin.post<Brand>('/brand/save', { ...acme, title: 'Acme 2', primaryColor: '#003399' });
    expect(changed.data).toMatchObject({ id: acme.id, title: 'Acme 2', primaryColor: '#003399' });
    const sameKey = await admin.post('/brand/save', { key: 'acme', name: 'Copy' });
    expect(sameKey.meta.success).toBe(false);
    expect(sameKey.meta.message).toContain('key');
    const sameHost = await admin.post('/brand/save', { key: 'copy', host: 'Track.Acme.Example', name: 'Copy' });
    expect(sameHost.meta.success).toBe(false);
    expect(sameHost.meta.message).toContain('host');
    expect((await admin.post<Brand[]>('/brand/list', {})).data).toHaveLength(1);
  });

  it('refuses bad input: key, colour, SVG or oversized logo, language, link', async () => {
    const base = { key: 'good', name: 'Good' };
    for (const bad of [
      { key: 'x' },
      { key: '../etc' },
      { primaryColor: 'red' },
      { logo: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
      { logo: `data:image/png;base64,${'A'.repeat(200_001)}` },
      { defaultLang: 'de' },
      { appUrl: 'javascript:alert(1)' },
      { host: 'bad host' },
    ]) {
      const res = await admin.post('/brand/save', { ...base, ...bad });
      expect(res.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    expect((await admin.post<Brand[]>('/brand/list', {})).data).toHaveLength(1);
  });

  it('agents and anonymous callers may not list, add or delete brands', async () => {
    expect((await agent.post('/brand/list', {})).status).toBe(403);
    expect((await agent.post('/brand/save', { key: 'mine', name: 'Mine' })).status).toBe(403);
    expect((await agent.post('/brand/delete', { id: acme.id })).status).toBe(403);
    expect((await anonymous.post('/brand/list', {})).meta.success).toBe(false);
    expect((await admin.post<Brand[]>('/brand/list', {})).data).toHaveLength(1);
  });

  it('deletes a brand: its key and host show the platform’s look again', async () => {
    expect((await admin.post('/brand/delete', { id: acme.id })).meta.success).toBe(true);
    expect((await current('?key=acme')).data).toBeNull();
    expect((await admin.post('/brand/delete', { id: acme.id })).status).toBe(404);
  });
});
