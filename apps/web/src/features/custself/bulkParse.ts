// The per-device bulk edit's input (device/deviceUpdateDeviceInfo): one device per line, the columns of the
// template in order (IMEI, name, plate, SIM, ICCID, driver, driver phone, model code, icon type), separated by
// tabs (pasted from a spreadsheet), commas or semicolons. An empty cell leaves the field as it is; a first line
// that does not start with an IMEI is the header.
import { BULK_FIELDS, type BulkRow } from './api.ts';

const IMEI = /^[0-9A-Za-z]{6,20}$/;

export function rowsFromCells(cells: readonly (readonly string[])[]): BulkRow[] {
  const rows: BulkRow[] = [];
  for (const [i, line] of cells.entries()) {
    const [imei = '', ...values] = line.map((c) => c.trim());
    if (imei === '') continue;
    if (i === 0 && !IMEI.test(imei)) continue;
    const row: BulkRow = { terminalID: imei };
    BULK_FIELDS.forEach((field, k) => {
      const v = values[k];
      if (v !== undefined && v !== '') row[field] = v;
    });
    rows.push(row);
  }
  return rows;
}

export function rowsFromText(text: string): BulkRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const sep = lines.some((l) => l.includes('\t')) ? '\t' : /[,;]/;
  return rowsFromCells(lines.map((l) => l.split(sep)));
}

/** The first sheet of an xlsx file as rows of text cells. */
export async function cellsFromXlsx(file: ArrayBuffer): Promise<string[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file);
  const sheet = book.worksheets[0];
  const out: string[][] = [];
  sheet?.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let c = 1; c <= BULK_FIELDS.length + 1; c++) {
      const v = row.getCell(c).value;
      cells.push(
        v === null || v === undefined ? '' : typeof v === 'object' && 'text' in v ? String(v.text) : String(v),
      );
    }
    out.push(cells);
  });
  return out;
}

/** The template: the header row in the user's language (IMEI first), its columns formatted as text. */
export async function templateXlsx(headers: string[]): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('devices');
  sheet.columns = headers.map((header) => ({ header, width: 18 }));
  // IMEIs and SIM numbers are text, so a spreadsheet keeps their digits.
  for (let c = 1; c <= headers.length; c++) sheet.getColumn(c).numFmt = '@';
  const buffer = await book.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
