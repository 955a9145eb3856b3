import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, createUser, expectOk, importDevices, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Job {
  status: string;
  total: number;
  processed: number;
  result: {
    success: number;
    failure: number;
    unqualified: number;
    rejected: { value: string; reason: string }[];
  } | null;
}
interface CardPage {
  total: number;
  list: {
    iccid: string;
    msisdn: string;
    imei: string | null;
    state: string;
    expiresOn: string | null;
    reportedIccid: string;
  }[];
}
interface Check {
  synced: number;
  total: number;
  list: { kind: string; imei: string; cardIccid: string; reportedIccid: string }[];
}

let seq = 0;
const iccid = () => `8986${String(Date.now()).slice(-9)}${String(++seq).padStart(7, '0')}`;

describe('SIM cards: import, search, check against reported ICCIDs, clear, customer ICCID screens', () => {
  let server: TestServer;
  let t: Tree;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    await createUser(t.admin, 'tester', 5);
    await createUser(t.admin, 'logger', 8);
  });
  afterAll(async () => {
    await server.close();
  });

  /** What the gateway does when a device reports its ICCID: merge it into device_state.attributes. */
  async function report(imei: string, value: string) {
    await sql`INSERT INTO device_state (device_id, attributes)
      SELECT id, jsonb_build_object('iccid', ${value}::text) FROM devices WHERE terminal_id = ${imei}
      ON CONFLICT (device_id) DO UPDATE SET attributes = device_state.attributes || EXCLUDED.attributes`.execute(
      server.ctx.db,
    );
  }

  it('imports cards with counts, binds them by IMEI or by the ICCID a device reported, and searches', async () => {
    const tester = await loginAs(server, 'tester');
    const [dev1, dev2] = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei()]);
    const [c1, c2, c3] = [iccid(), iccid(), iccid()];
    await report(dev2, `${c2}F`);
    const text = [
      'ICCID,IMSI,MSISDN,Operator,Plan,Activated,Expires,State,IMEI',
      `${c1},460001,13800000001,CMCC,1G,2026-01-01,2027/01/01,active,${dev1}`,
      `${c2},460002,13800000002,CMCC,1G,,,`,
      `${c3},460003,13800000003,CU,2G,20260105,,suspended`,
      `${c3},460003,13800000003,CU,2G,,,`,
      `123,x`,
      `${iccid()},1,2,3,4,2026-02-31`,
    ].join('\n');
    const job = await expectOk<Job>(tester.post('/card/import', { text, wait: true }));
    expect(job.status).toBe('done');
    expect(job.processed).toBe(job.total);
    expect(job.result).toMatchObject({ success: 3, failure: 1, unqualified: 2 });
    const page = await expectOk<CardPage>(tester.post('/card/find', { msisdn: '1380000000' }));
    const byIccid = Object.fromEntries(page.list.map((c) => [c.iccid, c]));
    expect(byIccid[c1]).toMatchObject({ imei: dev1, expiresOn: '2027-01-01', state: 'active' });
    expect(byIccid[c2]).toMatchObject({ imei: dev2, reportedIccid: c2 });
    expect(byIccid[c3]).toMatchObject({ imei: null, state: 'suspended' });
    const suspended = await expectOk<CardPage>(tester.post('/card/find', { state: 'suspended', iccid: c3 }));
    expect(suspended.total).toBe(1);
    const device = await server.ctx.db
      .selectFrom('devices')
      .select('iccid')
      .where('terminal_id', '=', dev2)
      .executeTakeFirstOrThrow();
    expect(device.iccid).toBe(c2);

    // xlsx import of the same columns.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('cards');
    const c4 = iccid();
    sheet.addRow(['ICCID', 'IMSI', 'MSISDN', 'Operator', 'Plan', 'Activated', 'Expires']);
    // Date cells are read as dates (the streamed reader keeps the styles that mark them).
    sheet.addRow([c4, '460004', '13800000004', 'CMCC', '1G', new Date(Date.UTC(2026, 2, 4)), '2028-05-06']);
    book.addWorksheet('notes').addRow(['not', 'cards']); // only the first sheet is read
    const base64 = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
    const x = await expectOk<Job>(tester.post('/card/import', { file: { name: 'c.xlsx', base64 }, wait: true }));
    expect(x.result).toMatchObject({ success: 1, failure: 0, unqualified: 0 });
    const c4Page = await expectOk<CardPage & { list: { activatedOn: string | null }[] }>(
      tester.post('/card/find', { iccid: c4 }),
    );
    expect(c4Page.list[0]).toMatchObject({ activatedOn: '2026-03-04', expiresOn: '2028-05-06' });
    const csv = await server.app.inject({
      method: 'GET',
      url: `/api/card/export?iccid=${c4}`,
      headers: { cookie: tester.cookie },
    });
    expect(csv.statusCode).toBe(200);
  });

  it('imports more rows than one write chunk: every row lands, refused lines come back in file order', async () => {
    const tester = await loginAs(server, 'tester');
    const base = `8987${String(Date.now()).slice(-8)}`;
    const lines = Array.from({ length: 25_000 }, (_, i) => `${base}${String(i).padStart(8, '0')},4600${i},1${i}`);
    lines[20_500] = 'bad line in the third chunk';
    lines[3] = 'bad line in the first chunk';
    const job = await expectOk<Job>(tester.post('/card/import', { text: lines.join('\n'), wait: true }));
    expect(job.result).toMatchObject({ success: 24_998, unqualified: 2 });
    expect(job.result!.rejected.map((r) => r.value)).toEqual([
      'bad line in the first chunk',
      'bad line in the third chunk',
    ]);
    const found = await expectOk<CardPage>(tester.post('/card/find', { iccid: base, pageSize: 1 }));
    expect(found.total).toBe(24_998);
  });

  it('check shows mismatches after devices report, and clear unbinds', async () => {
    const tester = await loginAs(server, 'tester');
    const [devA, devB, devC] = await importDevices(t.admin, t.ids.agentA, [nextImei(), nextImei(), nextImei()]);
    const [cA, cB, other] = [iccid(), iccid(), iccid()];
    await expectOk(tester.post('/card/import', { text: `${cA},,,,,,,,${devA}\n${cB},,,,,,,,${devB}`, wait: true }));
    await report(devA, other); // devA reports a card that is not the one bound to it, and no card is known for it
    await report(devC, cB); // devC reports card B, still bound to devB
    const check = await expectOk<Check>(tester.post('/card/check', { imeis: [devA, devB, devC] }));
    const kinds = check.list.map((m) => `${m.kind}:${m.imei}`).sort();
    expect(kinds).toEqual([`mismatch:${devA}`, `unknownCard:${devA}`]);
    expect(check.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'mismatch', imei: devA, cardIccid: cA, reportedIccid: other }),
        expect.objectContaining({ kind: 'unknownCard', imei: devA, reportedIccid: other }),
      ]),
    );
    // card B moved to devC with its report, so devB has no card and devC's card matches.
    const b = await expectOk<CardPage>(tester.post('/card/find', { iccid: cB }));
    expect(b.list[0].imei).toBe(devC);
    const cleared = await expectOk<{ cleared: number }>(tester.post('/card/clear', { imeis: [devA] }));
    expect(cleared.cleared).toBe(1);
    const after = await expectOk<Check>(tester.post('/card/check', { imeis: [devA] }));
    expect(after.list).toEqual([]);
    const a = await server.ctx.db
      .selectFrom('devices')
      .select('iccid')
      .where('terminal_id', '=', devA)
      .executeTakeFirstOrThrow();
    expect(a.iccid).toBe('');
  });

  it('customer: batch ICCID update inside the own subtree, numbers and export', async () => {
    const [mine] = await importDevices(t.admin, t.ids.userA1, [nextImei()]);
    const [theirs] = await importDevices(t.admin, t.ids.agentB, [nextImei()]);
    const tester = await loginAs(server, 'tester');
    const c = iccid();
    await expectOk(tester.post('/card/import', { text: `${c},4601,13900000000`, wait: true }));
    const agentA = await loginAs(server, 'agentA');
    const res = await expectOk<{
      success: number;
      failure: number;
      unqualified: number;
      rejected: { value: string; reason: string }[];
    }>(agentA.post('/device/updateIccid', { text: `${mine}\t${c}\n${theirs}\t${iccid()}\n${mine} nonsense` }));
    expect(res).toMatchObject({ success: 1, failure: 1, unqualified: 1 });
    expect(res.rejected.find((r) => r.value === theirs)?.reason).toBe('notFound');
    const numbers = await expectOk<{ imei: string; iccid: string; msisdn: string }[]>(
      agentA.post('/card/findDeviceNumberList', { imeis: [mine, theirs] }),
    );
    expect(numbers).toEqual([expect.objectContaining({ imei: mine, iccid: c, msisdn: '13900000000' })]);
    const xlsx = await server.app.inject({
      method: 'GET',
      url: '/api/device/exportIccid',
      headers: { cookie: agentA.cookie },
    });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells = book.worksheets[0].getColumn(2).values.map(String);
    expect(cells).toContain(c);
    const outside = await server.app.inject({
      method: 'GET',
      url: `/api/device/exportIccid?userId=${t.ids.agentB}`,
      headers: { cookie: agentA.cookie },
    });
    expect(outside.statusCode).toBe(403);
  });

  it('permission denial and bad input', async () => {
    const userA1 = await loginAs(server, 'userA1');
    const logger = await loginAs(server, 'logger');
    for (const c of [userA1, logger]) {
      expect((await c.post('/card/find', {})).status).toBe(403);
      expect((await c.post('/card/import', { text: iccid() })).status).toBe(403);
      expect((await c.post('/card/check', {})).status).toBe(403);
      expect((await c.post('/card/clear', { imeis: ['1'] })).status).toBe(403);
      expect((await c.post('/device/updateIccid', { text: 'x y' })).status).toBe(403);
    }
    const tester = await loginAs(server, 'tester');
    expect((await tester.post('/card/clear', {})).status).toBe(400);
    expect((await tester.post('/card/find', { state: 'lost' })).status).toBe(400);
    expect((await tester.post('/card/import', { file: { name: 'a.xlsx', base64: 'AAAA' } })).status).toBe(400);
    // role test has the card screens but not the customer's ICCID update
    expect((await tester.post('/device/updateIccid', { text: 'x y' })).status).toBe(403);
  });
});
