// Uploaded tables for the factory imports: pasted text (one row a line), a csv/text file, or an xlsx workbook
// (first sheet, read with exceljs). Every row comes back as trimmed text cells; a first row of column titles
// is dropped. And the other way: the factory's exports as one xlsx sheet (sendXlsx).

import { Readable } from 'node:stream';
import { isHeaderRow, neutraliseRow, splitCells } from '@carhere/domain';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../http/errors.ts';
import { leanXlsxRows } from './xlsxRows.ts';

export const uploadSchema = z.object({
  /** Pasted rows, one a line; cells separated by tab, comma, semicolon or spaces. */
  text: z.string().max(20_000_000).optional(),
  /** An uploaded file: name (.xlsx, .csv or .txt) and its bytes in base64. */
  file: z.object({ name: z.string().max(200), base64: z.string().max(40_000_000) }).optional(),
});
export type Upload = z.infer<typeof uploadSchema>;

export interface SheetRow {
  /** 1-based line (text) or row (xlsx) number. */
  line: number;
  cells: string[];
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value);
}

function textRows(text: string): SheetRow[] {
  const rows: SheetRow[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const cells = splitCells(raw);
    if (cells.length > 0) rows.push({ line: i + 1, cells });
  });
  return rows;
}

/**
 * The rows of the workbook's first sheet: by the lean reader (xlsxRows.ts, a single scan of the sheet's XML),
 * else — a file it does not handle — by exceljs.
 */
export async function xlsxRows(buffer: Buffer): Promise<SheetRow[]> {
  return leanXlsxRows(buffer) ?? (await exceljsRows(buffer));
}

/**
 * The rows of the first sheet read by exceljs as a stream (WorkbookReader: the sheet XML parsed as it is
 * inflated, no workbook model). Styles are kept so that date cells come back as dates.
 */
export async function exceljsRows(buffer: Buffer): Promise<SheetRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  // Sheets arrive in the archive's order; the first sheet is the one with the lowest number.
  let first: { id: number; rows: SheetRow[] } | null = null;
  try {
    for await (const sheet of reader) {
      const id = Number((sheet as unknown as { id: number }).id);
      const rows: SheetRow[] = [];
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        // Array.from, not map: the row's values are sparse, and map would keep the holes.
        const cells = Array.from(values, (v) => cellText(v as ExcelJS.CellValue).trim());
        while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
        if (cells.length > 0) rows.push({ line: row.number, cells });
      }
      if (first === null || id < first.id) first = { id, rows };
    }
  } catch {
    throw new ApiError(400, 'file.unreadable', 400);
  }
  return first?.rows ?? [];
}

/** The rows of an upload, without a title row; 400 'file.unreadable' when there is nothing readable. */
export async function readUpload(upload: Upload, maxRows: number): Promise<SheetRow[]> {
  let rows: SheetRow[];
  if (upload.file) {
    const buffer = Buffer.from(upload.file.base64, 'base64');
    rows = /\.xlsx$/i.test(upload.file.name) ? await xlsxRows(buffer) : textRows(buffer.toString('utf8'));
  } else if (upload.text !== undefined) {
    rows = textRows(upload.text);
  } else {
    throw new ApiError(400, 'file.unreadable', 400);
  }
  if (rows.length > 0 && isHeaderRow(rows[0].cells)) rows = rows.slice(1);
  if (rows.length === 0) throw new ApiError(400, 'file.unreadable', 400);
  if (rows.length > maxRows) throw new ApiError(400, 'file.tooManyRows', 400, { max: maxRows });
  return rows;
}

/**
 * Answers one sheet as an xlsx download `<name>.xlsx`: the columns (title, key, width) and one row per record;
 * cells a spreadsheet would run as formulas are neutralised.
 */
export async function sendXlsx<T extends object>(
  reply: FastifyReply,
  name: string,
  columns: { header: string; key: string; width: number }[],
  rows: readonly T[],
): Promise<FastifyReply> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(name);
  sheet.columns = columns;
  for (const r of rows) sheet.addRow(neutraliseRow({ ...(r as Record<string, unknown>) }));
  const buffer = await book.xlsx.writeBuffer();
  return reply
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${name}.xlsx"`)
    .send(Buffer.from(buffer as ArrayBuffer));
}
