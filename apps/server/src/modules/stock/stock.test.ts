import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildTree, createUser, expectOk, loginAs, nextImei, type Tree } from '../agent/fixtures.ts';

interface Counts {
  success: number;
  failure: number;
  unqualified: number;
  noFactoryTest: number;
  notPreset: number;
  alreadyStocked: number;
  rejected: { line: number; value: string; reason: string; message: string }[];
}
interface Job {
  id: string;
  status: string;
  total: number;
  processed: number;
  result: Counts | null;
}

describe('factory stock: preset list, device import, removal, one meaning of stock', () => {
  let server: TestServer;
  let t: Tree;
  let stockUserId: string;
  beforeAll(async () => {
    server = await createTestServer();
    t = await buildTree(server);
    stockUserId = await createUser(t.admin, 'stocker', 15);
    await createUser(t.admin, 'tester', 5);
    await createUser(t.admin, 'logger', 8);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A production test result, uploaded as a test station would (v2). */
  async function qc(imei: string, pass: boolean) {
    await expectOk(t.admin.post('/serials/v2', { results: [{ imei, model: 'Gt06', pass }] }));
  }

  it('imports a preset list with counts and a downloadable list of refused lines', async () => {
    const stocker = await loginAs(server, 'stocker');
    const [a, b] = [nextImei(), nextImei()];
    const owned = nextImei();
    await expectOk(
      t.admin.post('/device/import', { userId: t.ids.agentA, text: owned, protocol: 2, deviceType: 12, wait: true }),
    );
    const job = await expectOk<Job>(
      stocker.post('/stock/importImei', {
        text: `IMEI\n${a}\n${b}\n${a}\nbad!\n${owned}\n@SUM(A1:A9)`,
        batch: 'B1',
        wait: true,
      }),
    );
    expect(job.status).toBe('done');
    expect(job.processed).toBe(job.total);
    expect(job.result).toMatchObject({ success: 2, failure: 1, unqualified: 2, alreadyStocked: 1 });
    const again = await expectOk<Job>(stocker.post('/stock/importImei', { text: a, wait: true }));
    expect(again.result).toMatchObject({ success: 0, failure: 1 });
    expect(again.result!.rejected[0].reason).toBe('alreadyPreset');
    const csv = await server.app.inject({
      method: 'GET',
      url: `/api/stock/importRejected?id=${job.id}&kind=stockImei`,
      headers: { cookie: stocker.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('bad!');
    expect(csv.body).toContain(`${owned},alreadyStocked`);
    // The refused line comes back as it was uploaded, neutralised: a spreadsheet shows it, never runs it.
    expect(csv.body).toContain("'@SUM(A1:A9)");
    expect(csv.body).not.toMatch(/(^|,)@SUM/m);
    const list = await expectOk<{ total: number; list: { imei: string; state: string; preset: boolean }[] }>(
      stocker.post('/stock/find', { imei: a }),
    );
    expect(list.list[0]).toMatchObject({ imei: a, state: 'unused', preset: true });
  });

  it('reads xlsx uploads', async () => {
    const stocker = await loginAs(server, 'stocker');
    const imei = nextImei();
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('imeis');
    sheet.addRow(['IMEI']);
    sheet.addRow([Number(imei)]);
    const base64 = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
    const job = await expectOk<Job>(
      stocker.post('/stock/importImei', { file: { name: 'x.xlsx', base64 }, wait: true }),
    );
    expect(job.result).toMatchObject({ success: 1 });
    const bad = await stocker.post('/stock/importImei', { file: { name: 'x.xlsx', base64: 'bm90IHhsc3g=' } });
    expect(bad.status).toBe(400);
  });

  it('stocks devices only when preset, tested and passed; then removal delivers them to an agent', async () => {
    const stocker = await loginAs(server, 'stocker');
    const [good, failed, untested, notPreset] = [nextImei(), nextImei(), nextImei(), nextImei()];
    await expectOk(stocker.post('/stock/importImei', { text: [good, failed, untested].join('\n'), wait: true }));
    await qc(good, false);
    await qc(good, true); // the latest result counts
    await qc(failed, true);
    await qc(failed, false);
    await qc(notPreset, true);
    const iccid = '89860012345678901234';
    const job = await expectOk<Job>(
      stocker.post('/stock/importDevice', {
        text: [
          `${good}\tGt06\t${iccid}`,
          `${failed},Gt06`,
          `${untested} Gt06`,
          `${notPreset},Gt06`,
          `${nextImei()},NoSuchModel`,
        ].join('\n'),
        batch: 'P7',
        wait: true,
      }),
    );
    expect(job.result).toMatchObject({ success: 1, unqualified: 2, noFactoryTest: 1, notPreset: 1, alreadyStocked: 0 });
    const reasons = Object.fromEntries(job.result!.rejected.map((r) => [r.value, r.reason]));
    expect(reasons[failed]).toBe('qcFailed');
    expect(reasons[untested]).toBe('noFactoryTest');
    const device = await server.ctx.db
      .selectFrom('devices')
      .select(['user_id', 'iccid', 'device_type'])
      .where('terminal_id', '=', good)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({ user_id: null, iccid, device_type: 12 });
    const inStock = await expectOk<{ list: { imei: string; state: string; qcPass: boolean; batch: string }[] }>(
      stocker.post('/stock/find', { state: 'in' }),
    );
    expect(inStock.list.map((r) => r.imei)).toContain(good);
    expect(inStock.list.find((r) => r.imei === good)).toMatchObject({ qcPass: true, batch: 'P7' });

    // Removal: invalid destination, then a real agent.
    const bad = await stocker.post('/stock/out', { agentId: t.ids.userA1, text: good });
    expect(bad.status).toBe(400);
    const agents = await expectOk<{ id: string; username: string }[]>(
      stocker.post('/stock/agents', { keyword: 'agent' }),
    );
    expect(agents.map((a) => a.id)).toContain(t.ids.agentB);
    const out = await expectOk<Counts>(
      stocker.post('/stock/out', { agentId: t.ids.agentB, text: `${good}\n${good}\n${untested}` }),
    );
    expect(out).toMatchObject({ success: 1, failure: 2 });
    expect(Object.fromEntries(out.rejected.map((r) => [r.value, r.reason]))).toEqual({
      [good]: 'duplicate',
      [untested]: 'notInStock',
    });
    const again = await expectOk<Counts>(stocker.post('/stock/out', { agentId: t.ids.agentB, text: good }));
    expect(again.rejected[0].reason).toBe('alreadyOut');
    const agentB = await loginAs(server, 'agentB');
    const d = await expectOk<{ terminalID: string }>(agentB.post('/device/findById', { terminalID: good }));
    expect(d.terminalID).toBe(good);
    const outList = await expectOk<{ list: { imei: string; state: string; agentName: string }[] }>(
      stocker.post('/stock/find', { imei: good }),
    );
    expect(outList.list[0]).toMatchObject({ state: 'out', agentName: 'agentB' });
    // The customer import sees the same meaning: a stocked IMEI is "already stocked".
    const imp = await expectOk<Job>(
      t.admin.post('/device/import', { userId: t.ids.agentA, text: good, protocol: 2, deviceType: 12, wait: true }),
    );
    expect(imp.result).toMatchObject({ alreadyStocked: 1, success: 0 });
  });

  it('with factory checks on, the customer device import counts not preset and no factory test record', async () => {
    const off = await expectOk<{ enabled: boolean }>(t.admin.get('/stock/factoryChecks'));
    expect(off.enabled).toBe(false);
    const stocker = await loginAs(server, 'stocker');
    expect((await stocker.post('/stock/factoryChecks', { enabled: true })).status).toBe(403);
    await expectOk(t.admin.post('/stock/factoryChecks', { enabled: true }));
    const [ok, untested, notPreset, failed] = [nextImei(), nextImei(), nextImei(), nextImei()];
    await expectOk(stocker.post('/stock/importImei', { text: [ok, untested, failed].join('\n'), wait: true }));
    await qc(ok, true);
    await qc(failed, false);
    const job = await expectOk<Job>(
      t.admin.post('/device/import', {
        userId: t.ids.agentA,
        text: [ok, untested, notPreset, failed].join('\n'),
        protocol: 2,
        deviceType: 12,
        wait: true,
      }),
    );
    expect(job.result).toMatchObject({ success: 1, noFactoryTest: 1, notPreset: 1, unqualified: 1 });
    const rec = await server.ctx.db
      .selectFrom('stock_records')
      .select(['agent_id'])
      .where('imei', '=', ok)
      .executeTakeFirstOrThrow();
    expect(rec.agent_id).toBe(t.ids.agentA);
    await expectOk(t.admin.post('/stock/factoryChecks', { enabled: false }));
  });

  it('refuses customer and other factory roles, and bad input', async () => {
    const agentA = await loginAs(server, 'agentA');
    const tester = await loginAs(server, 'tester');
    const logger = await loginAs(server, 'logger');
    for (const c of [agentA, tester, logger]) {
      expect((await c.post('/stock/find', {})).status).toBe(403);
      expect((await c.post('/stock/importImei', { text: nextImei() })).status).toBe(403);
      expect((await c.post('/stock/importDevice', { text: nextImei() })).status).toBe(403);
      expect((await c.post('/stock/out', { agentId: t.ids.agentA, text: nextImei() })).status).toBe(403);
    }
    const stocker = await loginAs(server, 'stocker');
    expect((await stocker.post('/stock/importImei', {})).status).toBe(400);
    expect((await stocker.post('/stock/importImei', { text: '\n\n' })).status).toBe(400);
    expect((await stocker.post('/stock/find', { state: 'lost' })).status).toBe(400);
    expect((await stocker.post('/stock/out', { agentId: 'x', text: 'y' })).status).toBe(400);
    stocker.lang = 'cn';
    const cn = await stocker.post('/stock/out', { agentId: stockUserId, text: nextImei() });
    expect(cn.meta.message).toBe('请选择一个代理商账号');
  });
});
