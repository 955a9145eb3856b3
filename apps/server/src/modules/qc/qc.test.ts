import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { adminClient, createUser, expectOk, loginAs, nextImei } from '../agent/fixtures.ts';

interface Outcome {
  accepted: number;
  passed: number;
  failed: number;
  results: { imei: string; pass: boolean; failures: string[] }[];
  errors: { line: number; message: string }[];
}
interface Page {
  total: number;
  more: boolean;
  list: { imei: string; kind: string; pass: boolean; failures: string[]; satellites: number | null; batch: string }[];
}

describe('QC: criteria, v1/v2 uploads by API key, search and export', () => {
  let server: TestServer;
  let key: string;
  let stockerKey: string;
  beforeAll(async () => {
    // The test environment: role test holds serial results and test config there (spec §6).
    server = await createTestServer({ appEnv: 'test' });
    const admin = await adminClient(server);
    await createUser(admin, 'tester', 5);
    const stockerId = await createUser(admin, 'stocker', 15);
    await createUser(admin, 'agent1', 2);
    stockerKey = (
      await expectOk<{ key: string }>(admin.post('/system/apiKey/add', { name: 'stock', userId: stockerId }))
    ).key;
    const tester = await loginAs(server, 'tester');
    key = (await expectOk<{ key: string }>(admin.post('/system/apiKey/add', { name: 'line 3' }))).key;
    await expectOk(
      tester.post('/serials/config/save', {
        model: 'Gt06',
        minSatellites: 6,
        minCn0: 38,
        minGsm: 15,
        firmware: 'V2.1',
      }),
    );
  });
  afterAll(async () => {
    await server.close();
  });

  const upload = (url: string, payload: string | object, headers: Record<string, string>) =>
    server.app.inject({
      method: 'POST',
      url: `/api${url}`,
      headers: { 'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('v1 lines with an API key are judged against the model criteria; malformed lines are reported', async () => {
    const [good, weak, other] = [nextImei(), nextImei(), nextImei()];
    const res = await upload(
      '/serials/v1',
      [
        `${good},Gt06,V2.1,20,9,42,PASS,B9,30`,
        `${weak},Gt06,V2.0,20,4,42,PASS,B9`,
        `${other},Other,X,1,1,1,OK`,
        'junk',
      ].join('\n'),
      { 'x-api-key': key, lang: 'en' },
    );
    expect(res.statusCode).toBe(200);
    const out = res.json().data as Outcome;
    expect(out).toMatchObject({ accepted: 3, passed: 2, failed: 1 });
    expect(out.results.find((r) => r.imei === weak)?.failures).toEqual(['satellites', 'firmware']);
    expect(out.errors).toEqual([{ line: 4, message: 'Line 4 is malformed (fields)' }]);
    const tester = await loginAs(server, 'tester');
    const page = await expectOk<Page>(tester.post('/qc/find', { imei: weak }));
    expect(page.list[0]).toMatchObject({ imei: weak, kind: 'v1', pass: false, batch: 'B9' });
  });

  it('v2 JSON and GPS results; search by prefix, date, batch and verdict', async () => {
    const prefix = `86${String(Date.now()).slice(-6)}9`;
    const imeis = [1, 2, 3].map((i) => `${prefix}${String(i).padStart(15 - prefix.length, '0')}`);
    const res = await upload(
      '/serials/v2',
      {
        station: 'S2',
        batch: 'B10',
        results: [
          {
            imei: imeis[0],
            model: 'gt06',
            firmware: 'V2.1',
            gsm: { csq: 22 },
            gps: { satellites: 10, bestCn0: 45 },
            pass: true,
          },
          {
            imei: imeis[1],
            model: 'Gt06',
            firmware: 'V2.1',
            gsm: { csq: 10 },
            gps: { satellites: 10, bestCn0: 45 },
            pass: true,
          },
        ],
      },
      { authorization: `Bearer ${key}` },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ accepted: 2, passed: 1, failed: 1 });
    const gps = await upload(
      '/serials/v2',
      {
        type: 'gps',
        results: [
          { imei: imeis[2], gps: { satellites: 7, bestCn0: 40, ttffSeconds: 28 }, testedAt: '2020-01-02T03:04:05Z' },
        ],
      },
      { 'x-api-key': key },
    );
    expect(gps.json().data).toMatchObject({ accepted: 1, passed: 1 });
    const tester = await loginAs(server, 'tester');
    const all = await expectOk<Page>(tester.post('/qc/find', { imei: prefix }));
    expect(all.total).toBe(3);
    const failed = await expectOk<Page>(tester.post('/qc/find', { imei: prefix, pass: false }));
    expect(failed.list.map((r) => r.imei)).toEqual([imeis[1]]);
    expect(failed.list[0].failures).toEqual(['gsm']);
    const recent = await expectOk<Page>(tester.post('/qc/find', { imei: prefix, from: '2021-01-01T00:00:00Z' }));
    expect(recent.total).toBe(2);
    const gpsOnly = await expectOk<Page>(tester.post('/serials/find', { kind: 'gps', imei: prefix }));
    expect(gpsOnly.list).toMatchObject([{ imei: imeis[2], satellites: 7 }]);
    const byBatch = await expectOk<Page>(tester.post('/qc/find', { batch: 'B10' }));
    expect(byBatch.total).toBe(2);
    const xlsx = await server.app.inject({
      method: 'GET',
      url: `/api/qc/export?imei=${prefix}&pass=false`,
      headers: { cookie: tester.cookie },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].rowCount).toBe(2);
    expect(String(book.worksheets[0].getRow(2).getCell(1).value)).toBe(imeis[1]);
  });

  it('refuses uploads without a valid key, keys of accounts without the permission, and bad input', async () => {
    const line = `${nextImei()},Gt06,V2.1,20,9,42,PASS`;
    expect((await upload('/serials/v1', line, {})).statusCode).toBe(401);
    expect((await upload('/serials/v1', line, { 'x-api-key': 'chk_nope' })).statusCode).toBe(401);
    expect((await upload('/serials/v1', line, { 'x-api-key': stockerKey })).statusCode).toBe(403);
    const agent = await loginAs(server, 'agent1');
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/serials/v1',
      headers: { 'content-type': 'text/plain', cookie: agent.cookie },
      payload: line,
    });
    expect(res.statusCode).toBe(403);
    expect((await upload('/serials/v2', { results: [] }, { 'x-api-key': key })).statusCode).toBe(400);
    expect((await upload('/serials/v2', { results: [{ imei: 'x' }] }, { 'x-api-key': key })).statusCode).toBe(400);
    const tester = await loginAs(server, 'tester');
    expect(
      (
        await tester.post('/serials/config/save', {
          model: '',
          minSatellites: 1,
          minCn0: null,
          minGsm: null,
          firmware: null,
        })
      ).status,
    ).toBe(400);
    expect((await tester.post('/qc/find', { from: 'yesterday' })).status).toBe(400);
  });

  it('permission: customer roles and factory roles without QC are refused', async () => {
    const agent = await loginAs(server, 'agent1');
    const stocker = await loginAs(server, 'stocker');
    for (const c of [agent, stocker]) {
      expect((await c.post('/qc/find', {})).status).toBe(403);
      expect((await c.post('/serials/find', {})).status).toBe(403);
      expect(
        (
          await c.post('/serials/config/save', {
            model: 'X',
            minSatellites: 1,
            minCn0: null,
            minGsm: null,
            firmware: null,
          })
        ).status,
      ).toBe(403);
      expect((await c.get('/qc/export')).status).toBe(403);
    }
  });
});

describe('QC in the live environment: serial results and test config are test-environment permissions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ appEnv: 'live' });
    const admin = await adminClient(server);
    await createUser(admin, 'tester', 5);
  });
  afterAll(async () => {
    await server.close();
  });

  it('role test keeps QC search but not serial results or criteria', async () => {
    const tester = await loginAs(server, 'tester');
    expect((await tester.post('/qc/find', {})).status).toBe(200);
    expect((await tester.post('/serials/find', {})).status).toBe(403);
    expect(
      (
        await tester.post('/serials/config/save', {
          model: 'X',
          minSatellites: 1,
          minCn0: null,
          minGsm: null,
          firmware: null,
        })
      ).status,
    ).toBe(403);
  });
});
