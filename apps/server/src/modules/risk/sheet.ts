// Risk point import rows: pasted text (tab, comma or semicolon separated) or an xlsx workbook (first sheet).
// Columns of the template: name, kind, latitude, longitude, radius (m), dwell minutes, note. A first row whose
// latitude cell is not a number is the title row and is skipped.
import ExcelJS from 'exceljs';
import { ApiError } from '../../http/errors.ts';

export const RISK_KINDS = ['market', 'pawnshop', 'repair', 'border', 'other'] as const;
export const RISK_TEMPLATE_COLUMNS = ['name', 'kind', 'lat', 'lon', 'radius', 'dwellMinutes', 'note'] as const;

export interface RiskRow {
  line: number;
  cells: string[];
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value);
}

export async function readRiskRows(upload: { text?: string; file?: { name: string; base64: string } }) {
  let rows: RiskRow[] = [];
  if (upload.file) {
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load(Buffer.from(upload.file.base64, 'base64') as unknown as ArrayBuffer);
    } catch {
      throw new ApiError(400, 'file.unreadable', 400);
    }
    book.worksheets[0]?.eachRow({ includeEmpty: false }, (row, line) => {
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      const cells = values.map((v) => cellText(v as ExcelJS.CellValue).trim());
      if (cells.some((c) => c !== '')) rows.push({ line, cells });
    });
  } else if (upload.text !== undefined) {
    upload.text.split(/\r\n|\r|\n/).forEach((raw, i) => {
      const cells = raw.split(/\t|;|,/).map((c) => c.trim());
      if (cells.some((c) => c !== '')) rows.push({ line: i + 1, cells });
    });
  } else throw new ApiError(400, 'file.unreadable', 400);
  if (rows.length > 0 && !Number.isFinite(Number.parseFloat(rows[0].cells[2] ?? ''))) rows = rows.slice(1);
  if (rows.length === 0) throw new ApiError(400, 'file.unreadable', 400);
  return rows;
}

/** The import template (title row and one example) as xlsx bytes. */
export async function riskTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('riskPoints');
  sheet.columns = RISK_TEMPLATE_COLUMNS.map((c) => ({ header: c, key: c, width: c === 'note' ? 30 : 14 }));
  sheet.addRow({
    name: 'Used-car market',
    kind: 'market',
    lat: 39.915,
    lon: 116.404,
    radius: 300,
    dwellMinutes: 30,
    note: '',
  });
  return Buffer.from((await book.xlsx.writeBuffer()) as ArrayBuffer);
}
