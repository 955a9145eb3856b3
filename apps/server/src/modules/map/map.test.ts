import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../testing/harness.ts';
import { createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { buildUser, clientFor, type FixtureUser } from '../fence/testFixtures.ts';

interface Address {
  available: boolean;
  address: string | null;
  description: string | null;
  cached: boolean;
  offline?: boolean;
  reason: string | null;
  message: string | null;
  status: number;
  result: { formatted_address: string } | null;
}
interface Suggestions {
  available: boolean;
  region: string;
  list: { name: string; address: string; lat: number | null; lon: number | null }[];
  message: string | null;
}

/** A real HTTP server on localhost playing Nominatim, Baidu and AMap. */
function fakeProvider(): Promise<{ server: Server; base: string; hits: URL[] }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    hits.push(url);
    const send = (body: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const q = url.searchParams;
    switch (url.pathname) {
      case '/nominatim/reverse':
        if (q.get('lat') === '0.000000') return send({ error: 'Unable to geocode' });
        return send({ display_name: `Road at ${q.get('lat')},${q.get('lon')} [${q.get('accept-language')}]` });
      case '/nominatim/search':
        return send([
          { name: q.get('q'), display_name: `${q.get('q')}, ${q.get('countrycodes')}`, lat: '22.3', lon: '114.17' },
        ]);
      case '/baidu/reverse':
        return send({ status: 0, result: { formatted_address: '北京市东城区', sematic_description: '天安门附近' } });
      case '/baidu/suggestion':
        // GCJ-02 position of a place in Beijing.
        return send({
          status: 0,
          result: [
            { name: q.get('query'), city: '北京市', district: '东城区', location: { lat: 39.9165, lng: 116.4103 } },
          ],
        });
      case '/amap/regeo':
        return send({ status: '1', regeocode: { formatted_address: `amap ${q.get('location')}` } });
      case '/broken':
        return send({ oops: true }, 503);
      default:
        return send({}, 404);
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, hits });
    }),
  );
}

