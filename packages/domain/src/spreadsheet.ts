// Spreadsheet exports and formula injection (CSV/formula injection, OWASP): a text cell that begins with
// = + - @ (or a tab or carriage return, which spreadsheet programs skip before such a sign) can be taken for a
// formula when the file is opened, edited or saved as CSV. Every export (server and web) passes its rows
// through neutraliseRow, which prefixes such text with an apostrophe so it stays text. Numbers, dates and
// booleans are left alone, and so are plain signed numbers written as text ("-12.5") and a lone "-".

const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/** True when a text cell would be read as the start of a formula. */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) && text !== '-' && !SIGNED_NUMBER.test(text);
}

/** One cell: dangerous text gets a leading apostrophe; anything else is returned as it is. */
export function neutraliseCell<T>(value: T): T | string {
  return typeof value === 'string' && isFormulaLike(value) ? `'${value}` : value;
}

/** A row as an array or as an object of cells (exceljs addRow takes both). */
export function neutraliseRow<T extends readonly unknown[] | Record<string, unknown>>(row: T): T {
  if (Array.isArray(row)) return row.map(neutraliseCell) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = neutraliseCell(value);
  return out as T;
}
