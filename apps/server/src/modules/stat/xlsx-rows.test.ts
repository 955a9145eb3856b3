// The export's sheet writer keeps what it buffers bounded however many rows it writes (memory flat), and the
// file it writes holds every row. Fails if exceljs's internals it looks at move (pendingBytes would stay 0).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { XlsxRowWriter } from './xlsx-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'carhere-xlsx-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 25_000;
const row = (i: number) => [
  `8610000${String(i % 1000).padStart(8, '0')}`,
  `Device ${i % 1000}`,
  '2026-11-01',
  12_345 + i,
  3600,
  3,
  7200,
  5000,
  600,
  88.5,
  1,
  2,
];

describe('XlsxRowWriter', () => {
  it('waits for the file to take its rows: buffered bytes stay bounded over 25,000 rows', async () => {
    const file = join(dir, 'bounded.xlsx');
    const sheet = new XlsxRowWriter(file, 'find');
    let peak = 0;
    for (let i = 0; i < ROWS; i++) {
      await sheet.add(row(i));
      peak = Math.max(peak, sheet.pendingBytes());
    }
    await sheet.finish();
    // Something was seen buffered (the internals are where the writer looks) …
    expect(peak).toBeGreaterThan(0);
    // … and never more than a few 64 KB buffers: without waiting, 25,000 rows pile up some 11 MB.
    expect(peak).toBeLessThan(2 * 1024 * 1024);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const ws = book.worksheets[0];
    expect(ws.rowCount).toBe(ROWS);
    expect(ws.getRow(ROWS).getCell(4).value).toBe(12_345 + ROWS - 1);
    expect(ws.getRow(1).getCell(1).value).toBe('861000000000000');
  }, 120_000);
});
