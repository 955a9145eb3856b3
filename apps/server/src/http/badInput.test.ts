// Bad input of every kind answers a 4xx with the spec's message in the caller's language — never a 500: text the
// database cannot store (NUL, lone surrogates; before login too), page numbers past any offset, times outside
// 1900–9999, integers past the database's integer columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, importDevices, nextImei } from '../modules/agent/fixtures.ts';
import { expectedMessage } from '../testing/expectations.ts';
import { type ApiClient, createTestServer, type TestServer } from '../testing/harness.ts';

describe('bad input answers 400 naming the field, in the caller’s language', () => {
  let server: TestServer;
  let admin: ApiClient;
  const imei = nextImei('35');

  beforeAll(async () => {
    server = await createTestServer();
    admin = await adminClient(server);
    await importDevices(admin, '2', [imei]);
  });
  afterAll(async () => server.close());

  const send = async (lang: string, url: string, payload: unknown, cookie = admin.cookie) => {
    const res = await server.app.inject({
      method: 'POST',
      url: `/api${url}`,
      headers: { lang, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });
    return { status: res.statusCode, message: (res.json() as { meta: { message: string } }).meta.message };
  };

  const cases: { name: string; lang: string; url: string; body: unknown; field: string; anonymous?: boolean }[] = [
    {
      name: 'NUL in an unauthenticated login',
      lang: 'vi',
      url: '/login',
      body: { username: 'ad\u0000min', password: 'x' },
      field: 'username',
      anonymous: true,
    },
    {
      name: 'NUL in a password at login',
      lang: 'ru',
      url: '/login',
      body: { username: 'admin', password: 'a\u0000' },
      field: 'password',
      anonymous: true,
    },
    { name: 'a lone high surrogate', lang: 'fr', url: '/fence/add', body: { name: 'x\uD800' }, field: 'name' },
    {
      name: 'a lone low surrogate in a list',
      lang: 'th',
      url: '/device/findByImeis',
      body: { imeis: ['1', '\uDC00'] },
      field: 'imeis/1',
    },
    {
      name: 'a NUL in an object key',
      lang: 'es',
      url: '/device/update',
      body: { id: '1', 'k\u0000': 1 },
      field: 'k\u0000',
    },
    {
      name: 'a huge pageNum (envelope pageQuery)',
      lang: 'pt',
      url: '/system/apiKey/find',
      body: { pageNum: 1e12 },
      field: 'pageNum',
    },
    {
      name: 'a huge pageNum on alarms',
      lang: 'km',
      url: '/deviceAlarms/findAll',
      body: { pageNum: 9007199254740991, pageSize: 1 },
      field: 'pageNum',
    },
    {
      name: 'a time past year 9999 (location params)',
      lang: 'my',
      url: '/track/find',
      body: { terminalIDs: [imei], startTime: '+275760-09-13T00:00:00Z', endTime: Date.now() },
      field: 'startTime',
    },
    {
      name: 'a time before 1900 in epoch ms',
      lang: 'en-IN',
      url: '/track/find',
      body: { terminalIDs: [imei], startTime: Date.UTC(2026, 0, 1), endTime: -62135596800001 },
      field: 'endTime',
    },
    {
      name: 'an extreme expiry (agent schema)',
      lang: 'cn',
      url: '/device/updateTime',
      body: { terminalIDs: [imei], userExpireAt: 8.64e15 },
      field: 'userExpireAt',
    },
    {
      name: 'an integer past the database column',
      lang: 'en',
      url: '/device/updateZone',
      body: { terminalIDs: [imei], value: 2 ** 31 },
      field: 'value',
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const res = await send(c.lang, c.url, c.body, c.anonymous ? '' : admin.cookie);
      expect(res.status).toBe(400);
      expect(res.message).toBe(expectedMessage({ field: c.field }, c.lang));
    });
  }

  it('keeps the device as it was after the refused expiry', async () => {
    const row = await server.ctx.db
      .selectFrom('devices')
      .select(['user_expire_at'])
      .where('terminal_id', '=', imei)
      .executeTakeFirstOrThrow();
    expect(row.user_expire_at).toBeNull();
  });
});
