// The lean xlsx reader against exceljs on the same workbooks: every kind of cell an import file holds reads the
// same by both, and files the lean reader does not handle fall back to exceljs.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { exceljsRows, xlsxRows } from './sheet.ts';
import { leanXlsxRows } from './xlsxRows.ts';

type Row = (ExcelJS.CellValue | undefined)[];

const ROWS: Row[] = [
  ['IMEI', 'Model', 'ICCID', 'Activated', 'Expires', 'Note'],
  [868120301234567, 'Gt06', '89860012345678901234', new Date(Date.UTC(2026, 0, 31)), '2027-01-01', 'a & b <c> "d"'],
  ['868120301234568', 'S15 型号', 89860012345678, new Date(Date.UTC(2025, 11, 1, 13, 30)), null, '  spaced  '],
  [],
  [1.5, true, false, { formula: '1+1', result: 2 } as ExcelJS.CellFormulaValue, undefined, undefined, 'G col'],
  [
    { richText: [{ text: 'rich ' }, { font: { bold: true }, text: 'text' }] } as ExcelJS.CellRichTextValue,
    { formula: 'A1&"x"', result: 'IMEIx' } as ExcelJS.CellFormulaValue,
    { text: 'link', hyperlink: 'https://example.org' } as ExcelJS.CellHyperlinkValue,
  ],
];

async function workbook(opts: { stream?: boolean; date1904?: boolean }): Promise<Buffer> {
  if (opts.stream) {
    const parts: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (b: Buffer) => parts.push(b));
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet('first');
    for (const r of ROWS) sheet.addRow(r).commit();
    sheet.getColumn(4).numFmt = 'yyyy/mm/dd';
    sheet.commit();
    book.addWorksheet('second').addRow(['not', 'read']).commit();
    await book.commit();
    return Buffer.concat(parts);
  }
  const book = new ExcelJS.Workbook();
  if (opts.date1904) book.properties.date1904 = true;
  const sheet = book.addWorksheet('first');
  for (const r of ROWS) sheet.addRow(r);
  sheet.getCell('D3').numFmt = 'yyyy"年"m"月"d"日"';
  sheet.getCell('A5').numFmt = '0.00';
  book.addWorksheet('second').addRow(['not', 'read']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('lean xlsx reader', () => {
  for (const [name, opts] of [
    ['shared strings (Workbook)', {}],
    ['inline strings (streaming writer)', { stream: true }],
    ['1904 date system', { date1904: true }],
  ] as const) {
    it(`reads the first sheet as exceljs does: ${name}`, async () => {
      const buf = await workbook(opts);
      const lean = leanXlsxRows(buf);
      expect(lean).not.toBeNull();
      // exceljs' streamed reader keeps only the last run of a rich text (row 6); everything else reads the same.
      const full = await exceljsRows(buf);
      expect(lean?.slice(0, 4)).toEqual(full.slice(0, 4));
      expect(lean?.[4].cells.slice(1)).toEqual(full[4].cells.slice(1));
      expect(lean?.[0]).toEqual({ line: 1, cells: ['IMEI', 'Model', 'ICCID', 'Activated', 'Expires', 'Note'] });
      expect(lean?.[1].cells).toEqual([
        '868120301234567',
        'Gt06',
        '89860012345678901234',
        '2026-01-31',
        '2027-01-01',
        'a & b <c> "d"',
      ]);
      expect(lean?.[2].cells.slice(0, 4)).toEqual(['868120301234568', 'S15 型号', '89860012345678', '2025-12-01']);
      expect(lean?.[3]).toEqual({ line: 5, cells: ['1.5', 'true', 'false', '2', '', '', 'G col'] });
      expect(lean?.[4].cells).toEqual(['rich text', 'IMEIx', 'link']);
      expect(lean).toHaveLength(5); // the empty row 4 is left out
    });
  }

  it('answers null for what is not a zip, and the upload reader then reports an unreadable file', async () => {
    expect(leanXlsxRows(Buffer.from('not a workbook at all, just text'))).toBeNull();
    await expect(xlsxRows(Buffer.from('not a workbook'))).rejects.toMatchObject({ key: 'file.unreadable' });
  });

  it('reads 100,000 rows', async () => {
    const parts: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (b: Buffer) => parts.push(b));
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: true });
    const sheet = book.addWorksheet('imeis');
    for (let i = 0; i < 100_000; i++) sheet.addRow([`86812${String(i).padStart(10, '0')}`, 'Gt06']).commit();
    sheet.commit();
    await book.commit();
    const rows = leanXlsxRows(Buffer.concat(parts));
    expect(rows).toHaveLength(100_000);
    expect(rows?.[99_999]).toEqual({ line: 100_000, cells: ['868120000099999', 'Gt06'] });
  });
});