describe('/api/map/*', () => {
  let server: TestServer;
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  let admin: ApiClient;
  let user: ApiClient;
  let hkAgent: FixtureUser;
  let hkUser: ApiClient;

  const nominatim = () => ({
    provider: 'nominatim',
    reverseUrl: `${provider.base}/nominatim/reverse?format=jsonv2&lat={lat}&lon={lon}&accept-language={lang}`,
    suggestUrl: `${provider.base}/nominatim/search?q={query}&countrycodes={region}`,
    hongKongUserIds: [hkAgent.id],
  });

  beforeAll(async () => {
    provider = await fakeProvider();
    server = await createTestServer();
    const db = server.ctx.db;
    const plain = await buildUser(db, 'map-user', 3);
    hkAgent = await buildUser(db, 'hk-agent', 2);
    const hkChild = await buildUser(db, 'hk-child', 3, hkAgent);
    admin = await clientFor(server, { username: 'admin' }, TEST_ADMIN_PASSWORD);
    user = await clientFor(server, plain);
    hkUser = await clientFor(server, hkChild);
  });
  afterAll(async () => {
    await server.close();
    provider.server.close();
  });

  describe('map keys', () => {
    it("says 'map configuration not obtained' until a key is set, then hands it out per vendor", async () => {
      const missing = await user.post('/map/getKey', { mapType: 'baidu' });
      expect(missing.meta).toMatchObject({ success: false, code: 404, message: 'map configuration not obtained' });
      expect(missing.status).toBe(200);
      expect((await admin.post('/map/saveKey', { mapType: 'baidu', key: 'bd-key' })).meta.success).toBe(true);
      await admin.post('/map/saveKey', { mapType: 'amap', key: 'amap-key' });
      await admin.post('/map/saveKey', { projectName: 'brand', devicePlatform: 2, mapType: 'google', key: 'g-brand' });
      expect((await user.post<string>('/map/getKey', { mapType: 'baidu' })).data).toBe('bd-key');
      expect(
        (await user.post<string>('/map/getKey', { projectName: 'carhere', devicePlatform: 1, mapType: 'gaode' })).data,
      ).toBe('amap-key');
      // An unknown map type reads as Baidu (spec §1); an unknown project falls back to the default one.
      expect((await user.post<string>('/map/getKey', { mapType: 'osm' })).data).toBe('bd-key');
      expect((await user.post<string>('/map/getKey', { projectName: 'other', mapType: 'baidu' })).data).toBe('bd-key');
      expect(
        (await user.post<string>('/map/getKey', { projectName: 'brand', devicePlatform: 2, mapType: 'google' })).data,
      ).toBe('g-brand');
      expect((await user.post('/map/getKey', { mapType: 'google' })).meta.success).toBe(false);
      // Saving the same slot replaces it; deleting removes it.
      await admin.post('/map/saveKey', { mapType: 'baidu', key: 'bd-key-2' });
      const keys = await admin.post<{ mapType: string; key: string }[]>('/map/findKeys');
      expect(keys.data.filter((k) => k.mapType === 'baidu').map((k) => k.key)).toEqual(['bd-key-2']);
      expect((await admin.post('/map/deleteKey', { mapType: 'amap' })).data).toEqual({ deleted: 1 });
      expect((await user.post('/map/getKey', { mapType: 'amap' })).meta.success).toBe(false);
    });

    it('keeps key management to the administrator and checks input', async () => {
      expect((await user.post('/map/saveKey', { mapType: 'baidu', key: 'x' })).status).toBe(403);
      expect((await user.post('/map/findKeys')).status).toBe(403);
      expect((await user.post('/map/saveGeocoder', { provider: 'none' })).status).toBe(403);
      const anonymous = await server.app.inject({ method: 'POST', url: '/api/map/getKey', payload: {} });
      expect(anonymous.json().meta.message).toBe('407');
      expect((await admin.post('/map/saveKey', { mapType: 'mapquest', key: 'x' })).status).toBe(400);
      expect((await admin.post('/map/saveKey', { mapType: 'baidu', key: '' })).status).toBe(400);
      expect(
        (await admin.post('/map/saveGeocoder', { provider: 'nominatim', reverseUrl: 'file:///etc/passwd' })).status,
      ).toBe(400);
      expect((await admin.post('/map/saveGeocoder', { provider: 'here' })).status).toBe(400);
    });
  });

  describe('map providers offered to users', () => {
    interface Providers {
      visible: string[];
      defaultType: string;
      custom: { url: string } | null;
    }
    it('offers every provider but the unconfigured custom one, Baidu by default, until the admin chooses', async () => {
      const first = await user.post<Providers>('/map/findProviders');
      expect(first.data.defaultType).toBe('baidu');
      expect(first.data.visible).toContain('osm');
      expect(first.data.visible).not.toContain('custom');
      expect(first.data.custom).toBeNull();
      const saved = await admin.post<Providers>('/map/saveProviders', {
        visible: ['google', 'custom'],
        defaultType: 'osm',
      });
      // The default is always offered; 'custom' needs TILE_URL.
      expect(saved.data).toMatchObject({ visible: ['osm', 'google'], defaultType: 'osm' });
      expect((await user.post<Providers>('/map/findProviders')).data).toMatchObject({
        visible: ['osm', 'google'],
        defaultType: 'osm',
      });
      expect((await user.post('/map/saveProviders', { visible: ['osm'], defaultType: 'osm' })).status).toBe(403);
      expect((await admin.post('/map/saveProviders', { visible: [], defaultType: 'osm' })).status).toBe(400);
      expect((await admin.post('/map/saveProviders', { visible: ['x'], defaultType: 'osm' })).status).toBe(400);
      await admin.post('/map/saveProviders', {
        visible: first.data.visible,
        defaultType: 'baidu',
      });
    });
  });

  describe('addresses and suggestions', () => {
    it('answers from the built-in place index when no provider is configured', async () => {
      // Tian'anmen, Beijing: the nearest GeoNames place is Beijing itself, within a few km.
      const res = await user.post<Address>('/map/getKeyAddress', { lat: 39.915, lon: 116.404 });
      expect(res.data).toMatchObject({ available: true, offline: true, cached: false, status: 0 });
      expect(res.data.address).toMatch(/^(\d+\.\d km [NESW]{1,2} of )?[^,]+, China$/);
      user.lang = 'cn';
      const cn = await user.post<Address>('/map/getKeyAddress', { lat: 31.2304, lon: 121.4737 });
      expect(cn.data.address).toMatch(/^中国 /);
      user.lang = 'en';
      // Open sea, far from any populated place: no address, and the reason says why.
      const sea = await user.post<Address>('/map/getKeyAddress', { lat: 0, lon: -30 });
      expect(sea.data).toMatchObject({ available: false, reason: 'notConfigured', address: null, status: 1 });
      expect(sea.data.message).toBe('Address unavailable: No address service is configured');
    });

    it('geocodes through the provider once and then from the cache by rounded lat/lng', async () => {
      expect((await admin.post('/map/saveGeocoder', nominatim())).meta.success).toBe(true);
      const before = provider.hits.length;
      const first = await user.post<Address>('/map/getKeyAddress', { lat: 39.91501, lon: 116.40402 });
      expect(first.data).toMatchObject({ available: true, cached: false, status: 0 });
      expect(first.data.address).toBe('Road at 39.915000,116.404000 [en]');
      expect(first.data.result?.formatted_address).toBe(first.data.address);
      // 4 decimals: this point is within the same ~11 m cell.
      const second = await user.post<Address>('/map/getKeyAddress', { lat: 39.91504, lon: 116.40398 });
      expect(second.data).toMatchObject({ available: true, cached: true, address: first.data.address });
      expect(provider.hits.length - before).toBe(1);
      // The vendor API's request shape, in Chinese.
      const vendorShape = await user.post<Address>('/map/getKeyAddress', {
        param: { location: '39.9,116.3', language: 'zh-CN', output: 'json' },
      });
      expect(vendorShape.data.address).toBe('Road at 39.900000,116.300000 [zh-CN]');
      // A place without an address.
      const sea = await user.post<Address>('/map/getKeyAddress', { lat: 0, lon: 0 });
      expect(sea.data).toMatchObject({ available: false, reason: 'notFound' });
    });

    it('gives Hong Kong accounts the Hong Kong suggestion region and others China', async () => {
      await admin.post('/map/saveGeocoder', nominatim());
      const hk = await hkUser.post<Suggestions>('/map/getSuggestion', { query: 'Central' });
      expect(hk.data.region).toBe('Hong Kong');
      expect(hk.data.list[0]).toMatchObject({ name: 'Central', address: 'Central, hk', lat: 22.3, lon: 114.17 });
      const cn = await user.post<Suggestions>('/map/getSuggestion', { query: 'Central' });
      expect(cn.data.region).toBe('China');
      expect(cn.data.list[0].address).toBe('Central, cn');
      const asked = await user.post<Suggestions>('/map/getSuggestion', {
        param: { query: 'Mong Kok', region: '香港' },
      });
      expect(asked.data.region).toBe('Hong Kong');
    });

    it('reads Baidu answers and returns suggestion positions in WGS-84', async () => {
      await admin.post('/map/saveGeocoder', {
        provider: 'baidu',
        key: 'ak1',
        reverseUrl: `${provider.base}/baidu/reverse?ak={key}&coordtype=wgs84ll&location={lat},{lon}`,
        suggestUrl: `${provider.base}/baidu/suggestion?ak={key}&query={query}&region={region}&ret_coordtype=gcj02ll`,
      });
      const addr = await user.post<Address>('/map/getKeyAddress', { lat: 39.9, lon: 116.39 });
      expect(addr.data).toMatchObject({ available: true, address: '北京市东城区', description: '天安门附近' });
      const s = await user.post<Suggestions>('/map/getSuggestion', { query: '天安门' });
      const hit = provider.hits.at(-1);
      expect(hit?.searchParams.get('region')).toBe('全国');
      expect(hit?.searchParams.get('ak')).toBe('ak1');
      const [place] = s.data.list;
      // GCJ-02 → WGS-84 moves a Beijing point about 0.006° west and 0.001° south.
      expect(116.4103 - (place.lon ?? 0)).toBeGreaterThan(0.005);
      expect(116.4103 - (place.lon ?? 0)).toBeLessThan(0.008);
      expect(39.9165 - (place.lat ?? 0)).toBeGreaterThan(0.0005);
      expect(39.9165 - (place.lat ?? 0)).toBeLessThan(0.002);
    });

    it('sends AMap GCJ-02 coordinates', async () => {
      await admin.post('/map/saveGeocoder', {
        provider: 'amap',
        key: 'k',
        reverseUrl: `${provider.base}/amap/regeo?key={key}&location={lon},{lat}`,
      });
      const res = await user.post<Address>('/map/getKeyAddress', { lat: 39.915, lon: 116.404 });
      const location = provider.hits.at(-1)?.searchParams.get('location') ?? '';
      const [lon, lat] = location.split(',').map(Number);
      expect(lon - 116.404).toBeGreaterThan(0.005);
      expect(lat - 39.915).toBeGreaterThan(0.0005);
      expect(res.data.address).toBe(`amap ${location}`);
    });

    it('answers at once with "address unavailable" when the provider is down (offline)', async () => {
      await admin.post('/map/saveGeocoder', {
        provider: 'nominatim',
        reverseUrl: 'http://127.0.0.1:9/reverse?lat={lat}&lon={lon}',
        suggestUrl: `${provider.base}/broken?q={query}`,
      });
      user.lang = 'cn';
      // The provider is down: the built-in place index fills in; out at sea nothing does.
      const down = await user.post<Address>('/map/getKeyAddress', { lat: 31.23, lon: 121.47 });
      expect(down.data).toMatchObject({ available: true, offline: true });
      expect(down.data.address).toMatch(/^中国 /);
      const downSea = await user.post<Address>('/map/getKeyAddress', { lat: 0, lon: -30 });
      expect(downSea.data).toMatchObject({ available: false, reason: 'providerFailed' });
      expect(downSea.data.message).toBe('地址暂不可用: 地址服务暂时无法访问');
      user.lang = 'en';
      // Cached answers are still served while the provider is down.
      const cached = await user.post<Address>('/map/getKeyAddress', { lat: 39.91501, lon: 116.40402 });
      expect(cached.data).toMatchObject({ available: true, cached: true });
      await admin.post('/map/saveGeocoder', { ...nominatim(), suggestUrl: `${provider.base}/broken?q={query}` });
      const broken = await user.post<Suggestions>('/map/getSuggestion', { query: 'x' });
      expect(broken.data).toMatchObject({ available: false, list: [] });
      expect(broken.data.message).toMatch(/^Place search unavailable/);
    });

    it('checks input', async () => {
      expect((await user.post('/map/getKeyAddress', { lat: 100, lon: 0 })).status).toBe(400);
      const bad = await user.post('/map/getKeyAddress', { param: { location: 'here' } });
      expect(bad.status).toBe(400);
      expect(bad.meta.message).toBe('The location must be "latitude,longitude"');
      expect((await user.post('/map/getSuggestion', { query: '' })).status).toBe(400);
      expect((await user.post('/map/getSuggestion', { query: 'x', region: 'Mars' })).status).toBe(400);
      const anonymous = await server.app.inject({
        method: 'POST',
        url: '/api/map/getKeyAddress',
        payload: { lat: 1, lon: 1 },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
